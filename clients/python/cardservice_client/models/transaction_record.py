from __future__ import annotations

import builtins
import datetime
from collections.abc import Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.transaction_record_channel import TransactionRecordChannel
from ..models.transaction_record_decision_type_0 import TransactionRecordDecisionType0
from ..models.transaction_record_direction import TransactionRecordDirection
from ..models.transaction_record_status import TransactionRecordStatus
from ..models.transaction_record_type import TransactionRecordType
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.clearing_data import ClearingData
    from ..models.merchant import Merchant
    from ..models.network_data import NetworkData
    from ..models.token_use import TokenUse


T = TypeVar("T", bound="TransactionRecord")


@_attrs_define
class TransactionRecord:
    """
    Example:
        {'uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'type': 'card_purchase', 'status': 'pending', 'amount': 12.5,
            'currency': 'EUR', 'direction': 'debit', 'card_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'account_uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'merchant': {'name': 'Ada Lovelace', 'mcc': '5411', 'country': 'DE',
            'city': 'Berlin'}, 'tag': 'example', 'error': 'example', 'fee': 12.5, 'refunded_amount': 12.5,
            'authorized_amount': 12.5, 'captured_amount': 12.5, 'hold_expires_at': '2026-03-19T10:15:00Z',
            'merchant_amount': 12.5, 'merchant_captured_amount': 12.5, 'merchant_currency': 'example', 'rate': 12.5,
            'flagged': True, 'description': 'Team travel', 'parent_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30',
            'decision': 'rules', 'channel': 'sandbox', 'network': {'stan': 'example', 'rrn': 'example', 'acquirer_id':
            'example', 'terminal_id': 'example', 'merchant_id': 'example', 'auth_code': 'example'}, 'token': {'uuid':
            '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'wallet': 'apple_pay', 'last4': '4242'}, 'stand_in': True, 'shortfall':
            12.5, 'clearing': {'file_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'message_number': 1, 'arn': 'example'},
            'receipt_attachment_uuid': '0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30', 'created_at': '2026-03-19T10:15:00Z',
            'updated_at': '2026-03-19T10:15:00Z'}

    Attributes:
        uuid (UUID):
        type (TransactionRecordType):
        status (TransactionRecordStatus):
        amount (Decimal):
        currency (str):
        direction (TransactionRecordDirection):
        card_uuid (None | UUID):
        account_uuid (UUID):
        merchant (Merchant | None):
        tag (None | str):
        error (None | str):
        fee (Decimal):
        refunded_amount (Decimal):
        authorized_amount (Decimal): A purchase's authorization plus its increments (0 for other types).
        captured_amount (Decimal): What the purchase's captures moved to the merchant so far.
        hold_expires_at (datetime.datetime | None): When a pending purchase's hold is reversed if not captured by then.
        merchant_amount (Decimal | None): A foreign-currency purchase: `amount` in the merchant's currency (while pending
            what is held plus what was captured; once completed, what was captured).
        merchant_captured_amount (Decimal | None): A foreign-currency purchase: what its captures took so far, in the
            merchant's currency (`captured_amount` is the same in the card's).
        merchant_currency (None | str): The merchant's currency, when foreign.
        rate (Decimal | None): Merchant currency → card currency rate applied (foreign purchases).
        flagged (bool):
        description (None | str):
        parent_uuid (None | UUID):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        decision (None | TransactionRecordDecisionType0 | Unset):
        channel (TransactionRecordChannel | Unset): Where the transaction entered the service. Default:
            TransactionRecordChannel.SANDBOX.
        network (NetworkData | None | Unset): The card network's data (channel `iso8583`).
        token (None | TokenUse | Unset): The digital-wallet token that paid (ISO 8583 with a DPAN).
        stand_in (bool | Unset): Approved by the network on the issuer's behalf (an ISO 8583 0120 advice). Default:
            False.
        shortfall (Decimal | Unset): What the card could not cover of a stand-in authorization, or of a clearing
            presentment (an over-capture, a force post): owed by the cardholder (booked to `cardholder_receivables`).
            Default: 0.0.
        clearing (ClearingData | None | Unset): The clearing file's record that booked it (docs/network.md#clearing-
            files).
        receipt_attachment_uuid (None | Unset | UUID): The receipt the holder linked (`PUT
            /transaction/{transactionUuid}/receipt`).
    """

    uuid: UUID
    type: TransactionRecordType
    status: TransactionRecordStatus
    amount: Decimal
    currency: str
    direction: TransactionRecordDirection
    card_uuid: None | UUID
    account_uuid: UUID
    merchant: Merchant | None
    tag: None | str
    error: None | str
    fee: Decimal
    refunded_amount: Decimal
    authorized_amount: Decimal
    captured_amount: Decimal
    hold_expires_at: datetime.datetime | None
    merchant_amount: Decimal | None
    merchant_captured_amount: Decimal | None
    merchant_currency: None | str
    rate: Decimal | None
    flagged: bool
    description: None | str
    parent_uuid: None | UUID
    created_at: datetime.datetime
    updated_at: datetime.datetime
    decision: None | TransactionRecordDecisionType0 | Unset = UNSET
    channel: TransactionRecordChannel | Unset = TransactionRecordChannel.SANDBOX
    network: NetworkData | None | Unset = UNSET
    token: None | TokenUse | Unset = UNSET
    stand_in: bool | Unset = False
    shortfall: Decimal | Unset = Decimal("0")
    clearing: ClearingData | None | Unset = UNSET
    receipt_attachment_uuid: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.clearing_data import ClearingData  # noqa: PLC0415
        from ..models.merchant import Merchant  # noqa: PLC0415
        from ..models.network_data import NetworkData  # noqa: PLC0415
        from ..models.token_use import TokenUse  # noqa: PLC0415

        uuid = str(self.uuid)

        type = self.type.value

        status = self.status.value

        amount = self.amount

        currency = self.currency

        direction = self.direction.value

        card_uuid: None | str
        if isinstance(self.card_uuid, UUID):
            card_uuid = str(self.card_uuid)
        else:
            card_uuid = self.card_uuid

        account_uuid = str(self.account_uuid)

        merchant: dict[str, Any] | None
        if isinstance(self.merchant, Merchant):
            merchant = self.merchant.to_dict()
        else:
            merchant = self.merchant

        tag: None | str
        tag = self.tag

        error: None | str
        error = self.error

        fee = self.fee

        refunded_amount = self.refunded_amount

        authorized_amount = self.authorized_amount

        captured_amount = self.captured_amount

        hold_expires_at: None | str
        if isinstance(self.hold_expires_at, datetime.datetime):
            hold_expires_at = self.hold_expires_at.isoformat()
        else:
            hold_expires_at = self.hold_expires_at

        merchant_amount: Decimal | None
        merchant_amount = self.merchant_amount

        merchant_captured_amount: Decimal | None
        merchant_captured_amount = self.merchant_captured_amount

        merchant_currency: None | str
        merchant_currency = self.merchant_currency

        rate: Decimal | None
        rate = self.rate

        flagged = self.flagged

        description: None | str
        description = self.description

        parent_uuid: None | str
        if isinstance(self.parent_uuid, UUID):
            parent_uuid = str(self.parent_uuid)
        else:
            parent_uuid = self.parent_uuid

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        decision: None | str | Unset
        if isinstance(self.decision, Unset):
            decision = UNSET
        elif isinstance(self.decision, TransactionRecordDecisionType0):
            decision = self.decision.value
        else:
            decision = self.decision

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        network: dict[str, Any] | None | Unset
        if isinstance(self.network, Unset):
            network = UNSET
        elif isinstance(self.network, NetworkData):
            network = self.network.to_dict()
        else:
            network = self.network

        token: dict[str, Any] | None | Unset
        if isinstance(self.token, Unset):
            token = UNSET
        elif isinstance(self.token, TokenUse):
            token = self.token.to_dict()
        else:
            token = self.token

        stand_in = self.stand_in

        shortfall = self.shortfall

        clearing: dict[str, Any] | None | Unset
        if isinstance(self.clearing, Unset):
            clearing = UNSET
        elif isinstance(self.clearing, ClearingData):
            clearing = self.clearing.to_dict()
        else:
            clearing = self.clearing

        receipt_attachment_uuid: None | str | Unset
        if isinstance(self.receipt_attachment_uuid, Unset):
            receipt_attachment_uuid = UNSET
        elif isinstance(self.receipt_attachment_uuid, UUID):
            receipt_attachment_uuid = str(self.receipt_attachment_uuid)
        else:
            receipt_attachment_uuid = self.receipt_attachment_uuid

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "uuid": uuid,
                "type": type,
                "status": status,
                "amount": amount,
                "currency": currency,
                "direction": direction,
                "card_uuid": card_uuid,
                "account_uuid": account_uuid,
                "merchant": merchant,
                "tag": tag,
                "error": error,
                "fee": fee,
                "refunded_amount": refunded_amount,
                "authorized_amount": authorized_amount,
                "captured_amount": captured_amount,
                "hold_expires_at": hold_expires_at,
                "merchant_amount": merchant_amount,
                "merchant_captured_amount": merchant_captured_amount,
                "merchant_currency": merchant_currency,
                "rate": rate,
                "flagged": flagged,
                "description": description,
                "parent_uuid": parent_uuid,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )
        if decision is not UNSET:
            field_dict["decision"] = decision
        if channel is not UNSET:
            field_dict["channel"] = channel
        if network is not UNSET:
            field_dict["network"] = network
        if token is not UNSET:
            field_dict["token"] = token
        if stand_in is not UNSET:
            field_dict["stand_in"] = stand_in
        if shortfall is not UNSET:
            field_dict["shortfall"] = shortfall
        if clearing is not UNSET:
            field_dict["clearing"] = clearing
        if receipt_attachment_uuid is not UNSET:
            field_dict["receipt_attachment_uuid"] = receipt_attachment_uuid

        return field_dict

    @classmethod
    def from_dict(cls: builtins.type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.clearing_data import ClearingData  # noqa: PLC0415
        from ..models.merchant import Merchant  # noqa: PLC0415
        from ..models.network_data import NetworkData  # noqa: PLC0415
        from ..models.token_use import TokenUse  # noqa: PLC0415

        d = dict(src_dict)
        uuid = UUID(d.pop("uuid"))

        type = TransactionRecordType(d.pop("type"))

        status = TransactionRecordStatus(d.pop("status"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        direction = TransactionRecordDirection(d.pop("direction"))

        def _parse_card_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                card_uuid_type_0 = UUID(data)

                return card_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        card_uuid = _parse_card_uuid(d.pop("card_uuid"))

        account_uuid = UUID(d.pop("account_uuid"))

        def _parse_merchant(data: object) -> Merchant | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                merchant_type_0 = Merchant.from_dict(data)

                return merchant_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Merchant | None, data)

        merchant = _parse_merchant(d.pop("merchant"))

        def _parse_tag(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        tag = _parse_tag(d.pop("tag"))

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        fee = d.pop("fee")

        refunded_amount = d.pop("refunded_amount")

        authorized_amount = d.pop("authorized_amount")

        captured_amount = d.pop("captured_amount")

        def _parse_hold_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                hold_expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return hold_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        hold_expires_at = _parse_hold_expires_at(d.pop("hold_expires_at"))

        def _parse_merchant_amount(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        merchant_amount = _parse_merchant_amount(d.pop("merchant_amount"))

        def _parse_merchant_captured_amount(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        merchant_captured_amount = _parse_merchant_captured_amount(d.pop("merchant_captured_amount"))

        def _parse_merchant_currency(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        merchant_currency = _parse_merchant_currency(d.pop("merchant_currency"))

        def _parse_rate(data: object) -> Decimal | None:
            if data is None:
                return data
            return cast(Decimal | None, data)

        rate = _parse_rate(d.pop("rate"))

        flagged = d.pop("flagged")

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_parent_uuid(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                parent_uuid_type_0 = UUID(data)

                return parent_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        parent_uuid = _parse_parent_uuid(d.pop("parent_uuid"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_decision(data: object) -> None | TransactionRecordDecisionType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                decision_type_0 = TransactionRecordDecisionType0(data)

                return decision_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TransactionRecordDecisionType0 | Unset, data)

        decision = _parse_decision(d.pop("decision", UNSET))

        _channel = d.pop("channel", UNSET)
        channel: TransactionRecordChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = TransactionRecordChannel(_channel)

        def _parse_network(data: object) -> NetworkData | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                network_type_0 = NetworkData.from_dict(data)

                return network_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(NetworkData | None | Unset, data)

        network = _parse_network(d.pop("network", UNSET))

        def _parse_token(data: object) -> None | TokenUse | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                token_type_0 = TokenUse.from_dict(data)

                return token_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TokenUse | Unset, data)

        token = _parse_token(d.pop("token", UNSET))

        stand_in = d.pop("stand_in", UNSET)

        shortfall = d.pop("shortfall", UNSET)

        def _parse_clearing(data: object) -> ClearingData | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                clearing_type_0 = ClearingData.from_dict(data)

                return clearing_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ClearingData | None | Unset, data)

        clearing = _parse_clearing(d.pop("clearing", UNSET))

        def _parse_receipt_attachment_uuid(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                receipt_attachment_uuid_type_0 = UUID(data)

                return receipt_attachment_uuid_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        receipt_attachment_uuid = _parse_receipt_attachment_uuid(d.pop("receipt_attachment_uuid", UNSET))

        transaction_record = cls(
            uuid=uuid,
            type=type,
            status=status,
            amount=amount,
            currency=currency,
            direction=direction,
            card_uuid=card_uuid,
            account_uuid=account_uuid,
            merchant=merchant,
            tag=tag,
            error=error,
            fee=fee,
            refunded_amount=refunded_amount,
            authorized_amount=authorized_amount,
            captured_amount=captured_amount,
            hold_expires_at=hold_expires_at,
            merchant_amount=merchant_amount,
            merchant_captured_amount=merchant_captured_amount,
            merchant_currency=merchant_currency,
            rate=rate,
            flagged=flagged,
            description=description,
            parent_uuid=parent_uuid,
            created_at=created_at,
            updated_at=updated_at,
            decision=decision,
            channel=channel,
            network=network,
            token=token,
            stand_in=stand_in,
            shortfall=shortfall,
            clearing=clearing,
            receipt_attachment_uuid=receipt_attachment_uuid,
        )

        transaction_record.additional_properties = d
        return transaction_record

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

"""The transaction record (the API's shape), built from a row in one place.

Every read of a transaction selects `transaction_columns(alias)` first in its row and hands
the row to `transaction_record`; a transaction just written is a dict of its columns
(`transactions.repository.transaction_row`) and goes through `transaction_record_of`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from datetime import date, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

import orjson

from cardservice.db.sql import Row, as_datetime, as_uuid, flag, iso_z, text_uuid
from cardservice.ledger.minor_units import from_minor
from cardservice.security import mask

TRANSACTION_FIELDS = (
    "uuid", "type", "status", "amount", "currency", "direction", "card_uuid", "account_uuid",
    "merchant_name", "merchant_mcc", "merchant_country", "merchant_city", "tag_slug",
    "error_slug", "fee", "refunded_amount", "flagged", "description", "parent_uuid",
    "decision", "created_at", "updated_at", "authorized_amount", "captured_amount",
    "hold_expires_at", "merchant_amount", "merchant_currency", "rate",
    "merchant_captured_amount", "channel", "network", "stand_in", "shortfall", "clearing",
    "receipt_attachment_uuid", "token",
)  # fmt: skip
NEWEST_FIRST = "ORDER BY t.created_at DESC, t.uuid DESC"
ARN_PREFIX = "7"  # an ARN's format code: a purchase the issuer's service captured
ARN_PROCESSOR = "500000"  # the 6 digits that name who made the ARN: the service
CAPTURED = ("completed", "refunded")
WITH_ARN = ("card_purchase", "atm_withdrawal")  # the captured ones show their ARN


_DOUBLED = (0, 2, 4, 6, 8, 1, 3, 5, 7, 9)  # a digit doubled, its two digits added


def _luhn_digit(digits: str) -> str:
    """The check digit that makes `digits` + it pass the Luhn test."""
    total = sum(map(_DOUBLED.__getitem__, map(int, digits[::-2])))  # from the right: doubled
    total += sum(map(int, digits[-2::-2]))
    return str((10 - total % 10) % 10)


def purchase_arn(purchase_uuid: Any, created_at: Any) -> str:
    """The 23-digit ARN of a card purchase captured online (docs/disputes.md#the-arn): format
    code, processor, the purchase's date (YDDD), 11 digits of its uuid, a Luhn check digit."""
    moment = as_datetime(created_at)
    assert moment is not None
    number = as_uuid(purchase_uuid).int % 10**11  # type: ignore[union-attr]
    day = f"{moment.year % 10}{moment.toordinal() - date(moment.year, 1, 1).toordinal() + 1:03d}"
    body = f"{ARN_PREFIX}{ARN_PROCESSOR}{day}{number:011d}"
    return body + _luhn_digit(body)


def _network(row: Mapping[str, Any]) -> dict[str, Any] | None:
    """The network's data of the transaction; a captured card purchase's or ATM withdrawal's
    ARN with it (its presentment's, when a clearing file booked it)."""
    network = None if row["network"] is None else orjson.loads(row["network"])
    if row["type"] not in WITH_ARN or row["status"] not in CAPTURED:
        return network
    cleared = None if row["clearing"] is None else orjson.loads(row["clearing"]).get("arn")
    return {**(network or {}), "arn": cleared or purchase_arn(row["uuid"], row["created_at"])}


@dataclass(frozen=True, slots=True)
class Purchase(Mapping[str, Any]):
    """A transaction row read under its lock (`locks.lock_purchase`), typed: the fields the
    hold's and the state machine's rules use as attributes, every column (`columns`, plus
    `user_uuid` and `captured_at`) readable by name as a mapping, with the typed fields'
    values — what `transaction_record_of` and `credit_row` read. Never changed in place: a
    transition returns a new one (`dataclasses.replace`)."""

    uuid: UUID
    user_uuid: UUID
    account_uuid: UUID
    card_uuid: UUID | None
    type: str
    status: str
    currency: str
    amount: int  # what the card pays: held + captured while pending
    authorized_amount: int
    captured_amount: int
    fee: int
    shortfall: int  # what its cardholder owes `cardholder_receivables` for it
    refunded_amount: int
    stand_in: bool
    merchant_currency: str | None  # a foreign purchase's (the amounts below are in it)
    merchant_amount: int | None
    merchant_captured_amount: int | None
    rate: str | None  # merchant currency → card currency
    updated_at: datetime
    columns: Mapping[str, Any]

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> Purchase:
        """The record of a row read by name (every column of `_PURCHASE_FIELDS`)."""

        def optional(name: str) -> int | None:
            return None if row[name] is None else int(row[name])

        return cls(
            uuid=as_uuid(row["uuid"]),  # type: ignore[arg-type]
            user_uuid=as_uuid(row["user_uuid"]),  # type: ignore[arg-type]
            account_uuid=as_uuid(row["account_uuid"]),  # type: ignore[arg-type]
            card_uuid=as_uuid(row["card_uuid"]),
            type=str(row["type"]),
            status=str(row["status"]),
            currency=str(row["currency"]),
            amount=int(row["amount"]),
            authorized_amount=int(row["authorized_amount"]),
            captured_amount=int(row["captured_amount"]),
            fee=int(row["fee"]),
            shortfall=int(row["shortfall"]),
            refunded_amount=int(row["refunded_amount"]),
            stand_in=bool(row["stand_in"]),
            merchant_currency=row["merchant_currency"],
            merchant_amount=optional("merchant_amount"),
            merchant_captured_amount=optional("merchant_captured_amount"),
            rate=None if row["rate"] is None else str(row["rate"]),
            updated_at=row["updated_at"],
            columns={**row, "parent_uuid": as_uuid(row["parent_uuid"])},
        )

    @property
    def held(self) -> int:
        """What is still on hold (pending: the amount not captured yet)."""
        return self.amount - self.captured_amount

    def __getitem__(self, name: str) -> Any:
        if name in _TYPED and name != "columns":
            return getattr(self, name)
        return self.columns[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.columns)

    def __len__(self) -> int:
        return len(self.columns)


_TYPED = frozenset(field.name for field in fields(Purchase))


def transaction_columns(table: str) -> str:
    """The select list `transaction_record` reads (put it first in the row)."""
    return ", ".join(f"{table}.{name}" for name in TRANSACTION_FIELDS)


def transaction_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `transaction_columns(…)` → the API's transaction record."""
    return transaction_record_of(dict(zip(TRANSACTION_FIELDS, row, strict=False)))


def transaction_record_of(
    row: Mapping[str, Any], money: Callable[[int], Any] = from_minor
) -> dict[str, Any]:
    """The record of a transaction held as a mapping of its columns (read by name); its
    amounts as `money` makes them (Decimals; JSON's own text for a record only written as JSON:
    `encoding.minor_json`)."""
    merchant = None
    if row["merchant_name"] is not None:
        merchant = {
            "name": row["merchant_name"],
            "mcc": row["merchant_mcc"],
            "country": row["merchant_country"],
            "city": row["merchant_city"],
        }
    merchant_amount, merchant_captured = row["merchant_amount"], row["merchant_captured_amount"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "type": row["type"],
        "status": row["status"],
        "amount": money(row["amount"]),
        "currency": row["currency"],
        "direction": row["direction"],
        "card_uuid": text_uuid(row["card_uuid"]),
        "account_uuid": text_uuid(row["account_uuid"]),
        "merchant": merchant,
        "tag": row["tag_slug"],
        "error": row["error_slug"],
        "fee": money(row["fee"]),
        "refunded_amount": money(row["refunded_amount"]),
        "authorized_amount": money(row["authorized_amount"]),
        "captured_amount": money(row["captured_amount"]),
        "hold_expires_at": iso_z(row["hold_expires_at"]),
        "merchant_amount": None if merchant_amount is None else money(merchant_amount),
        "merchant_captured_amount": None if merchant_captured is None else money(merchant_captured),
        "merchant_currency": row["merchant_currency"],
        "rate": None if row["rate"] is None else Decimal(row["rate"]),
        "flagged": flag(row["flagged"]),
        "description": row["description"],
        "parent_uuid": text_uuid(row["parent_uuid"]),
        "decision": row["decision"],
        "channel": row["channel"],
        "network": _network(row),
        "token": None if row["token"] is None else orjson.loads(row["token"]),
        "stand_in": flag(row["stand_in"]),
        "shortfall": money(row["shortfall"]),
        "receipt_attachment_uuid": text_uuid(row["receipt_attachment_uuid"]),
        "clearing": None if row["clearing"] is None else orjson.loads(row["clearing"]),
        "created_at": iso_z(row["created_at"]),
        "updated_at": iso_z(row["updated_at"]),
    }


def three_ds_code_record(row: Row | Mapping[str, Any], code: str | None = None) -> dict[str, Any]:
    """A 3DS code's record (`ThreeDsRecord`) with the code itself; without it when `code` is
    None (what its event carries). The card's mask, never its number."""
    record = {
        "uuid": text_uuid(row["uuid"]),
        "card_uuid": text_uuid(row["card_uuid"]),
        "card_mask": mask(row["bin"], row["last4"]),
        "merchant_name": row["merchant_name"],
        "amount": from_minor(row["amount"]),
        "currency": row["currency"],
        "created_at": iso_z(row["created_at"]),
        "expires_at": iso_z(row["expires_at"]),
    }
    if code is not None:
        record["code"] = code
    return record

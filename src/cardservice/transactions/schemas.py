"""Transaction and 3DS records, and the sandbox requests."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Literal
from uuid import UUID

from pydantic import AfterValidator, BaseModel, Field, StringConstraints, WithJsonSchema

from cardservice.catalogue import load_catalogue
from cardservice.values.amounts import MoneyOut, PositiveAmount, PositiveRate
from cardservice.values.requests import StrictRequest, UuidStr

TransactionType = Literal[
    "card_purchase",
    "card_refund",
    "card_issue",
    "card_topup",
    "auto_replenish",
    "fee",
    "deposit",
    "card_close",
    "dispute_credit",
    "withdrawal",
    "card_transfer",
    "dispute_provisional_credit",
    "dispute_provisional_reversal",
    "atm_withdrawal",
]
Decision = Literal["rules", "endpoint", "timeout", "endpoint_error", "stand_in"]
TransactionStatus = Literal["pending", "completed", "declined", "reversed", "refunded"]
Rate = Annotated[Decimal, WithJsonSchema({"type": "number", "format": "decimal"})]
Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
MerchantName = Annotated[str, StringConstraints(min_length=1, max_length=120)]
# The decline slugs of the transaction-errors dictionary: the shipped catalogue's (each
# migration syncs it); the dictionary also lists the refusals of a dispute, which no decline uses.
ERROR_SLUGS = tuple(entry["slug"] for entry in load_catalogue()["transaction_errors"])


def _error_slug(value: str) -> str:
    if value not in ERROR_SLUGS:
        raise ValueError("not a decline slug of /dictionary/transaction-errors")
    return value


ForcedDecline = Annotated[
    str,
    AfterValidator(_error_slug),
    WithJsonSchema({"type": "string", "enum": list(ERROR_SLUGS)}),
]


class Merchant(BaseModel):
    name: str
    mcc: str | None
    country: str | None
    city: str | None


class NetworkData(BaseModel):
    """ISO 8583 data of a transaction that came through the network
    (docs/network.md#the-network-interface-iso-8583)."""

    stan: str = Field(description="System trace audit number (DE 11).")
    rrn: str | None = Field(description="Retrieval reference number (DE 37).")
    acquirer_id: str = Field(description="Acquiring institution id (DE 32).")
    terminal_id: str | None = Field(description="Card acceptor terminal id (DE 41).")
    merchant_id: str | None = Field(description="Card acceptor id (DE 42).")
    auth_code: str | None = Field(description="Authorization code given (DE 38).")


class ClearingData(BaseModel):
    """The clearing file's record that booked a transaction (docs/network.md#clearing-files)."""

    file_uuid: UUID = Field(
        description="The clearing file (`GET /operator/clearing-files/{uuid}`)."
    )
    message_number: int = Field(description="The record's message number in the file (DE 71).")
    arn: str | None = Field(description="Acquirer reference data (DE 31).")


class TokenUse(BaseModel):
    """The digital-wallet token a payment was made with (docs/network.md#wallet-tokens): never its
    number."""

    uuid: UUID = Field(description="The token (`GET /card/{cardUuid}/tokens`).")
    wallet: Literal["apple_pay", "google_pay", "samsung_pay", "card_on_file"]
    last4: str = Field(description="The last four digits of the device PAN.")


class TransactionRecord(BaseModel):
    uuid: UUID
    type: TransactionType
    status: TransactionStatus
    amount: MoneyOut
    currency: str
    direction: Literal["debit", "credit"]
    card_uuid: UUID | None
    account_uuid: UUID
    merchant: Merchant | None
    tag: str | None
    error: str | None
    fee: MoneyOut
    refunded_amount: MoneyOut
    authorized_amount: MoneyOut = Field(
        description="A purchase's authorization plus its increments (0 for other types)."
    )
    captured_amount: MoneyOut = Field(
        description="What the purchase's captures moved to the merchant so far."
    )
    hold_expires_at: datetime | None = Field(
        description="When a pending purchase's hold is reversed if not captured by then."
    )
    merchant_amount: MoneyOut | None = Field(
        description="A foreign-currency purchase: `amount` in the merchant's currency (while "
        "pending what is held plus what was captured; once completed, what was captured)."
    )
    merchant_captured_amount: MoneyOut | None = Field(
        description="A foreign-currency purchase: what its captures took so far, in the "
        "merchant's currency (`captured_amount` is the same in the card's)."
    )
    merchant_currency: str | None = Field(description="The merchant's currency, when foreign.")
    rate: Rate | None = Field(
        description="Merchant currency → card currency rate applied (foreign purchases)."
    )
    flagged: bool
    description: str | None
    parent_uuid: UUID | None
    decision: Decision | None = None
    channel: Literal["sandbox", "iso8583", "clearing"] = Field(
        default="sandbox", description="Where the transaction entered the service."
    )
    network: NetworkData | None = Field(
        default=None, description="The card network's data (channel `iso8583`)."
    )
    token: TokenUse | None = Field(
        default=None, description="The digital-wallet token that paid (ISO 8583 with a DPAN)."
    )
    stand_in: bool = Field(
        default=False,
        description="Approved by the network on the issuer's behalf (an ISO 8583 0120 advice).",
    )
    shortfall: MoneyOut = Field(
        default=Decimal(0),
        description="What the card could not cover of a stand-in authorization, or of a "
        "clearing presentment (an over-capture, a force post): owed by the cardholder "
        "(booked to `cardholder_receivables`).",
    )
    clearing: ClearingData | None = Field(
        default=None,
        description="The clearing file's record that booked it (docs/network.md#clearing-files).",
    )
    receipt_attachment_uuid: UUID | None = Field(
        default=None,
        description="The receipt the holder linked (`PUT /transaction/{transactionUuid}/receipt`).",
    )
    created_at: datetime
    updated_at: datetime


class ThreeDsRecord(BaseModel):
    uuid: UUID
    code: str
    card_uuid: UUID
    card_mask: str
    merchant_name: str
    amount: MoneyOut
    currency: str
    created_at: datetime
    expires_at: datetime


class DepositRequest(StrictRequest):
    account_uuid: UuidStr
    """One of the caller's accounts."""
    amount: PositiveAmount
    """How much arrives, in the account's currency (a JSON number, at most 2 decimals, > 0)."""


class AuthorizationRequest(StrictRequest):
    card_uuid: UuidStr
    """One of the caller's cards."""
    amount: PositiveAmount
    """The purchase amount in `currency` (a JSON number, at most 2 decimals, > 0); held on the
    card with the `card_transaction` fee when approved."""
    currency: Currency
    """The merchant's currency, ISO 4217; another than the card's is converted at
    `/dictionary/fx-rates` (with the `card_fx` fee), a currency missing there declines
    `currency_not_supported`."""
    merchant_name: MerchantName
    """The merchant as the cardholder will see it, 1..120 characters; a `merchant_locked` card
    is locked to it."""
    mcc: Annotated[str, StringConstraints(pattern=r"^\d{4}$")] | None = None
    """The merchant category code, 4 digits (`5411` groceries)."""
    merchant_country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")] | None = None
    """The merchant's country, ISO 3166-1 alpha-2 (checked against the card's country controls)."""
    merchant_city: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    """The merchant's city, 1..120 characters."""
    tag: (
        Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=64)]
        | None
    ) = None
    """The merchant's tag, a slug of `/dictionary/transaction-tags/search` (e.g. `amazon`); a
    blocked tag declines `merchant_blocked`. An unknown slug is refused."""
    three_ds_code: Annotated[str, StringConstraints(pattern=r"^\d{6}$")] | None = None
    """A 3DS code of this card not yet used (`POST /sandbox/3ds`), 6 digits; wrong or used →
    declined `invalid_3ds`."""
    force_decline: ForcedDecline | None = None
    """Rehearse a decline: any slug of `/dictionary/transaction-errors`; the authorization is
    declined with it (the decline fee applies)."""


class CaptureRequest(StrictRequest):
    amount: PositiveAmount | None = Field(
        default=None,
        description="What to capture (a foreign-currency purchase: in the merchant's "
        "currency); without it, all that is held.",
    )
    rate: PositiveRate | None = Field(
        default=None,
        description="A foreign-currency purchase settled at another rate than authorized "
        "(merchant currency → card currency); the difference moves through the ledger.",
    )
    final: bool = Field(
        default=True,
        description="false keeps what is not captured held for later captures; true (the "
        "default) releases it to the card at once.",
    )


class IncrementRequest(StrictRequest):
    amount: PositiveAmount
    """How much to add to the hold (a JSON number, at most 2 decimals, > 0)."""


class RefundRequest(StrictRequest):
    amount: PositiveAmount | None = None
    """How much to refund (a JSON number, at most 2 decimals, > 0), at most what was captured
    less earlier refunds; default: all of that."""


class ThreeDsRequest(StrictRequest):
    card_uuid: UuidStr
    """One of the caller's cards."""
    merchant_name: MerchantName
    """The merchant the code is for, 1..120 characters."""
    amount: PositiveAmount
    """The purchase amount the code confirms (a JSON number, at most 2 decimals, > 0)."""
    currency: Currency
    """The purchase currency, ISO 4217."""


class ReportTotal(BaseModel):
    """What the matching transactions moved in one currency: debits (amounts out and every
    fee charged) and credits (docs/transactions.md#reading)."""

    currency: str
    debits: MoneyOut
    credits: MoneyOut


class ReportPageMeta(BaseModel):
    """Page numbers (docs/api.md#pagination), and the uuid a keyset walk continues after."""

    current_page: int
    per_page: int
    total: int
    last_page: int
    next_starting_after: UUID | None
    totals: list[ReportTotal] | None


class ReportKeysetMeta(BaseModel):
    """A keyset page (`starting_after`, docs/transactions.md#reading)."""

    per_page: int
    total: int
    next_starting_after: UUID | None
    totals: list[ReportTotal] | None


class ReportPage(BaseModel):
    success: bool = True
    meta: ReportPageMeta | ReportKeysetMeta
    data: list[TransactionRecord]

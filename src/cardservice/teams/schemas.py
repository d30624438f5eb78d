"""Team records and requests (docs/teams.md#teams-budgets-requests-receipts)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal
from uuid import UUID

from pydantic import BaseModel, Field, StringConstraints

from cardservice.values.amounts import Amount, MoneyOut, PositiveAmount
from cardservice.values.requests import StrictRequest, UuidStr

Currency = Annotated[str, StringConstraints(pattern=r"^[A-Z]{3}$")]
RequestKind = Literal["card", "budget_increase"]
RequestStatus = Literal["pending", "approved", "declined"]
MemberCards = Literal["direct", "request"]
Text255 = Annotated[str, StringConstraints(min_length=1, max_length=255)]
Days = Annotated[int, Field(ge=0, le=365, strict=False)]  # 242.0 is a whole number (JSON Schema)


class MemberRef(BaseModel):
    uuid: UUID
    name: str


class BudgetRecord(BaseModel):
    member: MemberRef
    currency: str
    amount: MoneyOut = Field(
        description="this month's budget: the monthly amount plus the"
        " increases approved for this month"
    )
    monthly_amount: MoneyOut = Field(description="the budget of every month")
    spent: MoneyOut = Field(
        description="the member's card purchases in this currency this UTC"
        " month, approved (held or captured) less released or refunded"
    )
    remaining: MoneyOut = Field(
        description="`amount - spent`; below 0 only when a purchase"
        " that is never refused (a stand-in, a force post) went past"
    )
    month: str = Field(description="the UTC calendar month, `YYYY-MM`")


class SetBudgetRequest(StrictRequest):
    amount: PositiveAmount
    """The monthly budget, > 0, at most 2 decimals."""
    currency: Currency
    """A currency the member holds an account in."""


class TeamRequestRecord(BaseModel):
    uuid: UUID
    kind: RequestKind
    status: RequestStatus
    requested_by: MemberRef
    details: dict[str, Any] = Field(description="what was asked, as it was asked")
    decided_by: MemberRef | None
    decision_reason: str | None
    result: dict[str, Any] | None = Field(
        description="what an approval made: `card_uuids` and `charge` of a card, the budget's"
        " new `amount` of an increase"
    )
    created_at: datetime
    updated_at: datetime
    decided_at: datetime | None


class CreateTeamRequest(StrictRequest):
    kind: RequestKind
    """`card`: a new card on one of the member's accounts; `budget_increase`: more budget
    this month."""
    account_uuid: UuidStr | None = None
    """`card`: the member's own account the card is bought on."""
    bin_uuid: UuidStr | None = None
    """`card`: the BIN (`GET /dictionary/bins`)."""
    start_balance: Amount | None = None
    """`card`: the card's start balance (default 0), as `POST /card/buy` takes it."""
    description: Text255 | None = None
    """`card`: the card's description."""
    amount: PositiveAmount | None = None
    """`budget_increase`: how much more, > 0, at most 2 decimals."""
    currency: Currency | None = None
    """`budget_increase`: the budget's currency."""
    reason: Text255 | None = None
    """`budget_increase`: why, for the owner."""


class DeclineRequest(StrictRequest):
    reason: Text255 | None = None
    """Why, for the member."""


class ReceiptPolicyRequest(StrictRequest):
    min_amount: Amount
    """Purchases of at least this much (in `currency`) need a receipt."""
    currency: Currency
    """The currency of `min_amount`; purchases in it are chased."""
    remind_after_days: Days
    """Days after capture before `transaction.receipt_missing` is sent (0..365)."""
    freeze_after_days: Days
    """Days after capture before the card is frozen (≥ `remind_after_days`, ≤ 365)."""


class ReceiptPolicyRecord(BaseModel):
    min_amount: MoneyOut
    currency: str
    remind_after_days: int
    freeze_after_days: int
    created_at: datetime
    updated_at: datetime


class MissingReceipt(BaseModel):
    transaction_uuid: UUID
    member: MemberRef
    card_uuid: UUID
    amount: MoneyOut
    currency: str
    merchant_name: str | None
    captured_at: datetime
    reminded: bool = Field(description="`transaction.receipt_missing` was sent")
    card_frozen: bool = Field(description="its card is frozen for missing receipts")


class LinkReceiptRequest(StrictRequest):
    attachment_uuid: UuidStr
    """One of the caller's attachments of type `receipt`, `invoice` or `photo`."""


class CardPolicyRequest(StrictRequest):
    member_cards: MemberCards
    """`direct`: members buy cards themselves (`POST /card/buy`); `request`: a member's buy is
    refused (403 `request_required`) and the member asks (`POST /team/requests`, kind `card`)."""


class CardPolicyRecord(BaseModel):
    member_cards: MemberCards = Field(
        description="direct: members buy cards; request: members ask the owner for them"
    )

"""Card records and the card requests (`extra="forbid"`: unknown fields are 422)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal, Self
from uuid import UUID

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    field_validator,
    model_validator,
)

from cardservice.money_types import (
    AMOUNT_SCHEMA,
    POSITIVE_AMOUNT_SCHEMA,
    Amount,
    MoneyOut,
    PositiveAmount,
    WholeNumber,
)
from cardservice.request_types import StrictRequest, UuidStr

# API.md §13: single_use closes after its first capture; merchant_locked stays with the
# merchant of its first approved authorization (transactions/card_types.py)
CardType = Literal["multi_use", "single_use", "merchant_locked"]


class HolderAddress(BaseModel):
    line1: str | None = None
    line2: str | None = None
    city: str | None = None
    state: str | None = None
    postal_code: str | None = None
    country: str | None = None


class AutoReplenish(BaseModel):
    enabled: bool
    amount: MoneyOut | None
    min_balance: MoneyOut | None


class SpendingControlsRecord(BaseModel):
    per_authorization: MoneyOut | None
    daily: MoneyOut | None
    weekly: MoneyOut | None
    monthly: MoneyOut | None
    lifetime: MoneyOut | None
    allowed_tags: list[str] | None
    blocked_tags: list[str]
    allowed_countries: list[str] | None
    blocked_countries: list[str]


class CardRecord(BaseModel):
    uuid: UUID
    account_uuid: UUID
    bin: str
    brand: str
    mask: str
    last4: str
    expiry_month: int
    expiry_year: int
    currency: str
    balance: MoneyOut
    status: Literal["active", "frozen", "closed"]
    is_favorite: bool
    sort_order: int
    description: str | None
    external_id: str | None
    holder_name: str | None = None
    holder_address: HolderAddress | None = None
    auto_replenish: AutoReplenish
    spending_controls: SpendingControlsRecord | None = None
    created_at: datetime
    updated_at: datetime
    card_type: CardType = "multi_use"
    locked_merchant: str | None = Field(
        default=None,
        description="a merchant_locked card's merchant, once its first approval set it",
    )
    closed_reason: Literal["lost", "stolen", "damaged", "expiring"] | None = None
    replaces: UUID | None = None
    replaced_by: UUID | None = None


class CardList(BaseModel):
    cards: list[CardRecord]


class RevealRequest(StrictRequest):
    """`POST /card/{uuid}/reveal` (API.md §13): a live MFA code of the caller, used up."""

    mfa_code: Annotated[str, StringConstraints(min_length=1, max_length=64)]


class CardDetails(BaseModel):
    """What a holder types into a checkout page; answered once per reveal, `no-store`."""

    pan: str
    cvv2: str
    expiry_month: int
    expiry_year: int
    holder_name: str | None


class BuyCardsRequest(StrictRequest):
    account_uuid: UuidStr
    bin_uuid: UuidStr
    start_balance: Amount = Decimal(0)
    description: Annotated[str, StringConstraints(max_length=255)] | None = None
    external_id: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    cards_count: WholeNumber = Field(default=1, ge=1, le=100)
    auto_replenish_amount: Annotated[
        PositiveAmount | None, WithJsonSchema(POSITIVE_AMOUNT_SCHEMA)
    ] = None
    auto_replenish_min_balance: Annotated[Amount | None, WithJsonSchema(AMOUNT_SCHEMA)] = None
    card_type: CardType = "multi_use"

    model_config = ConfigDict(
        json_schema_extra={
            "dependentRequired": {
                "auto_replenish_amount": ["auto_replenish_min_balance"],
                "auto_replenish_min_balance": ["auto_replenish_amount"],
            }
        }
    )

    @field_validator("auto_replenish_amount", "auto_replenish_min_balance", mode="before")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field instead of sending null")
        return value

    @model_validator(mode="after")
    def _replenish_pair(self) -> Self:
        if (self.auto_replenish_amount is None) != (self.auto_replenish_min_balance is None):
            raise ValueError(
                "auto_replenish_amount and auto_replenish_min_balance come together or not at all"
            )
        return self


class AccountBalance(BaseModel):
    uuid: UUID
    balance: MoneyOut


class Charge(BaseModel):
    total: MoneyOut
    fees: MoneyOut
    start_balance_total: MoneyOut
    currency: str


class BuyCardsResult(BaseModel):
    cards: list[CardRecord]
    account: AccountBalance
    charge: Charge
    external_id: str | None


def _distinct(values: list[str]) -> list[str]:
    if len({value.lower() for value in values}) != len(values):
        raise ValueError("card uuids must be distinct")
    return [value.lower() for value in values]


CardUuids = Annotated[list[UuidStr], Field(min_length=1, max_length=500), AfterValidator(_distinct)]


UNIQUE = Field(json_schema_extra={"uniqueItems": True})


class FavoriteRequest(StrictRequest):
    card_uuids: CardUuids = UNIQUE
    is_favorite: bool


class SortRequest(StrictRequest):
    card_uuids: CardUuids = UNIQUE


Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=64)]
CountryCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
# null is a value here ("no limit", "no amount"), and the schema says so
NULLABLE_POSITIVE_AMOUNT = {"anyOf": [POSITIVE_AMOUNT_SCHEMA, {"type": "null"}]}
NULLABLE_AMOUNT = {"anyOf": [AMOUNT_SCHEMA, {"type": "null"}]}
Limit = Annotated[PositiveAmount | None, WithJsonSchema(NULLABLE_POSITIVE_AMOUNT)]


class SpendingControls(StrictRequest):
    """A card's controls (API.md §10): limits in the card's currency (`null` = none), tags
    and countries allowed (`null` = any) and blocked."""

    per_authorization: Limit = None
    daily: Limit = None
    weekly: Limit = None
    monthly: Limit = None
    lifetime: Limit = None
    allowed_tags: Annotated[list[Slug], Field(max_length=200)] | None = None
    blocked_tags: Annotated[list[Slug], Field(max_length=200)] = []
    allowed_countries: Annotated[list[CountryCode], Field(max_length=250)] | None = None
    blocked_countries: Annotated[list[CountryCode], Field(max_length=250)] = []


class HolderAddressIn(StrictRequest):
    line1: Annotated[str, StringConstraints(max_length=200)] | None = None
    line2: Annotated[str, StringConstraints(max_length=200)] | None = None
    city: Annotated[str, StringConstraints(max_length=120)] | None = None
    state: Annotated[str, StringConstraints(max_length=120)] | None = None
    postal_code: Annotated[str, StringConstraints(max_length=20)] | None = None
    country: CountryCode | None = None


class AutoReplenishIn(StrictRequest):
    """`enabled: true` needs `amount` and `min_balance`; `enabled: false` turns it off."""

    enabled: bool
    amount: Annotated[PositiveAmount | None, WithJsonSchema(NULLABLE_POSITIVE_AMOUNT)] = None
    min_balance: Annotated[Amount | None, WithJsonSchema(NULLABLE_AMOUNT)] = None

    @model_validator(mode="after")
    def _amounts_when_enabled(self) -> Self:
        if self.enabled and (self.amount is None or self.min_balance is None):
            raise ValueError("amount and min_balance are required when enabled")
        if not self.enabled and (self.amount is not None or self.min_balance is not None):
            raise ValueError("send no amounts when turning auto-replenish off")
        return self


def _not_null(schema: dict[str, Any]) -> None:
    """The field's schema without its `null` option and its `null` default."""
    schema.pop("default", None)
    options = [o for o in schema.pop("anyOf", []) if o != {"type": "null"}]
    if len(options) == 1:
        schema.update(options[0])
    elif options:
        schema["anyOf"] = options


def omittable() -> Any:
    """A field (typed `X | None`) that may be left out but not sent as `null` (a validator
    refuses it): its schema admits no null and shows no `null` default."""
    return Field(default=None, json_schema_extra=_not_null)


class CardChangeRequest(StrictRequest):
    """PATCH /card/{cardUuid}: any of these; a field left out is left as it is."""

    status: Literal["active", "frozen", "closed"] | None = omittable()
    description: Annotated[str, StringConstraints(max_length=255)] | None = None
    holder_name: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    holder_address: HolderAddressIn | None = None
    auto_replenish: AutoReplenishIn | None = omittable()
    spending_controls: SpendingControls | None = None

    @field_validator("status", "auto_replenish", mode="before")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field instead of sending null")
        return value


class ReplaceCardRequest(StrictRequest):
    """POST /card/{cardUuid}/replace (API.md §15)."""

    reason: Literal["lost", "stolen", "damaged", "expiring"]

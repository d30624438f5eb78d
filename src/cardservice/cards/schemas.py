"""Card records and the card requests (`extra="forbid"`: unknown fields are 422)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Literal, Self
from uuid import UUID

from iso3166 import countries_by_alpha2
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

from cardservice.values.amounts import (
    AMOUNT_SCHEMA,
    POSITIVE_AMOUNT_SCHEMA,
    Amount,
    MoneyOut,
    PositiveAmount,
    WholeNumber,
)
from cardservice.values.requests import StrictRequest, UuidStr

# docs/security.md#card-details-cvv2-and-issuer-keys: single_use closes after its first capture;
# merchant_locked stays with the merchant of its first approved authorization
# (transactions/card_types.py)
CardType = Literal["multi_use", "single_use", "merchant_locked"]
# docs/cards.md#physical-cards
CardForm = Literal["virtual", "physical"]
FulfilmentStatus = Literal["ordered", "printed", "shipped", "delivered", "returned"]


class HolderAddress(BaseModel):
    line1: str | None = None
    line2: str | None = None
    city: str | None = None
    state: str | None = None
    postal_code: str | None = None
    country: str | None = None


class ShippingAddress(BaseModel):
    name: str
    line1: str
    line2: str | None
    city: str
    postal_code: str
    country: str


class Fulfilment(BaseModel):
    status: FulfilmentStatus
    carrier: str | None
    tracking: str | None
    updated_at: datetime


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
    atm_per_day: MoneyOut | None = None
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
    status: Literal["active", "frozen", "closed", "inactive"] = Field(
        description="inactive: a physical card until its holder activates it"
        " (`POST /card/{cardUuid}/activate`)"
    )
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
    frozen_reason: Literal["suspected_fraud", "receipt_missing", "operator", "owner"] | None = (
        Field(
            default=None,
            description="suspected_fraud: the card-testing guard froze the card (its 5th wrong"
            " expiry or CVV2 within 24 h); cleared when its holder sets its status."
            " receipt_missing: the team's receipt policy froze it until the receipts of its"
            " purchases are linked (docs/teams.md). operator: the program's operator froze it;"
            " only the operator unfreezes it (docs/operations.md). owner: the team's owner"
            " froze it; only a team owner unfreezes it (docs/teams.md)",
        )
    )
    form: CardForm = "virtual"
    shipping: ShippingAddress | None = Field(
        default=None, description="a physical card's delivery address; null for a virtual card"
    )
    fulfilment: Fulfilment | None = Field(
        default=None,
        description="a physical card's production and delivery: ordered → printed → shipped →"
        " delivered, or returned from shipped; null for a virtual card",
    )
    pin_set: bool = Field(default=False, description="its holder has set a PIN")
    pin_blocked: bool = Field(
        default=False, description="the PIN is blocked (too many wrong PINs) until a new one is set"
    )


class CardList(BaseModel):
    cards: list[CardRecord]


class CardHolder(BaseModel):
    uuid: UUID
    name: str


class TeamCardRecord(CardRecord):
    """A member's card as the team's owner lists it: the card record and its holder."""

    holder: CardHolder


class TeamCardList(BaseModel):
    cards: list[TeamCardRecord]


class RevealRequest(StrictRequest):
    """`POST /card/{uuid}/reveal` (docs/security.md#card-details-cvv2-and-issuer-keys): a live MFA
    code of the caller, used up."""

    mfa_code: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    """A live MFA code of the caller (`POST /auth/mfa-code` or `cardservice mfa issue`), used up
    by this call. Wrong, expired, used or another user's → 403 `step_up_failed`."""


class CardDetails(BaseModel):
    """What a holder types into a checkout page; answered once per reveal, `no-store`."""

    pan: str
    cvv2: str
    expiry_month: int
    expiry_year: int
    holder_name: str | None


def _iso_country(value: str) -> str:
    if value not in countries_by_alpha2:
        raise ValueError("not an ISO 3166-1 alpha-2 country code")
    return value


Line = Annotated[str, StringConstraints(min_length=1, max_length=200)]


class ShippingIn(StrictRequest):
    """Where a physical card is sent (docs/cards.md#physical-cards)."""

    name: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """The addressee, 1..120 characters."""
    line1: Line
    """Street and number, 1..200 characters."""
    line2: Line | None = None
    """Apartment, floor, building, 1..200 characters."""
    city: Annotated[str, StringConstraints(min_length=1, max_length=120)]
    """1..120 characters."""
    postal_code: Annotated[str, StringConstraints(min_length=1, max_length=20)]
    """1..20 characters."""
    country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$"), AfterValidator(_iso_country)]
    """ISO 3166-1 alpha-2, upper case (`DE`); a code ISO 3166-1 does not assign → 422."""


class BuyCardsRequest(StrictRequest):
    account_uuid: UuidStr
    """The account that pays and holds the cards (`GET /accounts`); its currency must be the
    BIN's."""
    bin_uuid: UuidStr
    """The card range to issue from: a `uuid` of `GET /dictionary/bins` with `status:
    available`."""
    start_balance: Amount = Decimal(0)
    """Money put on each card, in the account's currency (a JSON number, at most 2 decimals, ≥
    0; default 0). The `card_topup` percent fee is charged on it."""
    description: Annotated[str, StringConstraints(max_length=255)] | None = None
    """Your label for the cards, up to 255 characters (shown in lists and searchable)."""
    external_id: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    """Your idempotency key, 1..128 characters, per user: a repeat with the same body returns
    the first answer and buys nothing; another body → 409."""
    cards_count: WholeNumber = Field(default=1, ge=1, le=100)
    """How many cards to buy, 1..100 (default 1); all are bought or none."""
    auto_replenish_amount: Annotated[
        PositiveAmount | None, WithJsonSchema(POSITIVE_AMOUNT_SCHEMA)
    ] = None
    """Turn auto-replenish on: when a card's balance falls strictly below
    `auto_replenish_min_balance`, this much moves from the account to it (a JSON number, at most
    2 decimals, > 0). Send it with `auto_replenish_min_balance` or leave both out."""
    auto_replenish_min_balance: Annotated[Amount | None, WithJsonSchema(AMOUNT_SCHEMA)] = None
    """The balance under which a card is replenished (a JSON number, at most 2 decimals, ≥ 0).
    Comes with `auto_replenish_amount`."""
    card_type: CardType = "multi_use"
    """`multi_use` (default); `single_use`: closed after its first capture; `merchant_locked`:
    only the merchant of its first approved authorization may charge it."""
    form: CardForm = "virtual"
    """`virtual` (default): active at once; `physical`: a plastic card sent to `shipping`,
    `inactive` until its holder activates it; each costs the `card_physical` fee too."""
    shipping: ShippingIn | None = None
    """Where to send physical cards: required with `form: physical`, refused otherwise."""

    model_config = ConfigDict(
        json_schema_extra={
            "dependentRequired": {
                "auto_replenish_amount": ["auto_replenish_min_balance"],
                "auto_replenish_min_balance": ["auto_replenish_amount"],
            },
            # shipping comes with form physical, and only with it
            "if": {"properties": {"form": {"const": "physical"}}, "required": ["form"]},
            "then": {"required": ["shipping"], "properties": {"shipping": {"type": "object"}}},
            "else": {"properties": {"shipping": {"type": "null"}}},
        }
    )

    @model_validator(mode="after")
    def _shipping_with_physical(self) -> Self:
        if (self.form == "physical") != (self.shipping is not None):
            raise ValueError("shipping comes with form physical, and only with it")
        return self

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
    """1..500 distinct uuids of the caller's cards (any case)."""
    is_favorite: bool
    """`true` marks them favorites, `false` unmarks them."""


class SortRequest(StrictRequest):
    card_uuids: CardUuids = UNIQUE
    """1..500 distinct uuids of the caller's cards, in the order they should come first."""


Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$", max_length=64)]
CountryCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]
# null is a value here ("no limit", "no amount"), and the schema says so
NULLABLE_POSITIVE_AMOUNT = {"anyOf": [POSITIVE_AMOUNT_SCHEMA, {"type": "null"}]}
NULLABLE_AMOUNT = {"anyOf": [AMOUNT_SCHEMA, {"type": "null"}]}
Limit = Annotated[PositiveAmount | None, WithJsonSchema(NULLABLE_POSITIVE_AMOUNT)]


class SpendingControls(StrictRequest):
    """A card's controls (docs/controls.md#spending-controls): limits in the card's currency (`null`
    = none), tags and countries allowed (`null` = any) and blocked."""

    per_authorization: Limit = None
    """The most one authorization may take, in the card's currency (a JSON number, at most 2
    decimals, > 0); `null`: no limit. Over it → declined `limit_exceeded`."""
    daily: Limit = None
    """The most the card may spend in a UTC day (approved authorizations less reversals and
    refunds); `null`: no limit."""
    weekly: Limit = None
    """The most the card may spend in an ISO week (Monday 00:00 UTC on); `null`: no limit."""
    monthly: Limit = None
    """The most the card may spend in a calendar month (UTC); `null`: no limit."""
    lifetime: Limit = None
    """The most the card may ever spend; `null`: no limit."""
    atm_per_day: Limit = None
    """The most the card may withdraw at ATMs in a UTC day (approved withdrawals less
    reversals), in the card's currency; `null`: no limit. Over it → declined `limit_exceeded`
    (`61`)."""
    allowed_tags: Annotated[list[Slug], Field(max_length=200)] | None = None
    """Only merchants with these tags (slugs of `/dictionary/transaction-tags/search`), up to
    200; `null`: any. Another tag → declined `merchant_blocked`."""
    blocked_tags: Annotated[list[Slug], Field(max_length=200)] = []
    """Merchants with these tags are declined `merchant_blocked` (slugs, up to 200; default
    none)."""
    allowed_countries: Annotated[list[CountryCode], Field(max_length=250)] | None = None
    """Only merchants in these countries (ISO 3166-1 alpha-2, upper case), up to 250; `null`:
    any."""
    blocked_countries: Annotated[list[CountryCode], Field(max_length=250)] = []
    """Merchants in these countries (ISO 3166-1 alpha-2) are declined `merchant_blocked`
    (default none)."""


class HolderAddressIn(StrictRequest):
    line1: Annotated[str, StringConstraints(max_length=200)] | None = None
    """Street and number, up to 200 characters."""
    line2: Annotated[str, StringConstraints(max_length=200)] | None = None
    """Apartment, floor, building, up to 200 characters."""
    city: Annotated[str, StringConstraints(max_length=120)] | None = None
    """Up to 120 characters."""
    state: Annotated[str, StringConstraints(max_length=120)] | None = None
    """State, province or region, up to 120 characters."""
    postal_code: Annotated[str, StringConstraints(max_length=20)] | None = None
    """Up to 20 characters."""
    country: CountryCode | None = None
    """ISO 3166-1 alpha-2, upper case (`DE`)."""


class AutoReplenishIn(StrictRequest):
    """`enabled: true` needs `amount` and `min_balance`; `enabled: false` turns it off."""

    enabled: bool
    """`true` turns auto-replenish on (then `amount` and `min_balance` are required); `false`
    turns it off (send no amounts)."""
    amount: Annotated[PositiveAmount | None, WithJsonSchema(NULLABLE_POSITIVE_AMOUNT)] = None
    """How much moves from the account to the card each time (a JSON number, at most 2 decimals,
    > 0)."""
    min_balance: Annotated[Amount | None, WithJsonSchema(NULLABLE_AMOUNT)] = None
    """The card balance strictly under which it is replenished (a JSON number, at most 2
    decimals, ≥ 0)."""

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
    """`frozen` declines every authorization (`card_frozen`) until `active` again; `closed` is
    final: pending holds are reversed and the balance moves back to the account. Leave it out to
    keep the status (`null` is refused). A card the program's operator froze
    (`frozen_reason: operator`) keeps its status until the operator unfreezes it
    (`frozen_by_operator`), one the team's owner froze (`owner`) until an owner does
    (`frozen_by_owner`)."""
    description: Annotated[str, StringConstraints(max_length=255)] | None = None
    """Your label, up to 255 characters; `null` clears it."""
    holder_name: Annotated[str, StringConstraints(min_length=1, max_length=120)] | None = None
    """The name to print on checkout forms, 1..120 characters; `null` clears it."""
    holder_address: HolderAddressIn | None = None
    """The billing address, replaced as a whole; `null` clears it."""
    auto_replenish: AutoReplenishIn | None = omittable()
    """Turn auto-replenish on (with amount and threshold) or off. Leave it out to keep it
    (`null` is refused)."""
    spending_controls: SpendingControls | None = None
    """The card's controls, replaced as a whole (limits and tags and countries); `null` removes
    them all."""

    @field_validator("status", "auto_replenish", mode="before")
    @classmethod
    def _omitted_not_null(cls, value: object) -> object:
        if value is None:
            raise ValueError("omit the field instead of sending null")
        return value


class ReplaceCardRequest(StrictRequest):
    """POST /card/{cardUuid}/replace (docs/operations.md#running-a-program)."""

    reason: Literal["lost", "stolen", "damaged", "expiring"]
    """Why: `lost` or `stolen` (the old card then declines `41`/`43` on the network), `damaged`
    or `expiring`. Recorded as the old card's `closed_reason`."""


Label = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class FulfilmentRequest(StrictRequest):
    """A physical card's next fulfilment step (docs/cards.md#fulfilment)."""

    status: FulfilmentStatus
    """The step reached: `printed` after `ordered`, `shipped` after `printed`, `delivered` or
    `returned` after `shipped`; any other → 409 `fulfilment_out_of_order`."""
    carrier: Label | None = None
    """Who carries it, 1..64 characters; left out: the last one given stays."""
    tracking: Label | None = None
    """The carrier's tracking number, 1..64 characters; left out: the last one given stays."""


class ActivateCardRequest(StrictRequest):
    """`POST /card/{cardUuid}/activate` (docs/cards.md#activation)."""

    last4: Annotated[str, StringConstraints(pattern=r"^[0-9]{4}$")]
    """The last four digits of the card's number, as printed on it."""


class PinKey(BaseModel):
    """The key to encrypt a PIN with (docs/cards.md#the-pin)."""

    key_id: str
    public_key_pem: str


class SetPinRequest(StrictRequest):
    """`PUT /card/{cardUuid}/pin` (docs/cards.md#the-pin)."""

    key_id: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    """The `key_id` of `GET /card/pin-key` the PIN was encrypted with."""
    encrypted_pin: Annotated[str, StringConstraints(min_length=1, max_length=1024)]
    """Base64 of RSA-OAEP (SHA-256, MGF1-SHA-256, no label) under that key, over the JSON
    `{"pin": "4 to 6 digits", "nonce": "16 to 128 characters, never used before"}`."""
    mfa_code: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    """A live MFA code of the caller (`POST /auth/mfa-code`), used up by this call."""

"""Response codes (field 39) of docs/network.md#the-network-interface-iso-8583, from the entries'
decline reasons and refusals."""

from __future__ import annotations

from typing import Any

from cardservice.network.codec import Message
from cardservice.network.fields import ECHOED, RESPONSE_MTI

APPROVED = "00"
DO_NOT_HONOR = "05"
REFUND_TOO_LARGE = "13"
UNKNOWN_CARD = "14"
ORIGINAL_UNKNOWN = "25"
FORMAT_ERROR = "30"
WRONG_STATE = "12"
INVALID_CODE = "63"  # a wallet token's activation code that is not the live one
APPROVE_AFTER_CONFIRM = "85"  # a provisioning step-up: the holder confirms with a code
INSUFFICIENT_FUNDS = "51"
INVALID_PIN = "55"  # also an ATM withdrawal without field 52
SUSPECTED_FRAUD = "59"
CVV2_MISMATCH = "N7"
DATABASE_UNREACHABLE = "91"
SYSTEM_FAILURE = "96"

# A declined authorization's error slug → its response code; a slug not listed is `05`.
DECLINES = {
    "do_not_honor": "05",
    # a card closed as lost (docs/operations.md#running-a-program's close reasons)
    "card_lost": "41",
    "card_stolen": "43",  # a card closed as stolen
    "card_closed": "46",
    "insufficient_funds": "51",
    "card_expired": "54",
    "invalid_pin": "55",  # a wrong PIN, or field 52 for a card with no PIN (docs/cards.md)
    "pin_tries_exceeded": "75",  # the third wrong PIN in a row, and a blocked PIN after it
    "invalid_expiry": "54",
    "merchant_blocked": "57",
    "virtual_card_present": "57",  # a virtual card's own number at a terminal
    "suspected_fraud": "59",
    "limit_exceeded": "61",
    # the team's monthly budget (docs/teams.md#teams-budgets-requests-receipts)
    "budget_exceeded": "61",
    "card_frozen": "62",
    "card_inactive": "62",
    "token_inactive": "62",  # a wallet token suspended or waiting for its activation
    "account_inactive": "62",
    "invalid_3ds": "63",
    "currency_not_supported": "12",
    "invalid_cvv2": "N7",
}

# A refusal of a capture, reversal or refund (its `code`) → the answer's response code.
REFUSALS = {
    "insufficient_funds": INSUFFICIENT_FUNDS,
    "capture_exceeds_authorization": INSUFFICIENT_FUNDS,
    "invalid_transition": WRONG_STATE,
    "refund_exceeds_amount": REFUND_TOO_LARGE,
    "currency_not_supported": WRONG_STATE,
    "not_found": UNKNOWN_CARD,
}


def code_of(row: dict[str, Any], closed_reason: str | None = None) -> str:
    """An authorization's response code: `00` approved, else its decline reason's. A card
    declined `card_closed` that was closed as lost or stolen (its `closed_reason`,
    docs/operations.md#running-a-program) answers `41` / `43` (`card_lost` / `card_stolen`); the
    transaction keeps `card_closed`, the slug docs/transactions.md#sandbox-and-cli gives a closed
    card."""
    if row["status"] != "declined":
        return APPROVED
    slug = row["error_slug"]
    if slug == "card_closed" and closed_reason in ("lost", "stolen"):
        slug = f"card_{closed_reason}"
    return DECLINES.get(slug, DO_NOT_HONOR)


def response(request: Message, own: dict[str, str]) -> tuple[str, dict[int, str]]:
    """The answer to `request`: its response MTI, the fields it echoes and its own fields
    (39, and 38 and 54 when given), by field number."""
    fields = {number: request.fields[number] for number in ECHOED if number in request.fields}
    fields.update({int(number): value for number, value in own.items()})
    return RESPONSE_MTI[request.mti], fields

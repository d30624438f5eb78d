"""One transaction's page (amounts, fee, status, the decline reason as the cardholder reads
it, merchant, network data when the API has it, receipt, dispute), and what the transactions
list needs to show each row as a person reads it: type and status names, the card, the
decline reason, and whether a dispute is already open. Every value is the API's."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import Response
from markupsafe import Markup

from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.views import show
from cardservice.dashboard.web import ACCEPT, money, when
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
TransactionUuid = Annotated[str, Path(alias="transactionUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
DISPUTE_PAGES = 10  # at most 1,000 disputes looked at to mark the rows already disputed
TYPE_NAMES = {
    "card_purchase": "Card payment",
    "card_refund": "Refund",
    "card_issue": "Card issued",
    "card_topup": "Card top-up",
    "auto_replenish": "Automatic top-up",
    "fee": "Fee",
    "deposit": "Deposit",
    "card_close": "Card closed",
    "dispute_credit": "Dispute credit",
    "dispute_provisional_credit": "Dispute: provisional credit",
    "dispute_provisional_reversal": "Dispute: provisional credit taken back",
    "atm_withdrawal": "ATM withdrawal",
}
STATUS_NAMES = {
    "pending": "Pending",
    "completed": "Completed",
    "declined": "Declined",
    "reversed": "Reversed",
    "refunded": "Refunded",
}
RECEIPTED = ("pending", "completed", "refunded")  # payments a merchant's receipt belongs to
NETWORK_FIELDS = (
    ("network", "Network"),
    ("channel", "Channel"),
    ("decision", "Decided by"),
    ("merchant_amount", "Amount at the merchant"),
    ("merchant_currency", "Merchant's currency"),
    ("rate", "Exchange rate"),
    ("authorized_amount", "Authorized"),
    ("captured_amount", "Captured"),
    ("refunded_amount", "Refunded"),
    ("hold_expires_at", "Hold ends"),
)


# Network data written as money: in the card's currency, or the merchant's.
MONEY_FIELDS = {
    "authorized_amount": "card",
    "captured_amount": "card",
    "refunded_amount": "card",
    "merchant_amount": "merchant",
}


def shown(name: str, row: dict[str, Any]) -> str | Markup:
    """A network field as the dashboard writes it: money with its currency, an instant as
    `web.when`, the rest as the API sends it."""
    value = row[name]
    if name in MONEY_FIELDS:
        side = row["merchant_currency"] if MONEY_FIELDS[name] == "merchant" else row["currency"]
        return money(value, side or row["currency"])
    if name.endswith("_at"):
        return when(value)
    return str(value)


async def chased(request: Request, api: Api, row: dict[str, Any]) -> dict[str, Any] | None:
    """The team's receipt policy's word on this purchase when it chases it
    (docs/teams.md#receipts-and-the-receipt-policy): the card frozen for it already, or the
    day it will be; None when no policy asks for its receipt."""
    team = request.state.summary["user"]["team"]
    if team is None or row["type"] != "card_purchase" or row["receipt_attachment_uuid"]:
        return None
    try:
        policy = (await api.body("/team/receipt-policy"))["data"]
        missing = (await api.body("/team/missing-receipts", {"limit": 500}))["data"]
    except ApiError as error:
        if error.status_code == 404:  # no policy in this team
            return None
        raise
    found = next((m for m in missing if m["transaction_uuid"] == str(row["uuid"])), None)
    if found is None:
        return None
    captured = datetime.fromisoformat(found["captured_at"].replace("Z", "+00:00"))
    freeze_on = captured + timedelta(days=int(policy["freeze_after_days"]))
    return {**found, "freeze_on": freeze_on.isoformat()}


def type_name(slug: str) -> str:
    return TYPE_NAMES.get(slug, slug.replace("_", " ").capitalize())


def charged(row: dict[str, Any]) -> bool:
    """Whether the amount itself moved: a declined payment moved at most its fee."""
    return bool(row["status"] != "declined")


def disputable(row: dict[str, Any]) -> Decimal:
    """What a dispute of this payment would still claim: captured less refunded."""
    return max(Decimal(row["captured_amount"]) - Decimal(row["refunded_amount"]), Decimal(0))


async def decline_reasons(api: Api) -> dict[str, dict[str, str]]:
    """The API's decline reasons by slug (`name`, `description` for the cardholder)."""
    return {e["slug"]: e for e in (await api.body("/dictionary/transaction-errors"))["data"]}


async def disputed(api: Api) -> dict[str, dict[str, Any]]:
    """The user's disputes by transaction uuid (the newest of each)."""
    found: dict[str, dict[str, Any]] = {}
    for dispute in reversed(await api.every_page("/disputes", {}, DISPUTE_PAGES)):
        found[str(dispute["transaction_uuid"])] = dispute
    return found


async def card_masks(api: Api) -> dict[str, str]:
    body = await api.body("/card", {"per_page": 500})
    return {str(card["uuid"]): card["mask"] for card in body["data"]["cards"]}


def receipt_state(row: dict[str, Any]) -> str:
    """`attached`, `missing` (a card payment that went through has no receipt of the
    merchant's linked yet) or `` (nothing to attach: declines, deposits, fees, …)."""
    if row["receipt_attachment_uuid"]:
        return "attached"
    if row["type"] == "card_purchase" and row["status"] in RECEIPTED:
        return "missing"
    return ""


def row_context(rows: list[dict[str, Any]], masks: dict[str, str]) -> list[dict[str, Any]]:
    """Each row with what the template shows: type name, card mask, disputable amount,
    receipt state."""
    return [
        {
            **row,
            "type_name": type_name(row["type"]),
            "status_name": STATUS_NAMES.get(row["status"], row["status"]),
            "card_mask": masks.get(str(row["card_uuid"]), "") if row["card_uuid"] else "",
            "charged": charged(row),
            "disputable": disputable(row),
            "receipt": receipt_state(row),
        }
        for row in rows
    ]


@router.get("/transactions/{transactionUuid}")
async def transaction(
    request: Request, transaction_uuid: TransactionUuid, done: Done = ""
) -> Response:
    """One of the user's transactions, everything the API says of it, and the form that adds
    its receipt (team_pages.py)."""

    async def build(api: Api) -> dict[str, Any]:
        row = (await api.body(f"/transaction/{transaction_uuid}"))["data"]
        masks = await card_masks(api) if row["card_uuid"] else {}
        record = row_context([row], masks)[0]
        reasons = await decline_reasons(api)
        dispute = (await disputed(api)).get(str(row["uuid"]))
        network = [
            (label, shown(name, row))
            for name, label in NETWORK_FIELDS
            if row.get(name) not in (None, "", "0", 0, Decimal(0))
        ]
        title = row["merchant"]["name"] if row["merchant"] else record["type_name"]
        return {
            "chased": await chased(request, api, row),
            "title": title,
            "t": record,
            "reason": reasons.get(row["error"]) if row["error"] else None,
            "dispute": dispute,
            "network": network,
            "accept": ACCEPT,
            "notice": "The receipt is linked." if done == "receipt" else None,
        }

    return await show(request, "transaction.html", build)

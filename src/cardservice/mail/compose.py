"""What each mail says (docs/mail.md#the-mails): a subject and a plain-text body built from the
event's data — the API's records, which never carry a card number — naming a card only by its
last four digits. The dashboard's address is added when the mail is sent (courier.py)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from cardservice.ledger.minor_units import from_minor

SIGN_IN_SUBJECT = "Your sign-in link"


def money(amount: Any, currency: str | None) -> str:
    """`1234.5` → `1,234.50 USD`: two decimals, thousands grouped, the currency after."""
    return f"{Decimal(str(amount)):,.2f} {currency or ''}".rstrip()


def _merchant(transaction: dict[str, Any]) -> str:
    merchant = transaction.get("merchant") or {}
    return str(merchant.get("name") or "a merchant")


def _card(last4: str | None) -> str:
    return f"your card ending {last4}" if last4 else "your card"


def sign_in_placeholder() -> tuple[str, str]:
    """The sign-in mail as queued: its text is written when it is sent, with a fresh link."""
    return SIGN_IN_SUBJECT, ""


def sign_in(url: str, expires_at: datetime) -> str:
    until = expires_at.strftime("%H:%M UTC")
    return (
        "Follow this link to sign in to your cards. It works once, until "
        f"{until} (15 minutes):\n\n{url}\n\n"
        "If you did not ask to sign in, ignore this mail: nobody can use the link but you."
    )


def declined_payment(transaction: dict[str, Any], last4: str | None) -> tuple[str, str]:
    amount = money(transaction["amount"], transaction["currency"])
    merchant = _merchant(transaction)
    reason = transaction.get("error") or "declined"
    body = (
        f"A payment of {amount} at {merchant} with {_card(last4)} was declined.\n"
        f"Reason: {reason}.\n"
    )
    return f"Declined: {amount} at {merchant}", body


def large_purchase(
    transaction: dict[str, Any], last4: str | None, threshold: int
) -> tuple[str, str]:
    amount = money(transaction["amount"], transaction["currency"])
    merchant = _merchant(transaction)
    limit = money(from_minor(threshold), transaction["currency"])
    body = (
        f"{_card(last4).capitalize()} paid {amount} at {merchant}.\n"
        f"You asked to hear of every purchase of {limit} or more.\n"
    )
    return f"Purchase: {amount} at {merchant}", body


def receipt_reminder(transaction: dict[str, Any], last4: str | None) -> tuple[str, str]:
    amount = money(transaction["amount"], transaction["currency"])
    merchant = _merchant(transaction)
    body = (
        f"Your team asks for the receipt of {amount} at {merchant} ({_card(last4)}).\n"
        "Add it to the transaction in the dashboard; a card whose receipts stay missing is "
        "frozen until they are added.\n"
    )
    return f"Receipt missing: {amount} at {merchant}", body


def _asked(request: dict[str, Any], currency: str | None) -> str:
    details = request.get("details") or {}
    if request.get("kind") == "card":
        start = details.get("start_balance") or 0
        what = f"a card with {money(start, currency)} on it"
        if details.get("description"):
            what += f" ({details['description']})"
        return what
    return f"{money(details.get('amount') or 0, details.get('currency'))} more budget this month"


def team_request_decided(request: dict[str, Any], currency: str | None) -> tuple[str, str]:
    status = request.get("status") or "decided"
    asked = _asked(request, currency)
    decider = (request.get("decided_by") or {}).get("name") or "Your team's owner"
    body = f"{decider} {status} your request for {asked}.\n"
    if request.get("decision_reason"):
        body += f"Reason: {request['decision_reason']}\n"
    return f"Your request was {status}", body


def request_to_decide(request: dict[str, Any], currency: str | None) -> tuple[str, str]:
    member = (request.get("requested_by") or {}).get("name") or "A member"
    asked = _asked(request, currency)
    reason = (request.get("details") or {}).get("reason")
    body = f"{member} asks for {asked}.\n" + (f"Reason: {reason}\n" if reason else "")
    body += "Approve or decline it on the team page of the dashboard.\n"
    return f"{member} asks for {asked}", body

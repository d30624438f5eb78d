"""Dispute rules (docs/transactions.md#disputes): open a dispute on a completed card purchase,
resolve it.

* Only the caller's own completed `card_purchase` can be disputed (anybody else's is 404),
  within `DISPUTE_WINDOW` after its capture, for at most what it still has to give back:
  its captured amount less refunds and dispute credits (the default amount).
* One open dispute per purchase: the purchase row is locked while the rule is checked, and
  the database's unique partial index refuses a second open dispute whatever the path.
* Won: the amount (never more than the purchase still has to give back) goes back to the
  card (to its replacement when it was replaced, to its account when closed) as one
  `dispute_credit` transaction and one ledger entry, in the same unit; lost: nothing moves.
  A resolved dispute is final (`dispute_already_resolved`).

Lock order (docs/ledger.md): resolving takes the purchase's account, its card, the purchase
row, then the dispute row; opening takes only the purchase row, then writes the dispute.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from cardservice.attachments import AttachmentNotFound
from cardservice.db.paging import Page
from cardservice.db.sql import INTEGRITY_ERRORS, Reader, Tx, as_datetime, as_uuid
from cardservice.disputes import repository
from cardservice.disputes.records import DISPUTE_FIELDS
from cardservice.errors import DisputeNotFound, RuleViolation, TransactionNotFound
from cardservice.ledger import SystemBook, book_leg, post_entry
from cardservice.models.base import utcnow
from cardservice.transactions import (
    Purchase,
    credit_row,
    credited_amount,
    holder_leg,
    insert_transactions,
    lock_purchase,
    locked_purchase,
)

DISPUTE_WINDOW = timedelta(days=120)


class NotDisputable(RuleViolation):
    code = "not_disputable"
    message = "Only a completed card purchase with money left to get back can be disputed."


class DisputeWindowClosed(RuleViolation):
    code = "dispute_window_closed"
    message = "The 120-day dispute window after capture has closed."


class DisputeAlreadyOpen(RuleViolation):
    code, message = "dispute_already_open", "This transaction already has an open dispute."


class DisputeExceedsAmount(RuleViolation):
    code = "dispute_exceeds_amount"
    message = "A dispute cannot claim more than the purchase has left to give back."


class DisputeAlreadyResolved(RuleViolation):
    code, message = "dispute_already_resolved", "The dispute is already resolved."


def captured_amount(purchase: Mapping[str, Any]) -> int:
    """What the purchase captured (minor units): the sum of its captures
    (docs/transactions.md#disputes)."""
    captured = purchase.get("captured_amount")
    return int(purchase["amount"] if captured is None else captured)


def captured_at(purchase: Mapping[str, Any]) -> datetime:
    """When the purchase was captured: set by the database as it became completed."""
    stamp = as_datetime(purchase["captured_at"]) or as_datetime(purchase["updated_at"])
    assert stamp is not None
    return stamp


def disputable_amount(purchase: Mapping[str, Any], credited: int) -> int:
    """What a dispute can still claim: the captured amount less refunds and dispute credits."""
    return captured_amount(purchase) - int(purchase["refunded_amount"]) - credited


async def _check_evidence(tx: Tx, user_uuid: uuid.UUID, evidence: list[uuid.UUID]) -> None:
    """Every evidence attachment is one of the user's own; anybody else's is 404."""
    if not evidence:
        return
    if await repository.evidence_count(tx, user_uuid, evidence) != len(set(evidence)):
        raise AttachmentNotFound("An evidence attachment was not found.")


async def open_dispute(
    tx: Tx,
    user_uuid: uuid.UUID,
    transaction_uuid: uuid.UUID,
    reason: str,
    *,
    explanation: str | None = None,
    evidence: list[uuid.UUID] | None = None,
    amount: int | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """A new open dispute of the user's completed card purchase (see the module's rules)."""
    now = now or utcnow()
    evidence = evidence or []
    purchase = await locked_purchase(tx, transaction_uuid, user_uuid)
    if purchase is None:
        raise TransactionNotFound()
    await _check_evidence(tx, user_uuid, evidence)
    if purchase["type"] != "card_purchase" or purchase["status"] != "completed":
        raise NotDisputable(f"A {purchase['status']} {purchase['type']} cannot be disputed.")
    if now > captured_at(purchase) + DISPUTE_WINDOW:
        raise DisputeWindowClosed()
    if await repository.has_open_dispute(tx, transaction_uuid):
        raise DisputeAlreadyOpen()
    left = disputable_amount(purchase, await credited_amount(tx, transaction_uuid))
    if left <= 0:
        raise NotDisputable("This purchase has nothing left to dispute.")
    amount = left if amount is None else amount
    if amount > left:
        raise DisputeExceedsAmount(errors={"amount": [f"at most {left} minor units remain"]})
    dispute = {
        "user_uuid": user_uuid,
        "uuid": uuid.uuid4(),
        "transaction_uuid": transaction_uuid,
        "amount": amount,
        "currency": purchase["currency"],
        "reason": reason,
        "explanation": explanation,
        "status": "open",
        "evidence_attachment_uuids": json.dumps([str(u) for u in evidence]),
        "credit_transaction_uuid": None,
        "created_at": now,
        "updated_at": now,
        "resolved_at": None,
    }
    try:
        await repository.insert_dispute(tx, dispute)
    except INTEGRITY_ERRORS:  # the database's own rule: one open dispute per purchase
        raise DisputeAlreadyOpen() from None
    return dispute


async def _credit(tx: Tx, purchase: Purchase, amount: int, now: datetime) -> uuid.UUID:
    """The won amount back as one `dispute_credit` transaction and one ledger entry: to the
    card, or to the card that replaced it (docs/operations.md#running-a-program, as a refund or a
    released hold goes), or to the account when that card is closed (its balance went there too); a
    stand-in in a currency the card does not hold repays `cardholder_receivables`
    (docs/network.md#the-network-interface-iso-8583)."""
    credit = credit_row(purchase, "dispute_credit", amount, "Dispute won", now)
    credit["card_uuid"], holder = await holder_leg(tx, purchase, amount, closed_to_account=True)
    await insert_transactions(tx, [credit])
    await post_entry(
        tx,
        "dispute_credit",
        [holder, book_leg(SystemBook.MERCHANTS, purchase["currency"], -amount)],
        reference=credit["uuid"],
    )
    credit_uuid: uuid.UUID = credit["uuid"]
    return credit_uuid


async def resolve_dispute(
    tx: Tx, user_uuid: uuid.UUID, dispute_uuid: uuid.UUID, outcome: str, now: datetime | None = None
) -> dict[str, Any]:
    """open → won (the amount back to the card, at most what the purchase still has to give
    back) | lost (nothing moves); a resolved dispute is final."""
    now = now or utcnow()
    transaction_uuid = as_uuid(await repository.dispute_transaction(tx, dispute_uuid, user_uuid))
    if transaction_uuid is None:
        raise DisputeNotFound()
    purchase, _card_status = await lock_purchase(tx, user_uuid, transaction_uuid)
    row = await repository.lock_dispute(tx, dispute_uuid)
    assert row is not None
    dispute = dict(zip(DISPUTE_FIELDS, row, strict=True))
    if dispute["status"] != "open":
        raise DisputeAlreadyResolved(f"The dispute was already {dispute['status']}.")
    credit_uuid = None
    if outcome == "won":
        left = disputable_amount(purchase, await credited_amount(tx, transaction_uuid))
        if (amount := min(int(dispute["amount"]), left)) > 0:
            credit_uuid = await _credit(tx, purchase, amount, now)
    await repository.resolve(tx, dispute_uuid, outcome, now, credit_uuid)
    dispute.update(
        status=outcome, resolved_at=now, updated_at=now, credit_transaction_uuid=credit_uuid
    )
    return dispute


async def every_dispute(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """A page of every user's disputes, newest first (the operator console's read), and how
    many match."""
    return await repository.list_disputes(reader, None, filters, page.offset, page.size)

"""Dispute rules (docs/transactions.md#disputes): open a dispute on a completed card purchase,
resolve it (the network's steps between the two: `disputes.network`, docs/disputes.md).

* Only the caller's own completed `card_purchase` can be disputed (anybody else's is 404),
  within `DISPUTE_WINDOW` after its capture, for at most what it still has to give back:
  its captured amount less refunds and dispute credits (the default amount).
* One dispute per purchase until it is decided: the purchase row is locked while the rule
  is checked, and the database's unique partial index refuses a second whatever the path.
* Opened, it waits for the next outgoing file (`to_send`: a 1442 `450`, or `453` for less
  than the captured amount), due by the end of the dispute window; under a program with
  `provisional_credit`, the amount is credited to the card at once.
* Won: the amount (never more than the purchase still has to give back) is the card's (to
  its replacement when it was replaced, to its account when closed) as one `dispute_credit`
  transaction and one ledger entry, in the same unit; lost: the provisional credit, if any,
  is taken back. A decided dispute is final (`dispute_already_resolved`).

Lock order (docs/ledger.md): resolving takes the purchase's account, its card, the purchase
row, then the dispute row; opening takes the purchase row (and before it the account and the
card, when it credits the card), then writes the dispute.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

import orjson

from cardservice.attachments import AttachmentNotFound
from cardservice.db.paging import Page
from cardservice.db.sql import INTEGRITY_ERRORS, Reader, Tx, iso_z
from cardservice.disputes import money, repository
from cardservice.disputes.network import (
    FIRST,
    PARTIAL,
    arn_of,
    resolve_active,
)
from cardservice.errors import RuleViolation, TransactionNotFound
from cardservice.models.base import utcnow
from cardservice.transactions import Purchase, credited_amount, lock_purchase, locked_purchase

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


async def _check_evidence(tx: Tx, user_uuid: uuid.UUID, evidence: list[uuid.UUID]) -> None:
    """Every evidence attachment is one of the user's own; anybody else's is 404."""
    if not evidence:
        return
    if await repository.evidence_count(tx, user_uuid, evidence) != len(set(evidence)):
        raise AttachmentNotFound("An evidence attachment was not found.")


async def _purchase(
    tx: Tx, user_uuid: uuid.UUID, transaction_uuid: uuid.UUID, credit: bool
) -> Purchase:
    """The user's purchase, its row locked (and its account's and card's first when the card
    is to be credited); anybody else's is 404."""
    if credit:
        purchase, _card_status = await lock_purchase(tx, user_uuid, transaction_uuid)
        return purchase
    found = await locked_purchase(tx, transaction_uuid, user_uuid)
    if found is None:
        raise TransactionNotFound()
    return found


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
    credit = await repository.program_gives_credit(tx, user_uuid)
    purchase = await _purchase(tx, user_uuid, transaction_uuid, credit)
    await _check_evidence(tx, user_uuid, evidence)
    if purchase["type"] != "card_purchase" or purchase["status"] != "completed":
        raise NotDisputable(f"A {purchase['status']} {purchase['type']} cannot be disputed.")
    if now > money.captured_at(purchase) + DISPUTE_WINDOW:
        raise DisputeWindowClosed()
    if await repository.has_open_dispute(tx, transaction_uuid):
        raise DisputeAlreadyOpen()
    left = money.disputable_amount(purchase, await credited_amount(tx, transaction_uuid))
    if left <= 0:
        raise NotDisputable("This purchase has nothing left to dispute.")
    amount = left if amount is None else amount
    if amount > left:
        raise DisputeExceedsAmount(errors={"amount": [f"at most {left} minor units remain"]})
    dispute = _new_dispute(user_uuid, purchase, reason, amount, now)
    dispute.update(
        explanation=explanation, evidence_attachment_uuids=json.dumps([str(u) for u in evidence])
    )
    if credit:
        await money.give_provisional_credit(tx, purchase, dispute, now)
    try:
        await repository.insert_dispute(tx, dispute)
    except INTEGRITY_ERRORS:  # the database's own rule: one dispute per purchase at a time
        raise DisputeAlreadyOpen() from None
    return dispute


def _new_dispute(
    user_uuid: uuid.UUID, purchase: Purchase, reason: str, amount: int, now: datetime
) -> dict[str, Any]:
    """An open dispute's columns: waiting for the next outgoing file, due by the end of the
    dispute window."""
    full = amount >= money.captured_amount(purchase)
    return {
        "user_uuid": user_uuid, "uuid": uuid.uuid4(), "transaction_uuid": purchase.uuid,
        "amount": amount, "currency": purchase["currency"], "reason": reason,
        "explanation": None, "status": "open", "evidence_attachment_uuids": "[]",
        "credit_transaction_uuid": None, "created_at": now, "updated_at": now,
        "resolved_at": None, "arn": arn_of(purchase), "to_send": FIRST if full else PARTIAL,
        "deadline_at": money.captured_at(purchase) + DISPUTE_WINDOW, "chargeback": None,
        "representment": None, "pre_arbitration": None,
        "history": orjson.dumps([{"status": "open", "at": iso_z(now)}]).decode(),
        "provisional": 0, "claimed": 0,
    }  # fmt: skip


async def resolve_dispute(
    tx: Tx, user_uuid: uuid.UUID, dispute_uuid: uuid.UUID, outcome: str, now: datetime | None = None
) -> dict[str, Any]:
    """The network's outcome of a dispute not decided yet: won (the amount is the card's, at
    most what the purchase still has to give back) | lost (a provisional credit taken back);
    a decided dispute is final."""
    return await resolve_active(tx, user_uuid, dispute_uuid, outcome, now or utcnow())


async def every_dispute(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """A page of every user's disputes, newest first (the operator's API and console), and how
    many match."""
    return await repository.list_disputes(reader, None, filters, page.offset, page.size)

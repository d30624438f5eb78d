"""The demo's disputes, one at each step of a dispute's life through the network
(docs/disputes.md), made as the operator and the acquirer make them: the issuer's outgoing
files written by `clearing.outgoing`, the acquirer's answers written with `cardutil`
(`clearing.ipm`) and booked by the clearing ingest, the operator's accept and escalate.

Of the demo owner's six latest captured purchases (newest first):

| purchase | dispute | how |
|---|---|---|
| 1st | `open` | opened last: it waits for today's outgoing file (README's walk) |
| 2nd | `won` | resolved by the sandbox's network (docs/transactions.md#disputes) |
| 3rd | `chargeback_sent` | in the outgoing file of 30 days ago, unanswered |
| 4th | `representment_received` | charged back, answered by the merchant: the operator's turn |
| 5th | `pre_arbitration` | represented, escalated: its 451 in the outgoing file of 29 days ago |
| 6th | `lost` | represented, the operator accepted |
"""

from __future__ import annotations

import io
import uuid
from dataclasses import dataclass
from datetime import timedelta

from cardservice.acquirer.representments import MESSAGE
from cardservice.clearing import ipm
from cardservice.clearing.outgoing import write_outgoing
from cardservice.clearing.service import Clearing, ingest
from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.disputes import accept_dispute, escalate_dispute, open_dispute, resolve_dispute
from cardservice.models.base import utcnow
from cardservice.operator import CLI
from cardservice.security import CardCipher
from cardservice.transactions import latest_settled_purchases

# the walk's disputes, oldest first: sent, represented, escalated, lost
WALK_REASONS = ("fraudulent", "not_as_described", "not_received", "duplicate")


@dataclass(frozen=True, slots=True)
class Walk:
    """What `walk` takes further: the owner, the purchase left for the open dispute, the
    walk's disputes in `WALK_REASONS` order and their ARNs."""

    owner: uuid.UUID
    latest: uuid.UUID
    disputes: list[uuid.UUID]
    arns: list[str]


async def open_disputes(tx: Tx, owner: uuid.UUID) -> Walk:
    """In the demo's unit: the 2nd latest purchase disputed and won; the 3rd to 6th disputed,
    waiting for the outgoing file."""
    latest, won, *older = await latest_settled_purchases(tx, owner, 6)
    decided = await open_dispute(tx, owner, won, "duplicate", explanation="Demo dispute")
    await resolve_dispute(tx, owner, decided["uuid"], "won")
    walk = Walk(owner, latest, [], [])
    for purchase, reason in zip(reversed(older), WALK_REASONS, strict=True):
        opened = await open_dispute(tx, owner, purchase, reason, explanation="Demo dispute")
        walk.disputes.append(uuid.UUID(str(opened["uuid"])))
        walk.arns.append(str(opened["arn"]))
    return walk


def _second_presentments(outgoing: bytes, answered: set[str]) -> bytes:
    """The acquirer's incoming file: a second presentment (full) of each chargeback of
    `outgoing` whose ARN is in `answered`."""
    chargebacks = [
        ipm.chargeback(message)
        for message in ipm.messages(io.BytesIO(outgoing))
        if ipm.is_chargeback(message)
    ]
    header = next(ipm.messages(io.BytesIO(outgoing)))
    seconds = (
        ipm.second_presentment_message(
            ipm.SecondPresentment(number, c.pan, c.amount, c.currency, c.arn, text=MESSAGE)
        )
        for number, c in enumerate((c for c in chargebacks if c.arn in answered), start=2)
    )
    out = io.BytesIO()
    ipm.write_messages(out, f"{str(header[ipm.FILE_ID]).strip()}-ANSWER", seconds)
    return out.getvalue()


async def walk(db: Database, cipher: CardCipher, walk: Walk) -> None:
    """The files and decisions that put each dispute of the walk at its step, then the open
    one (the module's table)."""
    today = utcnow().date()
    _sent, _represented, escalated, lost = walk.disputes
    first = await write_outgoing(db, cipher, today - timedelta(days=30), CLI)
    answer = _second_presentments(first.content, set(walk.arns[1:]))  # all but the first
    await ingest(Clearing(db, cipher), io.BytesIO(answer), CLI)

    async def decide(tx: Tx) -> None:
        await accept_dispute(tx, lost, utcnow())
        await escalate_dispute(tx, escalated, utcnow())

    await db.transact(decide)
    await write_outgoing(db, cipher, today - timedelta(days=29), CLI)

    async def last(tx: Tx) -> None:
        await open_dispute(tx, walk.owner, walk.latest, "not_received", explanation="Demo dispute")

    await db.transact(last)

"""The ledger proves itself: walk the hash chain and recompute every balance from postings
(`cardservice ledger verify`), and write the chain for an outside auditor (`ledger export`).

Both run in the sealer's turn (ledger.sealer), so the chain, its head and the day totals
hold still while they are read: `verify` first seals what waits (unless `seal=False`), then
reports the first thing that does not match, in this order: the chain (each entry's place,
its previous hash and its own hash recomputed from its content and postings), the head
(entries cut from the chain's end), postings without an entry, the cached balance of every
account and card against the sum of its postings, the day totals against the postings they
add up, and entries still waiting for their seal after `MAX_UNSEALED` (is a sealer running?).
Entries waiting for less are counted (`ChainCheck.unsealed`), not a mismatch. `export` seals
every entry created up to its instant first, then walks the sealed prefix, which no longer
changes.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from cardservice.db.database import Database
from cardservice.db.sql import Reader, Tx, text_uuid
from cardservice.ledger import repository
from cardservice.ledger.chain import (
    GENESIS,
    canonical,
    day_totals,
    entries_of,
    entry_hash,
    holder_days,
)
from cardservice.ledger.sealer import seal_in_turn
from cardservice.models.base import utcnow

BATCH = 5_000
MAX_UNSEALED = timedelta(seconds=60)  # an entry waiting longer for its seal is a mismatch


@dataclass(frozen=True, slots=True)
class ChainCheck:
    """What a walk of the hash chain found (`ledger verify`)."""

    entries: int  # entries walked
    head: str  # the last good hash
    problem: str | None  # the first mismatch, None when all holds
    unsealed: int = 0  # committed entries still waiting for their seal (younger than 60 s)

    @property
    def ok(self) -> bool:
        return self.problem is None


async def _walk(reader: Reader | Tx, until: int) -> AsyncIterator[tuple[int, str, Any]]:
    """(seq, stored hash, entry) of the chain up to place `until`, in chain order."""
    after = 0
    while after < until:
        upto = min(after + BATCH, until)
        rows = await repository.chain_batch(reader, after, upto)
        stored = {int(r["id"]): (int(r["chain_seq"]), str(r["hash"])) for r in rows}
        for entry in entries_of(rows):
            seq, digest = stored[entry.id]
            yield seq, digest, entry
        after = upto


async def verify(db: Database, *, seal: bool = True) -> ChainCheck:
    """Seal what waits (unless `seal` is false), then walk the chain and every balance
    (module docstring); the first mismatch."""

    async def in_turn(tx: Tx) -> ChainCheck:
        await repository.take_sealer(tx, wait=True)
        if seal:
            await seal_in_turn(tx)
        return await _verify(tx)

    return await db.transact(in_turn)


async def _verify(tx: Tx) -> ChainCheck:
    prev, count = GENESIS, 0
    totals: dict[Any, tuple[int, int]] = {}
    holders: dict[Any, int] = {}
    async for seq, digest, entry in _walk(tx, await repository.last_seq(tx)):
        where = f"entry {entry.id} (seq {seq})"
        if seq != count + 1:
            return ChainCheck(count, prev, f"{where}: seq {count + 1} is missing before it")
        if entry_hash(entry, seq, prev) != digest:
            return ChainCheck(count, prev, f"{where}: its hash does not match its content")
        if any(_sums(entry.postings).values()):
            return ChainCheck(count, prev, f"{where}: its postings do not sum to zero")
        prev, count = digest, seq
        for key, (amount, n) in day_totals([entry]).items():
            total, postings = totals.get(key, (0, 0))
            totals[key] = (total + amount, postings + n)
        for place, amount in holder_days([entry]).items():
            holders[place] = holders.get(place, 0) + amount
    problem = await _rest(tx, count, prev, totals, {k: v for k, v in holders.items() if v})
    waiting, oldest = await repository.unsealed(tx)
    if problem is None and oldest is not None and utcnow() - oldest > MAX_UNSEALED:
        age = int((utcnow() - oldest).total_seconds())
        problem = f"{waiting} entries not sealed yet, the oldest for {age} s: is a sealer running?"
    return ChainCheck(count, prev, problem, waiting)


def _sums(postings: list[tuple[str, str, int]]) -> dict[str, int]:
    sums: dict[str, int] = {}
    for _holder, currency, amount in postings:
        sums[currency] = sums.get(currency, 0) + amount
    return sums


async def _rest(
    tx: Tx,
    count: int,
    prev: str,
    totals: dict[Any, tuple[int, int]],
    holders: dict[Any, int],
) -> str | None:
    head = await repository.head(tx) or (0, GENESIS)
    if head != (count, prev):
        return (
            f"the chain ends at seq {count} but its head says seq {head[0]}"
            f" ({head[1][:12]}…): entries were cut from its end or rewritten"
        )
    orphan = await repository.orphan_postings(tx)
    if orphan is not None:
        return f"entry {orphan} is gone but its postings are not"
    for row in await repository.balance_mismatches(tx):
        return (
            f"{row['holder']} {text_uuid(row['uuid'])}: balance {row['balance']},"
            f" its postings sum to {row['total']}"
        )
    stored = {
        (_day(r["day"]), str(r["holder_class"]), str(r["kind"]), str(r["currency"])): (
            int(r["amount"]),
            int(r["postings"]),
        )
        for r in await repository.stored_day_totals(tx)
    }
    if stored != totals:
        first = min(set(stored.items()) ^ set(totals.items()))
        return f"the day totals of {first[0][0]} ({first[0][1]}, {first[0][2]}) do not match"
    stored_holders = {
        (str(r["holder"]), _day(r["day"]), str(r["currency"])): int(r["amount"])
        for r in await repository.stored_holder_days(tx)
    }
    if stored_holders != holders:
        key = min(set(stored_holders.items()) ^ set(holders.items()))[0]
        return f"the day totals of {key[0]} on {key[1]} do not match its postings"
    return None


def _day(value: Any) -> date:
    return value if isinstance(value, date) else date.fromisoformat(str(value))


async def export_lines(db: Database, until: datetime) -> AsyncIterator[str]:
    """The chain, from its start to the last place holding an entry created at or before
    `until`, one JSON object per line: the canonical content and its `hash`. Every entry
    committed with `created_at` up to `until` (or up to now, if `until` is later) is sealed
    first, so none of them is missing from the prefix."""
    upto = await db.transact(lambda tx: _sealed_until(tx, until, min(until, utcnow())))
    prev = GENESIS
    async for seq, digest, entry in _walk(db.reader, upto):
        content = json.loads(canonical(entry, seq, prev))
        content["hash"] = digest
        yield json.dumps(content, sort_keys=True, separators=(",", ":"))
        prev = digest


async def _sealed_until(tx: Tx, until: datetime, waited: datetime) -> int:
    """In the sealer's turn: seal until no committed entry created up to `waited` waits;
    the chain's last place holding an entry created at or before `until`."""
    await repository.take_sealer(tx, wait=True)
    while True:
        await seal_in_turn(tx)
        if not await repository.any_unsealed_until(tx, waited):
            return await repository.last_seq_until(tx, until)

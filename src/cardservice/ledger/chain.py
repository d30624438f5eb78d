"""The journal's hash chain: every entry carries `hash` = SHA-256 over its canonical content,
which includes the previous entry's hash; one chain per database, in seal order.

Canonical content of an entry (docs/ledger.md, "The hash chain", byte-exact): the JSON object

    {"created_at": "2026-11-24T13:51:12.123456Z", "id": 42, "kind": "deposit",
     "postings": [["account:<uuid>", "EUR", 10000], ["book:funding", "EUR", -10000]],
     "prev": "<64 hex digits: the previous entry's hash; 64 zeros for the first>",
     "reference": "<uuid>" or null, "seq": 7}

written with sorted keys, `,` and `:` separators, no spaces, ASCII (Python's
`json.dumps(content, sort_keys=True, separators=(",", ":"))`); `postings` are
`[holder, currency, amount]` triples sorted (holder `account:<uuid>`, `card:<uuid>` or
`book:<name>`, lower-case canonical uuids; amount signed minor units). `seq` is the entry's
place in the chain (1, 2, …), `hash` the lower-case hex SHA-256 of those bytes.

Entries are written unsealed (no place, no hash) and chained after they commit, in batches,
by one sealer at a time (`ledger.sealer`; docs/ledger.md, "The hash chain"): `seal_batch`
takes the committed entries that wait, in id order, gives them the places after the head's
and their hashes, adds them to the day totals (`ledger_day_totals` per class,
`ledger_holder_days` per account and card: the checkpoints `ledger.books` reads) and moves
the head, in the sealer's one unit. The chain's order is the seal order: an entry that
commits late (a lower id than one sealed already) takes the next place when it is sealed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from cardservice.db.sql import Row, Tx, as_datetime, text_uuid
from cardservice.ledger import repository

GENESIS = "0" * 64
# a posting as the canonical form writes it: holder, currency, amount
CanonicalPosting = tuple[str, str, int]


def holder_of(account: Any, card: Any, book: Any) -> str:
    """A posting's holder as the canonical form writes it."""
    if account is not None:
        return f"account:{text_uuid(account)}"
    if card is not None:
        return f"card:{text_uuid(card)}"
    return f"book:{book}"


def instant(value: Any) -> str:
    """A timestamp column as the canonical form writes it (UTC, microseconds, `Z`)."""
    stamp = as_datetime(value)
    assert stamp is not None
    return stamp.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(slots=True)
class Entry:
    """One journal entry as the chain sees it."""

    id: int
    kind: str
    reference: str | None
    created_at: str  # canonical instant
    postings: list[CanonicalPosting]

    @property
    def day(self) -> date:
        return date.fromisoformat(self.created_at[:10])


def canonical(entry: Entry, seq: int, prev: str) -> bytes:
    """The bytes an entry's hash is taken over (module docstring)."""
    content = {
        "created_at": entry.created_at,
        "id": entry.id,
        "kind": entry.kind,
        "postings": [list(p) for p in sorted(entry.postings)],
        "prev": prev,
        "reference": entry.reference,
        "seq": seq,
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode()


def entry_hash(entry: Entry, seq: int, prev: str) -> str:
    return hashlib.sha256(canonical(entry, seq, prev)).hexdigest()


def entries_of(rows: Iterable[Row]) -> list[Entry]:
    """Entries from rows of (id, kind, reference, created_at, account_uuid, card_uuid,
    system_book, currency, amount), one row per posting, ordered by entry."""
    entries: list[Entry] = []
    for row in rows:
        entry_id = int(row["id"])
        if not entries or entries[-1].id != entry_id:
            reference = text_uuid(row["reference"])
            entries.append(
                Entry(entry_id, str(row["kind"]), reference, instant(row["created_at"]), [])
            )
        holder = holder_of(row["account_uuid"], row["card_uuid"], row["system_book"])
        entries[-1].postings.append((holder, str(row["currency"]), int(row["amount"])))
    return entries


def day_totals(entries: Sequence[Entry]) -> dict[tuple[date, str, str, str], tuple[int, int]]:
    """(day, holder class, kind, currency) → (amount, postings) of these entries: what
    `ledger_day_totals` adds up. The class of a posting is `account`, `card` or its book."""
    totals: dict[tuple[date, str, str, str], tuple[int, int]] = {}
    for entry in entries:
        for holder, currency, amount in entry.postings:
            kind, _, name = holder.partition(":")
            key = (entry.day, name if kind == "book" else kind, entry.kind, currency)
            total, count = totals.get(key, (0, 0))
            totals[key] = (total + amount, count + 1)
    return totals


def holder_days(entries: Sequence[Entry]) -> dict[tuple[str, date, str], int]:
    """(holder, day, currency) → amount of these entries' postings to accounts and cards:
    what `ledger_holder_days` adds up (the books are in `day_totals`)."""
    totals: dict[tuple[str, date, str], int] = {}
    for entry in entries:
        for holder, currency, amount in entry.postings:
            if not holder.startswith("book:"):
                key = (holder, entry.day, currency)
                totals[key] = totals.get(key, 0) + amount
    return totals


async def seal_batch(tx: Tx, limit: int, wait: bool) -> int | None:
    """Chain up to `limit` committed entries that wait for their seal, in id order, in this
    unit (module docstring); how many. None when another sealer holds the turn and `wait`
    is false (PostgreSQL; on SQLite the writer's turn is the sealer's)."""
    if not await repository.take_sealer(tx, wait):
        return None
    entries = entries_of(await repository.unsealed_entries(tx, limit))
    if not entries:
        return 0
    last_seq, prev = await repository.take_head(tx, len(entries), GENESIS)
    seqs, hashes = [], []
    for n, entry in enumerate(entries, last_seq + 1):
        prev = entry_hash(entry, n, prev)
        seqs.append(n)
        hashes.append(prev)
    await repository.write_chain(
        tx,
        [e.id for e in entries],
        seqs,
        hashes,
        day_totals(entries),
        holder_days(entries),
        seqs[-1],
        prev,
    )
    return len(entries)


def parse_instant(text: str) -> datetime:
    """An ISO 8601 instant (a naive one is UTC)."""
    stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)

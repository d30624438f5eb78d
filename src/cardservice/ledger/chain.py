"""The journal's hash chain: every entry carries `hash` = SHA-256 over its canonical content,
which includes the previous entry's hash; one chain per database, in commit order.

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

How entries are chained, in commit order:

* **PostgreSQL**, by the database as the unit commits: `post_entry` writes each entry with
  its `form` (`journal_entries.seal_form`: the canonical content with the id, `prev` and
  `seq` as placeholders), and the constraint trigger `journal_entries_seal`, deferred to
  COMMIT, runs `ledger_seal()` (migration 20261124_29): it bumps the chain head (one row,
  `ledger_chain_head`; the upsert waits for the previous holder's commit and then sees its
  result), fills the form as `fill` does, hashes it, writes the entry's place and hash
  (clearing the form), sets the head's hash and adds the postings to the day totals
  (`ledger_day_totals` per class, `ledger_holder_days` per account and card: the
  checkpoints `ledger.books` reads). The head's row lock is held from there to the end of
  the commit with no round trip to the service inside.
* **SQLite**, by `seal`, the unit's last commit hook (after the events are completed): its
  writer holds the whole database for the unit, so nobody waits on the head for longer
  than they wait anyway. `seal` reads the unit's entries back with their postings (an entry
  undone by a savepoint is gone and is skipped), takes the head, computes the hashes and
  writes them with the day totals and the new head. On PostgreSQL `seal` chains the same
  way what a bulk loader hands it in `tx.ledger_entries` (entries written without a form:
  bench.dataset).

A unit that wrote no entry does nothing here; the unique `chain_seq` would refuse a fork.

Why the trigger on PostgreSQL: sealed by a commit hook in the service, the head's lock
would be held over two round trips and the worker's event loop, and on a busy worker every
write of the database would queue behind it (measured: sandbox authorizations 620/s before
the chain, 319/s with the hook; docs/performance.md#the-chain-sealed-in-the-database).
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


# The placeholders of an entry's form: its id, the previous hash and its place, which the
# writer does not know yet (PostgreSQL's `ledger_seal` fills them at commit, with `replace`).
ID, PREV, SEQ = "@@id@@", "@@prev@@", "@@seq@@"


def form(
    created_at: str, kind: str, reference: str | None, postings: Iterable[CanonicalPosting]
) -> str:
    """The canonical content (module docstring) with the id, `prev` and `seq` left as
    placeholders: `fill` makes it the canonical bytes. Written with the entry on
    PostgreSQL (`journal_entries.seal_form`), so the database can chain it at commit."""
    content = {
        "created_at": created_at,
        "id": ID,
        "kind": kind,
        "postings": [list(p) for p in sorted(postings)],
        "prev": PREV,
        "reference": reference,
        "seq": SEQ,
    }
    return json.dumps(content, sort_keys=True, separators=(",", ":"))


def fill(entry_form: str, entry_id: int, seq: int, prev: str) -> bytes:
    """The canonical bytes from a form (what `ledger_seal` does in SQL, the same replaces)."""
    return (
        entry_form.replace(f'"{ID}"', str(entry_id))
        .replace(PREV, prev)
        .replace(f'"{SEQ}"', str(seq))
        .encode()
    )


def canonical(entry: Entry, seq: int, prev: str) -> bytes:
    """The bytes an entry's hash is taken over (module docstring)."""
    return fill(
        form(entry.created_at, entry.kind, entry.reference, entry.postings), entry.id, seq, prev
    )


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


async def seal(tx: Tx) -> None:
    """Chain the entries this unit wrote (module docstring). Runs last in the unit."""
    pending, tx.ledger_entries = tx.ledger_entries, []
    if not pending:
        return
    entries = entries_of(await repository.unit_entries(tx, pending))
    if not entries:  # all undone (a savepoint rolled them back)
        return
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


def parse_instant(text: str) -> datetime:
    """An ISO 8601 instant (a naive one is UTC)."""
    stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)

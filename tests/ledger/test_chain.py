"""The journal's hash chain (docs/ledger.md, "The hash chain"): every entry sealed after
commit in seal order, `ledger verify` and `ledger export` (they seal what waits first; run in
this process as `python -m cardservice` runs them, tests.cli.test_cli.Command), the auditor's
script of docs/ledger.md run on a real export, and tampering around the service (triggers
dropped) named by `verify`. The sealer itself, under concurrent writers, two sealers and a
kill: test_sealer.py."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.ledger.chain import Entry, canonical, entry_hash, instant
from cardservice.ledger.entries import SystemBook, book_leg, post_entry
from cardservice.ledger.sealer import seal_waiting
from cardservice.ledger.verify import verify
from cardservice.models.base import utcnow
from tests.cli.test_cli import Command
from tests.ledger.activity import activity

# a forged entry 9999's postings (fees 5, holds -5), and the entry's insert after them: on
# PostgreSQL in its statement, as an entry's postings must be (migration 20261128_04)
_FORGED = (
    "INSERT INTO postings (entry_id, system_book, currency, amount)"
    " VALUES (9999, 'fees', 'USD', 5), (9999, 'holds', 'USD', -5)"
)
DOC = Path(__file__).resolve().parents[2] / "docs" / "ledger.md"


Ledger = Callable[..., Awaitable[subprocess.CompletedProcess[str]]]


@pytest.fixture
def ledger(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Ledger:
    """`cardservice ledger ARGS` on the test's database: exit status, stdout, stderr."""
    command = Command(settings, monkeypatch, capsys)
    return lambda *args: command.completed("ledger", *args)


def _python(script: Path, export: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(script), str(export)], capture_output=True, text=True, check=False
    )


def _doc_script() -> str:
    """The verifier block of docs/ledger.md, as written there."""
    found = re.search(r"<!-- verify-export-script -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert found is not None
    script = found.group(1)
    assert len(script.strip().splitlines()) <= 20
    return script


async def _around(app: FastAPI, *statements: str) -> None:
    """Statements made around the ledger's entry (as an intruder's would be), in one unit of
    work: no service edits, deletes or forges an entry, which is what `verify` must name."""

    async def unit(tx: Tx) -> None:
        for statement in statements:
            await tx.execute(statement)

    await app.state.db.transact(unit)


async def _forge(app: FastAPI, entry: str) -> None:
    """Entry 9999 forged around the service: its postings, then `entry` (its insert)."""
    if app.state.db.is_sqlite:
        await _around(app, _FORGED, entry)
    else:
        await _around(app, f"WITH p AS ({_FORGED} RETURNING 1) {entry}")


def _triggers_off(app: FastAPI) -> list[str]:
    if app.state.db.is_sqlite:
        return [
            f"DROP TRIGGER {table}_append_only_{event}"
            for table in ("postings", "journal_entries")
            for event in ("update", "delete")
        ]
    return [
        "DROP TRIGGER postings_append_only ON postings",
        "DROP TRIGGER journal_entries_append_only ON journal_entries",
    ]


@pytest.fixture
async def restore_triggers(app: FastAPI):  # type: ignore[no-untyped-def]
    """PostgreSQL's database lives for the whole run: put the dropped triggers back."""
    yield
    if app.state.db.is_sqlite:
        return
    await _around(
        app,
        "DROP TRIGGER IF EXISTS postings_append_only ON postings",
        "DROP TRIGGER IF EXISTS journal_entries_append_only ON journal_entries",
        "CREATE TRIGGER postings_append_only BEFORE UPDATE OR DELETE ON postings"
        " FOR EACH ROW EXECUTE FUNCTION refuse_posting_change()",
        "CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries"
        " FOR EACH ROW EXECUTE FUNCTION refuse_entry_change()",
    )


async def _entries(app: FastAPI) -> list[tuple[int, int, str]]:
    """(id, chain_seq, hash) of every entry, in chain order, once the sealer has run."""
    await seal_waiting(app.state.db)
    rows = await app.state.db.reader.rows(
        "SELECT id, chain_seq, hash FROM journal_entries ORDER BY chain_seq"
    )
    return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]


async def test_every_entry_is_chained_and_verify_and_the_doc_script_agree(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger, tmp_path: Path
) -> None:
    await activity(app, client)
    entries = await _entries(app)
    assert len(entries) >= 10
    assert [seq for _id, seq, _h in entries] == list(range(1, len(entries) + 1))
    assert all(re.fullmatch(r"[0-9a-f]{64}", digest) for _i, _s, digest in entries)
    verdict = await verify(app.state.db)
    assert verdict.ok, verdict.problem
    assert verdict.entries == len(entries) and verdict.head == entries[-1][2]

    checked = await ledger("verify")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[0] == f"ok {len(entries)} entries"

    export = tmp_path / "chain.jsonl"
    until = (utcnow() + timedelta(minutes=1)).isoformat().replace("+00:00", "Z")
    exported = await ledger("export", "--until", until, "--output", str(export))
    assert exported.returncode == 0, exported.stderr
    assert len(export.read_text().splitlines()) == len(entries)
    script = tmp_path / "verify_export.py"
    script.write_text(_doc_script())
    audited = _python(script, export)
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert audited.stdout.strip() == f"ok {len(entries)} entries, head {entries[-1][2]}"

    # the auditor's script catches an edited line of the export too
    lines = export.read_text().splitlines()
    lines[3] = (
        lines[3].replace('"EUR"', '"XXX"')
        if '"EUR"' in lines[3]
        else lines[3].replace('"USD"', '"XXX"')
    )
    export.write_text("\n".join(lines) + "\n")
    audited = _python(script, export)
    assert audited.returncode != 0 and "(seq 4) does not match" in audited.stderr


async def test_an_export_until_an_instant_is_a_prefix_of_the_chain(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger, tmp_path: Path
) -> None:
    await activity(app, client)
    entries = await _entries(app)
    middle = await app.state.db.reader.value(
        "SELECT created_at FROM journal_entries WHERE chain_seq = $1", len(entries) // 2
    )
    until = str(middle).replace(" ", "T")
    exported = await ledger("export", "--until", until)
    assert exported.returncode == 0, exported.stderr
    assert len(exported.stdout.splitlines()) == len(entries) // 2


async def test_an_export_seals_every_entry_up_to_its_instant_first(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger
) -> None:
    await activity(app, client)  # no sealer runs: every entry waits
    waiting = await app.state.db.reader.value(
        "SELECT count(*) FROM journal_entries WHERE chain_seq IS NULL"
    )
    assert waiting >= 10
    until = utcnow().isoformat().replace("+00:00", "Z")
    exported = await ledger("export", "--until", until)
    assert exported.returncode == 0, exported.stderr
    assert len(exported.stdout.splitlines()) == waiting
    assert [e[1] for e in await _entries(app)] == list(range(1, waiting + 1))


async def test_an_edited_posting_is_named(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger, restore_triggers: None
) -> None:
    await activity(app, client)
    entries = await _entries(app)
    target = entries[4][0]
    await _around(
        app,
        *_triggers_off(app),
        f"UPDATE postings SET amount = amount + 100 WHERE id = "
        f"(SELECT min(id) FROM postings WHERE entry_id = {target})",
    )
    checked = await ledger("verify")
    assert checked.returncode == 1, checked.stdout
    assert f"entry {target} (seq 5): its hash does not match its content" in checked.stdout


async def test_a_deleted_entry_is_named(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger, restore_triggers: None
) -> None:
    await activity(app, client)
    entries = await _entries(app)
    gone, after = entries[2][0], entries[3][0]
    await _around(
        app,
        *_triggers_off(app),
        f"DELETE FROM postings WHERE entry_id = {gone}",
        f"DELETE FROM journal_entries WHERE id = {gone}",
    )
    checked = await ledger("verify")
    assert checked.returncode == 1, checked.stdout
    assert f"entry {after} (seq 4): seq 3 is missing before it" in checked.stdout


async def test_the_last_entry_cut_off_is_seen_at_the_head(
    app: FastAPI, client: httpx.AsyncClient, restore_triggers: None
) -> None:
    await activity(app, client)
    last = (await _entries(app))[-1][0]
    await _around(
        app,
        *_triggers_off(app),
        f"DELETE FROM postings WHERE entry_id = {last}",
        f"DELETE FROM journal_entries WHERE id = {last}",
    )
    verdict = await verify(app.state.db)
    assert not verdict.ok and "its head says" in str(verdict.problem)


async def test_an_entry_written_around_the_service_and_an_edited_balance_are_named(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    _user, account, _card = await activity(app, client)
    hex_account = account.hex if app.state.db.is_sqlite else str(account)
    await _around(app, f"UPDATE accounts SET balance = balance + 1 WHERE uuid = '{hex_account}'")
    balance = int(
        await app.state.db.reader.value("SELECT balance FROM accounts WHERE uuid = $1", account)
    )
    verdict = await verify(app.state.db)
    assert (
        verdict.problem
        == f"account {account}: balance {balance}, its postings sum to {balance - 1}"
    )
    # an entry written into the chain around the service, after its last place
    last_seq = len(await _entries(app))
    await _forge(
        app,
        f"INSERT INTO journal_entries (id, kind, created_at, chain_seq, hash) VALUES (9999,"
        f" 'forged', '{utcnow().strftime('%Y-%m-%d %H:%M:%S.%f')}', {last_seq + 1}, '{'f' * 64}')",
    )
    verdict = await verify(app.state.db)
    assert (
        verdict.problem == f"entry 9999 (seq {last_seq + 1}): its hash does not match its content"
    )


async def test_an_entry_inserted_into_the_chain_with_its_hash_is_seen_at_the_head(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Hashed right but the head not moved: what a forger who cannot write the head leaves
    (one who can is caught by a head kept elsewhere, docs/ledger.md)."""
    await activity(app, client)
    entries = await _entries(app)
    stamp = utcnow()
    forged = Entry(
        9999, "forged", None, instant(stamp), [("book:fees", "USD", 5), ("book:holds", "USD", -5)]
    )
    digest = entry_hash(forged, len(entries) + 1, entries[-1][2])
    await _forge(
        app,
        f"INSERT INTO journal_entries (id, kind, created_at, chain_seq, hash) VALUES (9999,"
        f" 'forged', '{stamp.strftime('%Y-%m-%d %H:%M:%S.%f')}', {len(entries) + 1}, '{digest}')",
    )
    verdict = await verify(app.state.db)
    assert not verdict.ok and "its head says" in str(verdict.problem)


async def test_verify_without_sealing_counts_what_waits_and_names_an_entry_left_a_minute(
    app: FastAPI, client: httpx.AsyncClient, ledger: Ledger
) -> None:
    await activity(app, client)
    waiting = int(
        await app.state.db.reader.value(
            "SELECT count(*) FROM journal_entries WHERE chain_seq IS NULL"
        )
    )
    assert waiting >= 10
    checked = await ledger("verify", "--no-seal")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines() == [
        "ok 0 entries",
        f"head 0 {'0' * 64}",
        f"{waiting} entries not sealed yet",
    ]
    # a committed entry that has waited over a minute: no sealer is running
    old = (utcnow() - timedelta(minutes=2)).strftime("%Y-%m-%d %H:%M:%S.%f")
    await _forge(
        app,
        f"INSERT INTO journal_entries (id, kind, created_at) VALUES (9999, 'late', '{old}')",
    )
    checked = await ledger("verify", "--no-seal")
    assert checked.returncode == 1, checked.stdout
    found = re.match(
        rf"mismatch: {waiting + 1} entries not sealed yet, the oldest for (\d+) s:"
        r" is a sealer running\?",
        checked.stdout,
    )
    assert found is not None and int(found.group(1)) >= 120, checked.stdout  # backdated 2 min
    # sealed by verify itself: all of them, the late one too
    checked = await ledger("verify")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.splitlines()[0] == f"ok {waiting + 1} entries"


async def test_a_chained_entry_stays_append_only(app: FastAPI, client: httpx.AsyncClient) -> None:
    await activity(app, client)
    await seal_waiting(app.state.db)
    for statement in (
        "UPDATE journal_entries SET hash = 'x' WHERE chain_seq = 1",
        "UPDATE journal_entries SET chain_seq = NULL, hash = NULL WHERE chain_seq = 2",
        "UPDATE journal_entries SET kind = 'edited' WHERE chain_seq = 3",
        "DELETE FROM journal_entries WHERE chain_seq = 4",
    ):
        with pytest.raises(Exception, match="never edited or deleted"):
            await _around(app, statement)
    assert (await verify(app.state.db)).ok


async def test_an_entry_undone_by_a_savepoint_is_not_chained(app: FastAPI) -> None:
    legs = [book_leg(SystemBook.FEES, "USD", 7), book_leg(SystemBook.FUNDING, "USD", -7)]

    async def unit(tx: Tx) -> None:
        await post_entry(tx, "kept", legs)
        await tx.execute("SAVEPOINT act")
        await post_entry(tx, "undone", legs)
        await tx.execute("ROLLBACK TO SAVEPOINT act")
        await post_entry(tx, "kept too", legs)

    await app.state.db.transact(unit)
    await app.state.db.transact(unit)
    await seal_waiting(app.state.db)
    kinds = await app.state.db.reader.rows(
        "SELECT kind, chain_seq FROM journal_entries ORDER BY chain_seq"
    )
    assert [(r[0], r[1]) for r in kinds] == [
        ("kept", 1),
        ("kept too", 2),
        ("kept", 3),
        ("kept too", 4),
    ]
    verdict = await verify(app.state.db)
    assert verdict.ok and verdict.entries == 4, verdict.problem


def test_the_canonical_content_is_the_docs_bytes() -> None:
    """`canonical` gives the bytes docs/ledger.md specifies."""
    postings = [
        ("book:funding", "EUR", -10000),
        ("account:0b6f4c2e-0000-4000-8000-00000000000a", "EUR", 10000),
    ]
    entry = Entry(42, "deposit", None, "2026-11-24T13:51:12.123456Z", postings)
    assert canonical(entry, 7, "ab" * 32) == (
        b'{"created_at":"2026-11-24T13:51:12.123456Z","id":42,"kind":"deposit",'
        b'"postings":[["account:0b6f4c2e-0000-4000-8000-00000000000a","EUR",10000],'
        b'["book:funding","EUR",-10000]],"prev":"' + b"ab" * 32 + b'","reference":null,"seq":7}'
    )


async def test_an_entry_is_written_unsealed_and_sealed_after_commit(app: FastAPI) -> None:
    """The unit writes its entries without a place and touches neither the head nor the day
    totals; the sealer gives them their places, in id order, and adds their day totals."""
    legs = [book_leg(SystemBook.FEES, "USD", 5), book_leg(SystemBook.FUNDING, "USD", -5)]

    async def unit(tx: Tx) -> None:
        await post_entry(tx, "first", legs)
        await post_entry(tx, "second", legs)

    head_sql = "SELECT seq, hash FROM ledger_chain_head"
    head = [tuple(r) for r in await app.state.db.reader.rows(head_sql)]
    await app.state.db.transact(unit)
    await app.state.db.transact(unit)
    rows = await app.state.db.reader.rows(
        "SELECT kind, chain_seq, hash FROM journal_entries ORDER BY id"
    )
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("first", None, None),
        ("second", None, None),
        ("first", None, None),
        ("second", None, None),
    ]
    assert [tuple(r) for r in await app.state.db.reader.rows(head_sql)] == head  # untouched
    assert await app.state.db.reader.value("SELECT count(*) FROM ledger_day_totals") == 0
    assert await seal_waiting(app.state.db) == 4
    assert await seal_waiting(app.state.db) == 0
    rows = await app.state.db.reader.rows(
        "SELECT kind, chain_seq FROM journal_entries ORDER BY chain_seq"
    )
    assert [(r[0], r[1]) for r in rows] == [
        ("first", 1),
        ("second", 2),
        ("first", 3),
        ("second", 4),
    ]
    totals = await app.state.db.reader.rows(
        "SELECT holder_class, kind, amount, postings FROM ledger_day_totals"
        " ORDER BY holder_class, kind"
    )
    assert [tuple(r) for r in totals] == [
        ("fees", "first", 10, 2),
        ("fees", "second", 10, 2),
        ("funding", "first", -10, 2),
        ("funding", "second", -10, 2),
    ]
    verdict = await verify(app.state.db, seal=False)
    assert verdict.ok and verdict.entries == 4 and verdict.unsealed == 0, verdict.problem

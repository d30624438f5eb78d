"""What the ledger's database rules cost an entry, inside PostgreSQL, before and after a
migration: `python -m bench.ledger_checks --before 20261127_48 [--entries 2000] [--rounds 5]`.

Two databases, one migrated to head and one only up to `--before`, each with one funded
card (`acquirer.simulator.make_cards`). In each, a server-side loop (`DO`, no client round
trip) writes `--entries` entries as the service writes an authorization's on PostgreSQL: one
statement of data-modifying CTEs, three postings (the card's and two books') then the entry
that reads them (`ledger.entries`), so every rule and key of the postings and the entry runs
as it does in a unit; the loop rolls back. The two databases take turns, each round in the
other order; µs an entry (median over the rounds) and after ÷ before.

    CARDSERVICE_BENCH_PG=postgresql://postgres@127.0.0.1:5499/postgres \\
        python -m bench.ledger_checks --before 20261127_48

`--loop approval` writes an approval's unit instead, each its own transaction: its account
and card locked, then its write statement (`ledger.entries`' `post_entry` with its `insert`:
the transaction row, its `transaction.created` event with its data, the postings, the entry,
the card's balance; a domestic ISO approval's columns); the figure is the CPU time of the
server's backend (the machine is shared), and each round's two loops' ratio is given too.

`--keys [--at REVISION]` measures what each foreign key and index that unit runs costs it,
on one database: each round, a loop without the object (dropped, then put back as it was)
beside a loop with it, the objects in a rotated order; the median of the differences and
each round's. `--triggers` (with `--before`) runs the write statement under EXPLAIN
ANALYZE, the deferred keys at its end, and gives each trigger's median µs (a key's by its
constraint's name) and the statement's, on both schemas in turn:

    python -m bench.ledger_checks --before 20261128_01 --loop approval --entries 400 --rounds 16
    python -m bench.ledger_checks --keys --at 20261128_01 --entries 300 --rounds 3
    python -m bench.ledger_checks --before 20261128_01 --triggers --entries 300 --rounds 4
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import time
import uuid
from typing import Any

import asyncpg
import orjson

from bench.iso import ADMIN_DSN, KEY
from cardservice import runtime
from cardservice.acquirer.simulator import make_cards
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher
from tests.fresh_database import create_database, drop_database

_LOOP = """
DO $$
DECLARE
    card uuid := '{card}';
    first bigint;
BEGIN
    FOR i IN 1..{entries} LOOP
        WITH e AS (SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id),
        p AS (INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency,
                                    amount)
              SELECT e.id, NULL, v.card, v.book, 'USD', v.amount
              FROM e, (VALUES (card, NULL, -100), (NULL, 'fees', 10),
                              (NULL, 'cardholder_receivables', 90)) AS v(card, book, amount)
              RETURNING 1)
        INSERT INTO journal_entries (id, kind, reference, created_at)
        SELECT e.id, 'card_purchase', gen_random_uuid(), clock_timestamp() FROM e
        WHERE (SELECT count(*) FROM p) = 3;
    END LOOP;
    RAISE EXCEPTION USING ERRCODE = 'P0001', MESSAGE = 'rolled back';
END $$"""

# An approval's unit as it writes (`ledger.entries._write_entry_pg` with the transaction's
# insert, `transactions.repository.transactions_insert`, filled as an ISO 8583 approval of a
# domestic purchase fills it), each its own transaction (COMMIT in the loop: a row updated
# over and over in one transaction is a longer chain of versions each time, and the deferred
# checks run at COMMIT), asynchronous commit (no flush in the figure): its account and card
# locked as the unit's first statements lock them, then the write statement.
_APPROVAL = """
DO $$
DECLARE
    card uuid := '{card}';
    owner uuid;
    account uuid;
    t uuid;
    now timestamptz;
BEGIN
    SET LOCAL synchronous_commit = off;
    SELECT c.user_uuid, c.account_uuid INTO owner, account FROM cards c WHERE c.uuid = card;
    COMMIT;
    FOR i IN 1..{entries} LOOP
        SET LOCAL synchronous_commit = off;
        t := gen_random_uuid();
        now := clock_timestamp();
        PERFORM 1 FROM accounts WHERE uuid = account FOR NO KEY UPDATE;
        PERFORM 1 FROM cards WHERE uuid = card FOR NO KEY UPDATE;
        WITH e AS (SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id),
        tr AS (INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,
                   direction, amount, authorized_amount, captured_amount, currency, fee,
                   refunded_amount, merchant_name, merchant_mcc, merchant_country,
                   merchant_city, flagged, decision, hold_expires_at, channel, network,
                   stand_in, shortfall, auth_code, created_at, updated_at)
               VALUES (t, owner, account, card, 'card_purchase', 'pending', 'debit', 1, 1, 0,
                   'USD', 0, 0, 'Corner Shop', '5411', 'US', 'Springfield', false, 'rules',
                   now + interval '7 days', 'iso8583',
                   '{{"stan": "000123", "rrn": "123456789012", "acquirer_id": "123456",'
                   ' "terminal_id": "TERM0001", "merchant_id": "MERCHANT0000001",'
                   ' "auth_code": "A1B2C3"}}', false, 0, 'A1B2C3', now, now)
               RETURNING 1),
        w AS (INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at,
                                  data)
              VALUES (gen_random_uuid(), 'transaction.created', owner, 'transaction', t, now,
                      repeat('x', 900))),
        p AS (INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency,
                                    amount)
              SELECT e.id, NULL, v.card, v.book, 'USD', v.amount
              FROM e, (VALUES (card, NULL, -1), (NULL, 'holds', 1)) AS v(card, book, amount)
              WHERE (SELECT count(*) FROM tr) = 1
              RETURNING 1),
        j AS (INSERT INTO journal_entries (id, kind, reference, created_at)
              SELECT e.id, 'card_purchase', t, now FROM e WHERE (SELECT count(*) FROM p) > 0
              RETURNING id)
        UPDATE cards SET balance = balance - 1, updated_at = now
        WHERE uuid = card AND balance - 1 >= 0 AND (SELECT count(*) FROM j) = 1;
        COMMIT;
    END LOOP;
END $$"""

# `--keys`: the foreign keys that fire on an approval's rows, then the indexes its inserts
# write; each variant drops one (the last, all the transactions' keys), runs its loop and
# puts it back as it was.
_KEYS = [
    "fk_transactions_user_uuid_users", "fk_transactions_account_uuid_accounts",
    "fk_transactions_card_uuid_cards", "fk_transactions_parent_uuid_transactions",
    "fk_postings_entry_id_journal_entries",
]  # fmt: skip
_INDEXES = [
    "ix_transactions_hold_expires", "ux_transactions_dispute_credit", "ix_transactions_created",
    "ix_transactions_fx_pair", "ix_transactions_card_auth_code",
    "ix_transactions_account_created", "ix_transactions_user_created",
    "ix_transactions_card_created", "ix_postings_entry_id", "ix_postings_card",
    "ix_postings_account", "ix_journal_entries_created_at", "ix_journal_entries_unsealed",
    "ix_journal_entries_chain_seq", "ix_events_unsequenced", "ix_events_user_sequence",
    "ix_events_pending", "uq_events_sequence",
]  # fmt: skip
_CONSTRAINT = (
    "SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS definition"
    " FROM pg_constraint WHERE conname = $1"
)
_INDEX = "SELECT pg_get_indexdef(to_regclass($1))"
_THERE = (
    "SELECT conname FROM pg_constraint WHERE conname = ANY($1::text[])"
    " UNION SELECT relname FROM pg_class WHERE relname = ANY($1::text[])"
)


def _variants() -> dict[str, list[str]]:
    """Each variant's objects."""
    variants: dict[str, list[str]] = {name: [name] for name in _KEYS + _INDEXES}
    # the transactions' keys to user, account and card and the postings' to their entry
    variants["the four keys"] = [k for k in _KEYS if "parent" not in k]
    return variants


async def _without(connection: asyncpg.Connection, names: list[str]) -> list[str]:
    """Drop the objects; the statements that put them back."""
    back = []
    for name in names:
        constraint = await connection.fetchrow(_CONSTRAINT, name)
        if constraint is not None:
            table, definition = constraint["table"], constraint["definition"]
            await connection.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}")
            back.append(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition}")
        else:
            back.append(await connection.fetchval(_INDEX, name))
            await connection.execute(f"DROP INDEX {name}")
    return back


def _cpu_ns(pid: int) -> int:
    """The ns a process of this machine (the server's backend) has run on a CPU so far."""
    with open(f"/proc/{pid}/schedstat") as stat:
        return int(stat.read().split()[0])


async def _approvals(url: str, card: str, entries: int, names: list[str]) -> float:
    """CPU µs an approval of the server's backend (the machine is shared: CPU, not wall time)
    in one loop of `entries` without the objects `names`."""
    connection = await asyncpg.connect(url)
    try:
        back = await _without(connection, names)
        await connection.execute(_APPROVAL.format(card=card, entries=10))  # plans, functions
        started = _cpu_ns(connection.get_server_pid())
        await connection.execute(_APPROVAL.format(card=card, entries=entries))
        took = (_cpu_ns(connection.get_server_pid()) - started) / 1e9
        for statement in back:
            await connection.execute(statement)
    finally:
        await connection.close()
    return took * 1e6 / entries


async def _database(revision: str) -> tuple[str, str]:
    url = await create_database(ADMIN_DSN, "cs_bench_ledger")
    await upgrade_database(Settings(database_url=url).resolved_database_url, revision)
    db = runtime.database(Settings(database_url=url, encryption_key=KEY))
    try:
        _account, cards = await make_cards(db, CardCipher([KEY.encode()]), 1)
    finally:
        await db.dispose()
    return url, str(cards[0].uuid)


async def _loop(url: str, card: str, entries: int, loop: str = "entry") -> float:
    """µs an entry of one loop of `entries` (`loop`: the entry's statement, or an approval's
    unit: `_approvals`)."""
    if loop == "approval":
        return await _approvals(url, card, entries, [])
    connection = await asyncpg.connect(url)
    with contextlib.suppress(asyncpg.RaiseError):  # plans, functions
        await connection.execute(_LOOP.format(card=card, entries=10))
    started = time.perf_counter()
    try:
        await connection.execute(_LOOP.format(card=card, entries=entries))
    except asyncpg.RaiseError:
        pass
    finally:
        await connection.close()
    return (time.perf_counter() - started) * 1e6 / entries


async def main(before: str, entries: int, rounds: int, loop: str = "entry") -> dict[str, Any]:
    databases = {"head": await _database("head"), before: await _database(before)}
    took: dict[str, list[float]] = {name: [] for name in databases}
    try:
        for turn in range(rounds):
            for name in list(databases) if turn % 2 == 0 else list(reversed(databases)):
                took[name].append(await _loop(*databases[name], entries, loop))
    finally:
        for url, _card in databases.values():
            await drop_database(ADMIN_DSN, url)
    head, old = (statistics.median(took[name]) for name in ("head", before))
    return {
        "entries_a_loop": entries, "rounds": rounds, "load_average": os.getloadavg(),
        "us_an_entry": {name: round(statistics.median(t), 1) for name, t in took.items()},
        "rounds_us_an_entry": {name: [round(x, 1) for x in t] for name, t in took.items()},
        "head_vs_before": round(head / old, 3),
        # each round's two loops ran one after the other: their ratio moves less with the load
        "head_vs_before_paired": round(statistics.median(
            h / b for h, b in zip(took["head"], took[before], strict=True)), 3),
    }  # fmt: skip


async def keys(entries: int, rounds: int, at: str) -> dict[str, Any]:
    """What each variant (`_variants`) saves an approval on one database at `at`: each
    round, each variant's loop beside a loop of the schema as it is (which first alternates),
    the variants in a rotated order; the median over the rounds of the two loops'
    difference, and the differences' spread (the load moves a loop's figure more than most
    objects cost)."""
    url, card = await _database(at)
    connection = await asyncpg.connect(url)
    try:  # the objects of this schema (a key dropped by a migration has no variant)
        there = {r[0] for r in await connection.fetch(_THERE, _KEYS + _INDEXES)}
    finally:
        await connection.close()
    variants = {k: names for k, names in _variants().items() if names and set(names) <= there}
    saved: dict[str, list[float]] = {name: [] for name in variants}
    as_is: list[float] = []
    names = list(variants)
    try:
        for turn in range(rounds):
            shift = turn * len(names) // rounds
            for n, name in enumerate(names[shift:] + names[:shift]):
                pair = [[], variants[name]] if (turn + n) % 2 == 0 else [variants[name], []]
                took = [await _approvals(url, card, entries, objects) for objects in pair]
                whole, without = took if pair[0] == [] else took[::-1]
                as_is.append(whole)
                saved[name].append(whole - without)
    finally:
        await drop_database(ADMIN_DSN, url)
    return {
        "revision": at, "approvals_a_loop": entries, "rounds": rounds,
        "load_average": os.getloadavg(),
        "cpu_us_an_approval_as_is": round(statistics.median(as_is), 1),
        "saved_cpu_us_an_approval": {
            name: round(statistics.median(s), 1) for name, s in saved.items()
        },
        "rounds_saved": {name: [round(x, 1) for x in s] for name, s in saved.items()},
    }  # fmt: skip


# `--triggers`: one approval's write statement (as `_APPROVAL` writes it) under EXPLAIN
# ANALYZE, its deferred keys run at its end, after its account and card are locked
_EXPLAINED = """EXPLAIN (ANALYZE, FORMAT JSON)
WITH e AS (SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) AS id),
tr AS (INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,
           direction, amount, authorized_amount, captured_amount, currency, fee,
           refunded_amount, merchant_name, merchant_mcc, merchant_country, merchant_city,
           flagged, decision, hold_expires_at, channel, network, stand_in, shortfall,
           auth_code, created_at, updated_at)
       VALUES ($4, $1, $2, $3, 'card_purchase', 'pending', 'debit', 1, 1, 0, 'USD', 0, 0,
           'Corner Shop', '5411', 'US', 'Springfield', false, 'rules',
           now() + interval '7 days', 'iso8583', '{"stan": "000123"}', false, 0, 'A1B2C3',
           now(), now())
       RETURNING 1),
w AS (INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at, data)
      VALUES (gen_random_uuid(), 'transaction.created', $1, 'transaction', $4, now(),
              repeat('x', 900))),
p AS (INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency, amount)
      SELECT e.id, NULL, v.card, v.book, 'USD', v.amount
      FROM e, (VALUES ($3::uuid, NULL, -1), (NULL, 'holds', 1)) AS v(card, book, amount)
      WHERE (SELECT count(*) FROM tr) = 1 RETURNING 1),
j AS (INSERT INTO journal_entries (id, kind, reference, created_at)
      SELECT e.id, 'card_purchase', $4, now() FROM e WHERE (SELECT count(*) FROM p) > 0
      RETURNING id)
UPDATE cards SET balance = balance - 1, updated_at = now()
WHERE uuid = $3 AND balance - 1 >= 0 AND (SELECT count(*) FROM j) = 1"""
# a key's trigger by its constraint's name
_KEY_TRIGGERS = (
    "SELECT t.tgname, c.conname FROM pg_trigger t JOIN pg_constraint c ON c.oid = t.tgconstraint"
)


async def _explained(url: str, card: str, entries: int) -> dict[str, list[float]]:
    """µs of each trigger (a key's by its name) and of the statement, `entries` approvals."""
    connection = await asyncpg.connect(url)
    try:
        names = dict(await connection.fetch(_KEY_TRIGGERS))
        holder = await connection.fetchrow(
            "SELECT user_uuid, account_uuid, uuid FROM cards WHERE uuid = $1", uuid.UUID(card)
        )
        took: dict[str, list[float]] = {}
        for _ in range(entries):
            async with connection.transaction():
                await connection.execute("SET CONSTRAINTS ALL IMMEDIATE")
                for table, key in (("accounts", holder[1]), ("cards", holder[2])):
                    lock = f"SELECT 1 FROM {table} WHERE uuid = $1 FOR NO KEY UPDATE"
                    await connection.execute(lock, key)
                plan = await connection.fetchval(_EXPLAINED, *holder, uuid.uuid4())
            top = orjson.loads(plan)[0]
            for trigger in top.get("Triggers", []):
                name = trigger["Trigger Name"]
                took.setdefault(names.get(name, name), []).append(trigger["Time"] * 1000)
            took.setdefault("statement", []).append(top["Execution Time"] * 1000)
        return took
    finally:
        await connection.close()


async def triggers(before: str, entries: int, rounds: int) -> dict[str, Any]:
    """Each trigger's µs in an approval's statement (median) at head and at `before`, the
    two databases in turn."""
    databases = {"head": await _database("head"), before: await _database(before)}
    took: dict[str, dict[str, list[float]]] = {name: {} for name in databases}
    try:
        for turn in range(rounds):
            for name in list(databases) if turn % 2 == 0 else list(reversed(databases)):
                for trigger, times in (await _explained(*databases[name], entries)).items():
                    took[name].setdefault(trigger, []).extend(times)
    finally:
        for url, _card in databases.values():
            await drop_database(ADMIN_DSN, url)
    return {
        "approvals": entries * rounds, "load_average": os.getloadavg(),
        "us_median": {
            name: {t: round(statistics.median(x), 1) for t, x in times.items()}
            for name, times in took.items()
        },
    }  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--before", metavar="REVISION")
    group.add_argument("--keys", action="store_true")
    parser.add_argument("--at", default="head", metavar="REVISION", help="--keys' schema")
    parser.add_argument("--triggers", action="store_true", help="with --before: EXPLAIN's")
    parser.add_argument("--loop", choices=("entry", "approval"), default="entry")
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    if arguments.keys:
        run = keys(arguments.entries, arguments.rounds, arguments.at)
    elif arguments.triggers:
        run = triggers(arguments.before, arguments.entries, arguments.rounds)
    else:
        run = main(arguments.before, arguments.entries, arguments.rounds, arguments.loop)
    print(orjson.dumps(asyncio.run(run), option=orjson.OPT_INDENT_2).decode())

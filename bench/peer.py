"""The bare peer: each hot endpoint's irreducible work, with no framework at all.

A plain ASGI callable on the same server program (uvicorn, same workers) and the same
database as the service: authentication folded into the resource's own statement where the
service needs two, the same rows, JSON written straight from them with orjson. What the
service pays beyond this — routing, middleware, dependencies, validation, its record
builders — is what its ratio to the peer measures (`bench.run` prints it per endpoint).

    CARDSERVICE_PEER_URL=postgresql://… uvicorn bench.peer:app --workers 2

It answers 200/201 or 404, nothing else: it is a measuring stick, not a second service.
The authorization does the ledger's statements of the engine (lock the account through the
card, lock the card, insert the transaction, the entry's postings and the entry, move the
balance), the purchase those of a card's issue, and `sqlite_loop_tps` runs either unit in a
bare `sqlite3` loop: the SQLite write baseline of the endpoint that does that unit.
"""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import asyncpg
import orjson

from cardservice.cards.numbers import generate_pan
from cardservice.ledger.minor_units import percent_of
from cardservice.security import CardCipher, generate_key

URL = os.environ.get("CARDSERVICE_PEER_URL", "")
# the service's own card-number cipher and number drawing: that work is the purchase's own
CIPHER = CardCipher([(os.environ.get("CARDSERVICE_ENCRYPTION_KEY") or generate_key()).encode()])
Send = Callable[[dict[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[dict[str, Any]]]

AUTH = "k.token_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > $2)"
TXN = (
    "t.uuid, t.type, t.status, t.amount, t.currency, t.direction, t.card_uuid, t.account_uuid,"
    " t.merchant_name, t.merchant_mcc, t.merchant_country, t.merchant_city, t.tag_slug,"
    " t.error_slug, t.fee, t.refunded_amount, t.flagged, t.description, t.parent_uuid,"
    " t.created_at, t.updated_at"
)
CARD = (
    "c.uuid, c.account_uuid, c.bin, c.brand, c.last4, c.expiry_month, c.expiry_year,"
    " c.currency, c.balance, c.status, c.is_favorite, c.sort_order, c.description,"
    " c.external_id, c.holder_name, c.holder_address, c.auto_replenish_amount,"
    " c.auto_replenish_min_balance, c.created_at, c.updated_at"
)
ONE_TRANSACTION = f"""
SELECT {TXN} FROM api_tokens k JOIN transactions t ON t.user_uuid = k.user_uuid
WHERE {AUTH} AND t.uuid = $3"""
REPORT = f"""
SELECT {TXN}, (SELECT n.transactions FROM transaction_counts n WHERE n.user_uuid = t.user_uuid)
FROM transactions t WHERE t.uuid IN (
  SELECT s.uuid FROM transactions s
  WHERE s.user_uuid = (SELECT k.user_uuid FROM api_tokens k WHERE {AUTH})
  ORDER BY s.created_at DESC, s.uuid DESC LIMIT 20 OFFSET $3
) ORDER BY t.created_at DESC, t.uuid DESC"""
CARDS = f"""
SELECT {CARD}, (SELECT count(*) FROM cards n WHERE n.user_uuid = k.user_uuid)
FROM api_tokens k JOIN cards c ON c.user_uuid = k.user_uuid
WHERE {AUTH} ORDER BY c.sort_order, c.created_at, c.uuid LIMIT 100"""
LOCK_ACCOUNT = f"""
SELECT a.uuid, a.balance, k.user_uuid FROM api_tokens k
JOIN cards c ON c.user_uuid = k.user_uuid JOIN accounts a ON a.uuid = c.account_uuid
WHERE {AUTH} AND c.uuid = $3 FOR NO KEY UPDATE OF a"""
LOCK_CARD = "SELECT balance, currency FROM cards WHERE uuid = $1 FOR NO KEY UPDATE"
FEE = "SELECT value FROM fee_rates WHERE plan = 'default' AND slug = 'card_transaction'"
INSERT_TXN = """
INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status, direction,
  amount, authorized_amount, currency, fee, refunded_amount, merchant_name, flagged,
  hold_expires_at, created_at, updated_at)
VALUES ($1, $2, $3, $4, 'card_purchase', 'pending', 'debit', $5, $5, $6, $7, 0, $8, $9, $11,
  $10, $10)"""
INSERT_POSTINGS = """
INSERT INTO postings (entry_id, card_uuid, system_book, currency, amount)
VALUES ($1, $2, NULL, $3, $4), ($1, NULL, 'holds', $3, $5), ($1, NULL, 'fees', $3, $6)"""
# the entry, unsealed: the sealer chains it after commit as it does the service's
INSERT_ENTRY = """
INSERT INTO journal_entries (id, kind, reference, created_at)
VALUES ($1, 'card_purchase_pending', $2, $3)"""
# On PostgreSQL an entry is written in the statement of its postings, as `ledger.entries`
# writes it (the database checks a posting's entry at the end of the posting's statement,
# docs/ledger.md); SQLite checks the entry at COMMIT, and takes the two statements in turn.
PURCHASE_ENTRY = f"""
WITH p AS ({INSERT_POSTINGS.strip()} RETURNING 1)
INSERT INTO journal_entries (id, kind, reference, created_at)
VALUES ($1, 'card_purchase_pending', $7, $8)"""
MOVE_CARD = "UPDATE cards SET balance = balance - $2, updated_at = $3 WHERE uuid = $1"
# A purchase of one card: the account locked with the caller found by the token, the BIN, the
# card (its number drawn and encrypted as the service does), its card_issue transaction, the
# journal entry (account → card and fees), both balances, the outbox rows completed.
BUY_ACCOUNT = f"""
SELECT a.uuid, a.balance, a.currency, k.user_uuid, u.name,
       (SELECT max(sort_order) FROM cards WHERE user_uuid = k.user_uuid)
FROM api_tokens k JOIN accounts a ON a.user_uuid = k.user_uuid JOIN users u ON u.uuid = k.user_uuid
WHERE {AUTH} AND a.uuid = $3 AND a.status = 'active' FOR NO KEY UPDATE OF a"""
BIN = "SELECT bin, brand, currency FROM bins WHERE uuid = $1 AND status = 'available'"
BUY_FEES = """
SELECT CAST(coalesce(sum(value) FILTER (WHERE slug = 'card_issue' AND kind = 'fixed'), 0) AS BIGINT),
       CAST(coalesce(sum(value) FILTER (WHERE slug = 'card_topup' AND kind = 'percent'), 0) AS BIGINT)
FROM fee_rates WHERE plan = 'default'"""  # PostgreSQL's sum of bigints is numeric: a Decimal
INSERT_CARD = """
INSERT INTO cards (uuid, user_uuid, account_uuid, bin_uuid, bin, brand, currency,
  pan_ciphertext, pan_fingerprint, last4, expiry_month, expiry_year, balance, status,
  is_favorite, sort_order, holder_name, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 0, 'active', $13, $14, $15, $16,
  $16)"""
INSERT_ISSUE = """
INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status, direction,
  amount, authorized_amount, captured_amount, currency, fee, refunded_amount, flagged,
  description, created_at, updated_at)
VALUES ($1, $2, $3, $4, 'card_issue', 'completed', 'debit', $5, 0, 0, $6, $7, 0, $8,
  'Card issue', $9, $9)"""
BUY_POSTINGS = """
INSERT INTO postings (entry_id, account_uuid, card_uuid, system_book, currency, amount)
VALUES ($1, $2, NULL, NULL, $4, $5), ($1, NULL, $3, NULL, $4, $6), ($1, NULL, NULL, 'fees', $4, $7)"""
BUY_ENTRY = """
INSERT INTO journal_entries (id, kind, reference, created_at)
VALUES ($1, 'card_buy', NULL, $2)"""
BUY_ENTRY_WITH_POSTINGS = f"""
WITH p AS ({BUY_POSTINGS.strip()} RETURNING 1)
INSERT INTO journal_entries (id, kind, reference, created_at)
VALUES ($1, 'card_buy', NULL, $8)"""
MOVE_ACCOUNT = "UPDATE accounts SET balance = balance - $2, updated_at = $3 WHERE uuid = $1"
SET_CARD = "UPDATE cards SET balance = $2 WHERE uuid = $1"
# The transaction.created row the database's trigger wrote, completed (`events.outbox`).
COMPLETE_EVENT = "UPDATE events SET data = $1 WHERE data IS NULL"
# an untagged hold's expiry (docs/transactions.md#holds-captures-increments-expiry)
HOLD = timedelta(days=7)
NEXT_ENTRY = {
    "postgresql": "SELECT nextval(pg_get_serial_sequence('journal_entries', 'id'))",
    "sqlite": "SELECT coalesce(max(id), 0) + 1 FROM journal_entries",
}


def _default(value: object) -> object:
    if isinstance(value, Decimal):
        return orjson.Fragment(format(value, "f"))
    if isinstance(value, uuid.UUID):
        return str(value)
    raise TypeError


def _json(body: object) -> bytes:
    return orjson.dumps(body, default=_default, option=orjson.OPT_UTC_Z | orjson.OPT_NAIVE_UTC)


def _money(minor: int) -> Decimal:
    return Decimal(minor).scaleb(-2)


def _u(value: Any) -> Any:
    """A uuid as the API writes it (SQLite keeps 32 hex digits)."""
    if isinstance(value, str) and len(value) == 32:
        return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
    return value


def _transaction(row: Sequence[Any]) -> dict[str, Any]:
    r = list(row)
    return {
        "uuid": _u(r[0]), "type": r[1], "status": r[2], "amount": _money(r[3]), "currency": r[4],
        "direction": r[5], "card_uuid": _u(r[6]), "account_uuid": _u(r[7]),
        "merchant": {"name": r[8], "mcc": r[9], "country": r[10], "city": r[11]} if r[8] else None,
        "tag": r[12], "error": r[13], "fee": _money(r[14]), "refunded_amount": _money(r[15]),
        "flagged": bool(r[16]), "description": r[17], "parent_uuid": _u(r[18]),
        "created_at": r[19], "updated_at": r[20],
    }  # fmt: skip


def _card(row: Sequence[Any]) -> dict[str, Any]:
    r = list(row)
    return {
        "uuid": _u(r[0]), "account_uuid": _u(r[1]), "bin": r[2], "brand": r[3],
        "mask": r[2][:6] + "******" + r[4], "last4": r[4], "expiry_month": r[5],
        "expiry_year": r[6], "currency": r[7], "balance": _money(r[8]), "status": r[9],
        "is_favorite": bool(r[10]), "sort_order": r[11], "description": r[12],
        "external_id": r[13], "holder_name": r[14], "holder_address": r[15],
        "auto_replenish": {"enabled": r[16] is not None, "amount": r[16], "min_balance": r[17]},
        "created_at": r[18], "updated_at": r[19],
    }  # fmt: skip


class Database:
    """The peer's statements on either database (`$n` placeholders rewritten for SQLite)."""

    def __init__(self, url: str) -> None:
        self.dialect = "sqlite" if url.startswith("sqlite") else "postgresql"
        self._url = url
        self._pool: asyncpg.Pool | None = None
        self._sqlite: sqlite3.Connection | None = None

    async def open(self) -> None:
        if self.dialect == "postgresql":
            self._pool = await asyncpg.create_pool(self._url, min_size=2, max_size=10)
        else:
            path = self._url.split(":///", 1)[1]
            self._sqlite = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._sqlite.execute("PRAGMA busy_timeout=30000")

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
        if self._sqlite is not None:
            self._sqlite.close()

    def _param(self, value: Any) -> Any:
        if self.dialect == "postgresql":
            return value
        if isinstance(value, uuid.UUID):
            return value.hex
        if isinstance(value, datetime):
            return value.strftime("%Y-%m-%d %H:%M:%S.%f")
        return int(value) if isinstance(value, bool) else value

    def _sql(self, sql: str) -> str:
        if self.dialect == "postgresql":
            return sql
        sql = re.sub(r"\s+FOR NO KEY UPDATE( OF \w+)?", "", sql)
        return re.sub(r"\$(\d+)", r"?\1", sql)

    async def rows(self, sql: str, *args: Any) -> Sequence[Sequence[Any]]:
        if self._pool is not None:
            return await self._pool.fetch(sql, *args)  # type: ignore[no-any-return]
        assert self._sqlite is not None
        params = [self._param(a) for a in args]
        return self._sqlite.execute(self._sql(sql), params).fetchall()

    async def authorize(self, token: str, body: dict[str, Any]) -> dict[str, Any] | None:
        return await self.unit(_authorize, token, body)

    async def unit(self, work: Any, token: str, body: dict[str, Any]) -> dict[str, Any] | None:
        if self._pool is not None:
            async with self._pool.acquire() as connection, connection.transaction():
                return await work(_PgUnit(connection), self.dialect, token, body)  # type: ignore[no-any-return]
        assert self._sqlite is not None
        return sqlite_unit(self._sqlite, work, token, body)


class _PgUnit:
    def __init__(self, connection: asyncpg.Connection) -> None:
        self._connection = connection

    async def row(self, sql: str, *args: Any) -> Any:
        return await self._connection.fetchrow(sql, *args)

    async def execute(self, sql: str, *args: Any) -> None:
        await self._connection.execute(sql, *args)


async def _authorize(
    unit: Any, dialect: str, token: str, body: dict[str, Any]
) -> dict[str, Any] | None:
    """The engine's approved path as statements: the unit commits when this returns."""
    now = datetime.now(UTC)
    card = uuid.UUID(body["card_uuid"])
    account = await unit.row(LOCK_ACCOUNT, hashlib.sha256(token.encode()).hexdigest(), now, card)
    if account is None:
        return None
    locked = await unit.row(LOCK_CARD, card)
    fee = (await unit.row(FEE))[0]
    amount = int(Decimal(str(body["amount"])) * 100)
    txn = uuid.uuid4()
    user, currency = account[2], locked[1]
    await unit.execute(
        INSERT_TXN, txn, user, account[0], card, amount, currency, fee, body["merchant_name"],
        False, now, now + HOLD,
    )  # fmt: skip
    entry = (await unit.row(NEXT_ENTRY[dialect]))[0]
    legs = (entry, card, currency, -(amount + fee), amount, fee)
    if dialect == "postgresql":
        await unit.execute(PURCHASE_ENTRY, *legs, txn, now)
    else:
        await unit.execute(INSERT_POSTINGS, *legs)
        await unit.execute(INSERT_ENTRY, entry, txn, now)
    await unit.execute(MOVE_CARD, card, amount + fee, now)
    result = {"uuid": txn, "status": "pending", "amount": _money(amount), "fee": _money(fee)}
    await unit.execute(COMPLETE_EVENT, _json(result).decode())  # the outbox's trigger row
    return result


async def _buy(unit: Any, dialect: str, token: str, body: dict[str, Any]) -> dict[str, Any] | None:
    """The purchase of one card as statements: the unit commits when this returns."""
    now = datetime.now(UTC)
    account = await unit.row(
        BUY_ACCOUNT,
        hashlib.sha256(token.encode()).hexdigest(),
        now,
        uuid.UUID(body["account_uuid"]),
    )
    found = await unit.row(BIN, uuid.UUID(body["bin_uuid"]))
    if account is None or found is None:
        return None
    issue_fee, topup = await unit.row(BUY_FEES)
    start = int(Decimal(str(body["start_balance"])) * 100)
    fees = issue_fee + percent_of(start, topup)  # the service's own rounding
    total = start + fees
    if account[1] < total or account[2] != found[2]:
        return None
    pan = generate_pan(found[0])
    card, txn, user = uuid.uuid4(), uuid.uuid4(), account[3]
    sort_order = int(account[5] or 0) + 1
    await unit.execute(
        INSERT_CARD, card, user, account[0], uuid.UUID(body["bin_uuid"]), found[0], found[1],
        found[2], CIPHER.encrypt(pan), CIPHER.fingerprint(pan), pan[-4:], now.month,
        now.year + 3, False, sort_order, account[4], now,
    )  # fmt: skip
    await unit.execute(INSERT_ISSUE, txn, user, account[0], card, start, found[2], fees, False, now)
    entry = (await unit.row(NEXT_ENTRY[dialect]))[0]
    legs = (entry, account[0], card, found[2], -total, start, fees)
    if dialect == "postgresql":
        await unit.execute(BUY_ENTRY_WITH_POSTINGS, *legs, now)
    else:
        await unit.execute(BUY_POSTINGS, *legs)
        await unit.execute(BUY_ENTRY, entry, now)
    await unit.execute(MOVE_ACCOUNT, account[0], total, now)
    await unit.execute(SET_CARD, card, start)
    record = {
        "uuid": card, "account_uuid": account[0], "bin": found[0], "brand": found[1],
        "mask": found[0][:6] + "******" + pan[-4:], "last4": pan[-4:], "currency": found[2],
        "balance": _money(start), "status": "active", "sort_order": sort_order,
        "holder_name": account[4], "created_at": now, "updated_at": now,
    }  # fmt: skip
    await unit.execute(COMPLETE_EVENT, _json(record).decode())  # card.created, its transaction
    return {
        "cards": [record],
        "account": {"uuid": account[0], "balance": _money(account[1] - total)},
        "charge": {"total": _money(total), "fees": _money(fees), "currency": found[2]},
    }


class _SQLiteUnit:
    def __init__(self, db: Database, connection: sqlite3.Connection) -> None:
        self._db, self._connection = db, connection

    async def row(self, sql: str, *args: Any) -> Any:
        params = [self._db._param(a) for a in args]
        return self._connection.execute(self._db._sql(sql), params).fetchone()

    async def execute(self, sql: str, *args: Any) -> None:
        self._connection.execute(self._db._sql(sql), [self._db._param(a) for a in args])


def sqlite_unit(
    connection: sqlite3.Connection, work: Any, token: str, body: dict[str, Any]
) -> dict[str, Any] | None:
    """`work` (`_authorize`, `_buy`) as one durable SQLite transaction."""
    unit = _SQLiteUnit(Database("sqlite:///"), connection)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("PRAGMA defer_foreign_keys=ON")
    try:
        coroutine = work(unit, "sqlite", token, body)
        try:
            coroutine.send(None)  # no awaits suspend on SQLite: it runs to completion here
        except StopIteration as done:
            result: dict[str, Any] | None = done.value
        connection.execute("COMMIT")
        return result
    except BaseException:
        connection.execute("ROLLBACK")
        raise


SQLITE_UNITS = {"authorization": _authorize, "purchase": _buy}


def loop_connection(path: str) -> sqlite3.Connection:
    """The bare loop's connection: WAL, `synchronous=NORMAL`, as the service's writer."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    return connection


def sqlite_loop_tps(
    path: str, unit: str, token: str, body: dict[str, Any], seconds: float
) -> float:
    """The SQLite write baseline: `unit` (of `SQLITE_UNITS`) in a bare loop, one durable
    transaction each."""
    connection = loop_connection(path)
    done, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if sqlite_unit(connection, SQLITE_UNITS[unit], token, body) is None:
            raise RuntimeError(f"the loop's {unit} was refused")
        done += 1
    connection.close()
    return done / seconds


DB = Database(URL)


async def _answer(send: Send, status: int, body: object) -> None:
    payload = _json(body)
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


async def _body(receive: Receive) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


async def app(scope: dict[str, Any], receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        await receive()  # startup
        await DB.open()
        await send({"type": "lifespan.startup.complete"})
        await receive()  # shutdown
        await send({"type": "lifespan.shutdown.complete"})
        return
    path = scope["path"]
    token = ""
    for name, value in scope["headers"]:
        if name == b"authorization":
            token = value.decode()[7:]
    key, now = hashlib.sha256(token.encode()).hexdigest(), datetime.now(UTC)
    if path in ("/health", "/ready"):
        await _answer(send, 200, {"success": True, "data": {"status": "ok"}})
    elif path == "/card/buy":
        record = await DB.unit(_buy, token, orjson.loads(await _body(receive)))
        await _answer(send, 201 if record else 404, {"success": bool(record), "data": record})
    elif path == "/sandbox/authorizations":
        record = await DB.authorize(token, orjson.loads(await _body(receive)))
        await _answer(send, 201 if record else 404, {"success": bool(record), "data": record})
    elif path.startswith("/transaction/report"):
        page = int(
            dict(p.split("=") for p in scope["query_string"].decode().split("&") if p).get(
                "page", 1
            )
        )
        rows = await DB.rows(REPORT, key, now, (page - 1) * 20)
        total = rows[0][-1] if rows else 0
        meta = {"current_page": page, "per_page": 20, "total": total}
        await _answer(
            send, 200, {"success": True, "data": [_transaction(r) for r in rows], "meta": meta}
        )
    elif path.startswith("/transaction/"):
        rows = await DB.rows(ONE_TRANSACTION, key, now, uuid.UUID(path[13:]))
        await _answer(
            send,
            200 if rows else 404,
            {"success": bool(rows), "data": [_transaction(r) for r in rows][:1]},
        )
    elif path == "/card":
        rows = await DB.rows(CARDS, key, now)
        meta = {"current_page": 1, "per_page": 100, "total": rows[0][-1] if rows else 0}
        await _answer(
            send, 200, {"success": True, "data": {"cards": [_card(r) for r in rows]}, "meta": meta}
        )
    else:
        await _answer(
            send, 404, {"success": False, "message": "not in the peer", "code": "not_found"}
        )

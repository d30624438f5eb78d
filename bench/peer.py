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
balance), and `sqlite_loop_tps` runs the same unit in a bare `sqlite3` loop: the SQLite
write baseline.
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

URL = os.environ.get("CARDSERVICE_PEER_URL", "")
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
INSERT_ENTRY = """
INSERT INTO journal_entries (id, kind, reference, created_at)
VALUES ($1, 'card_purchase_pending', $2, $3)"""
MOVE_CARD = "UPDATE cards SET balance = balance - $2, updated_at = $3 WHERE uuid = $1"
# The transaction.created row the database's trigger wrote, completed (`events.outbox`).
COMPLETE_EVENT = "UPDATE events SET data = $1 WHERE data IS NULL"
HOLD = timedelta(days=7)  # an untagged hold's expiry (API.md §12)
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
        if self._pool is not None:
            async with self._pool.acquire() as connection, connection.transaction():
                return await _authorize(_PgUnit(connection), self.dialect, token, body)
        assert self._sqlite is not None
        return sqlite_authorize(self._sqlite, token, body)


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
    await unit.execute(INSERT_POSTINGS, entry, card, currency, -(amount + fee), amount, fee)
    await unit.execute(INSERT_ENTRY, entry, txn, now)
    await unit.execute(MOVE_CARD, card, amount + fee, now)
    result = {"uuid": txn, "status": "pending", "amount": _money(amount), "fee": _money(fee)}
    await unit.execute(COMPLETE_EVENT, _json(result).decode())  # the outbox's trigger row
    return result


class _SQLiteUnit:
    def __init__(self, db: Database, connection: sqlite3.Connection) -> None:
        self._db, self._connection = db, connection

    async def row(self, sql: str, *args: Any) -> Any:
        params = [self._db._param(a) for a in args]
        return self._connection.execute(self._db._sql(sql), params).fetchone()

    async def execute(self, sql: str, *args: Any) -> None:
        self._connection.execute(self._db._sql(sql), [self._db._param(a) for a in args])


def sqlite_authorize(
    connection: sqlite3.Connection, token: str, body: dict[str, Any]
) -> dict[str, Any] | None:
    """One authorization as one durable SQLite transaction (`BEGIN IMMEDIATE` … `COMMIT`)."""
    unit = _SQLiteUnit(Database("sqlite:///"), connection)
    connection.execute("BEGIN IMMEDIATE")
    connection.execute("PRAGMA defer_foreign_keys=ON")
    try:
        coroutine = _authorize(unit, "sqlite", token, body)
        try:
            coroutine.send(None)  # no awaits suspend on SQLite: it runs to completion here
        except StopIteration as done:
            result: dict[str, Any] | None = done.value
        connection.execute("COMMIT")
        return result
    except BaseException:
        connection.execute("ROLLBACK")
        raise


def sqlite_loop_tps(path: str, token: str, card: str, seconds: float) -> float:
    """The SQLite write baseline: authorizations in a bare loop, one durable unit each."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    body = {"card_uuid": card, "amount": 1, "merchant_name": "B"}
    done, deadline = 0, time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        sqlite_authorize(connection, token, body)
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

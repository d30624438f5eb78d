"""ISO 8583 authorizations per second, in one run, three ways on one PostgreSQL database:

1. the service: `cardservice serve --iso8583-port` (one worker), several connections, each
   with requests pipelined;
2. the bare peer: an asyncio TCP server with the same framing and codec (`network.codec`)
   doing the same unit's statements (the card by fingerprint, then `bench.peer`'s approved
   authorization — account and card locked, transaction, entry, postings, balance, outbox —
   plus the message key row and the balance read of the answer), no framework;
3. the sandbox HTTP path: `POST /sandbox/authorizations` on the same server, as many
   requests in flight.

In that order: the service's peak, then p50/p99 of its ISO path at half that peak (open
loop, each answer from the time its request was due), then the peer, then HTTP; each load on
a freshly vacuumed database. The 16 cards are in one account (every authorization locks its
card's account: one line, the hot-account case) or spread over `--accounts N`.

    python -m bench.iso --seconds 20                         # make bench
    python -m bench.iso --seconds 20 --accounts 16           # make bench, the second run
    python -m bench.iso --peer PORT                          # the peer alone (a subprocess)

The machine is shared: the figures are comparable within one run, not across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import asyncpg
import httpx
import orjson

from bench import peer
from cardservice.auth.credentials import issue_token
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.db.sql import Tx
from cardservice.events import outbox
from cardservice.migrations import upgrade_database
from cardservice.network import messages
from cardservice.network.client import NetworkClient, stans, transmitted_now
from cardservice.network.codec import available_balance, decode, encode
from cardservice.network.listener import framed, read_frame
from cardservice.network.simulator import make_cards
from cardservice.security import CardCipher

ADMIN_DSN = os.environ.get("CARDSERVICE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
CARD_BY_FINGERPRINT = "SELECT uuid, user_uuid FROM cards WHERE pan_fingerprint = $1"
REMEMBER = (
    "INSERT INTO network_messages (acquirer_id, stan, transmitted, mti_class, transaction_uuid,"
    " response_code, answer, created_at) VALUES ($1, $2, $3, '010', $4, '00', $5, $6)"
)
BALANCE = "SELECT balance FROM cards WHERE uuid = $1"
CARDS = 16


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the bare peer -----------------------------------------------------------------------


async def _peer_answer(
    pool: asyncpg.Pool, cipher: CardCipher, tokens: dict[str, str], frame: bytes
) -> bytes:
    message = decode(frame)
    fields = message.fields
    async with pool.acquire() as connection, connection.transaction():
        card = await connection.fetchrow(CARD_BY_FINGERPRINT, cipher.fingerprint(fields[2]))
        body = {"card_uuid": str(card["uuid"]), "amount": Decimal(int(fields[4])) / 100,
                "merchant_name": "Netflix"}  # fmt: skip
        token = tokens[str(card["user_uuid"])]  # the card's holder's, as the HTTP path's
        result = await peer._authorize(peer._PgUnit(connection), "postgresql", token, body)
        assert result is not None
        balance = await connection.fetchval(BALANCE, card["uuid"])
        own = {
            "39": "00",
            "38": result["uuid"].hex[:6].upper(),
            "54": available_balance("840", balance),
        }
        await connection.execute(
            REMEMBER, fields[32].rjust(11, "0"), fields[11], fields[7], result["uuid"],
            orjson.dumps(own).decode(), datetime.now(UTC),
        )  # fmt: skip
    answer = {n: fields[n] for n in (2, 3, 4, 7, 11, 32, 37, 41, 42, 49) if n in fields}
    answer.update({int(k): v for k, v in own.items()})
    return framed(encode("0110", answer))


async def run_peer(port: int, url: str, tokens: dict[str, str]) -> None:
    """Serve the bare peer until killed."""
    pool = await asyncpg.create_pool(url, min_size=2, max_size=10)
    cipher = CardCipher([KEY.encode()])

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tasks: set[asyncio.Task[None]] = set()

        async def one(frame: bytes) -> None:
            writer.write(await _peer_answer(pool, cipher, tokens, frame))

        while (frame := await read_frame(reader)) is not None:
            task = asyncio.create_task(one(frame))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    server = await asyncio.start_server(connection, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


# --- load --------------------------------------------------------------------------------


async def iso_load(
    port: int, cards: list[Any], seconds: float, connections: int, depth: int,
    rate: float | None = None, lags: list[float] | None = None, wait: float = 30,
    codes: Counter[str] | None = None,
) -> list[float]:  # fmt: skip
    """Latencies of approved authorizations sent for `seconds`: closed loop (`depth` in
    flight per connection, each from its send), or open loop at `rate` per second over all
    connections, each from the time it was due (`lags` gets how late each was sent); an
    answer later than `wait` seconds fails the load. `codes` counts every answer's field 39
    (a `91` is an answer the host gave at its deadline: not in the latencies)."""
    numbers, latencies = stans(int(time.time()) % 900_000 + 1), []
    lags = [] if lags is None else lags
    turns = itertools.count()  # each request the next card: requests in flight spread
    clients = [await NetworkClient.connect("127.0.0.1", port) for _ in range(connections)]
    deadline = time.monotonic() + seconds

    async def one(client: NetworkClient, scheduled: float | None = None) -> None:
        card = cards[next(turns) % len(cards)]
        fields = messages.authorization(
            card.pan, card.expiry, 100, next(numbers), transmitted_now()
        )
        # open loop: from the time the request was due, so that a late generator or a
        # queue anywhere before the send counts against the answer, never hides it
        started = time.monotonic() if scheduled is None else scheduled
        answer = await client.request("0100", fields, wait=wait)
        if codes is not None:
            codes[answer.fields.get(39, "")] += 1
        if answer.fields.get(39) == "00":
            latencies.append(time.monotonic() - started)

    async def closed(client: NetworkClient) -> None:
        while time.monotonic() < deadline:
            await one(client)

    if rate is None:
        await asyncio.gather(*(closed(c) for c in clients for _ in range(depth)))
    else:
        pending, interval, at = set(), 1 / rate, time.monotonic()
        while at < deadline:
            lags.append(time.monotonic() - at)  # how late the generator sends
            task = asyncio.create_task(one(clients[len(pending) % connections], at))
            pending.add(task)
            at += interval
            await asyncio.sleep(max(0.0, at - time.monotonic()))
        await asyncio.gather(*pending)
    for client in clients:
        await client.close()
    return latencies


async def http_load(
    base: str, tokens: dict[str, str], cards: list[Any], seconds: float, concurrency: int
) -> int:
    """Sandbox authorizations approved in `seconds`, `concurrency` in flight, each worker on
    one card with its holder's token."""
    done = 0
    deadline = time.monotonic() + seconds
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:

        async def worker(index: int) -> None:
            nonlocal done
            card = cards[index % len(cards)]
            body = {"card_uuid": card.uuid, "amount": 1, "currency": "USD",
                    "merchant_name": "Netflix"}  # fmt: skip
            headers = {"Authorization": f"Bearer {tokens[card.uuid]}"}
            while time.monotonic() < deadline:
                posted = await client.post("/sandbox/authorizations", json=body, headers=headers)
                if posted.status_code == 201:
                    done += 1

        await asyncio.gather(*(worker(i) for i in range(concurrency)))
    return done


# --- the run -----------------------------------------------------------------------------


async def _setup(url: str, accounts: int) -> tuple[dict[str, str], dict[str, str], list[Any]]:
    """16 funded cards over `accounts` accounts (each its own user), taken in turn across
    the accounts; the users' tokens by user and by card."""
    settings = Settings(database_url=url, encryption_key=KEY)
    outbox.register()  # the cards' events are filled as the service fills them
    db, cipher = Database(settings), CardCipher([KEY.encode()])
    by_user: dict[str, str] = {}
    by_card: dict[str, str] = {}
    groups: list[list[Any]] = []
    try:
        for _ in range(accounts):
            account, cards = await make_cards(db, cipher, CARDS // accounts)

            async def token_of(tx: Tx, account: uuid.UUID = account) -> tuple[str, str]:
                user = await tx.value("SELECT user_uuid FROM accounts WHERE uuid = $1", account)
                _row, token = await issue_token(tx, uuid.UUID(str(user)), "bench", None)
                return str(user), token

            user, token = await db.transact(token_of)
            by_user[user] = token
            by_card.update((card.uuid, token) for card in cards)
            groups.append(cards)
        return by_user, by_card, [card for turn in zip(*groups, strict=True) for card in turn]
    finally:
        await db.dispose()


async def _vacuum(url: str) -> None:
    """Each load starts on a vacuumed database: the dead rows of the load before (events,
    tags, the hot rows' old versions) would slow the next."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("VACUUM ANALYZE")
    finally:
        await connection.close()


def _spawn(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


async def _wait_port(port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            _reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def _percentiles(latencies: list[float]) -> dict[str, float]:
    if len(latencies) < 2:
        return {"p50_ms": float("nan"), "p99_ms": float("nan")}
    cuts = statistics.quantiles(latencies, n=100)
    return {"p50_ms": round(cuts[49] * 1000, 2), "p99_ms": round(cuts[98] * 1000, 2)}


async def main(seconds: float, connections: int, depth: int, accounts: int) -> dict[str, Any]:
    name = f"cs_bench_iso_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = ADMIN_DSN.rsplit("/", 1)[0] + "/" + name
    http_port, iso_port, peer_port = _free_port(), _free_port(), _free_port()
    processes: list[subprocess.Popen[bytes]] = []
    try:
        await upgrade_database(Settings(database_url=url).resolved_database_url)
        by_user, by_card, cards = await _setup(url, accounts)
        with tempfile.TemporaryDirectory(prefix="cs-bench-iso-") as var:
            env = {**os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
                   "CARDSERVICE_SANDBOX": "1", "CARDSERVICE_VAR_DIR": var,
                   "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "10000000", "CARDSERVICE_LOG_LEVEL": "WARNING"}  # fmt: skip
            processes.append(_spawn([sys.executable, "-m", "cardservice", "serve", "--port",
                                     str(http_port), "--iso8583-port", str(iso_port)], env))  # fmt: skip
            processes.append(_spawn([sys.executable, "-m", "bench.iso", "--peer", str(peer_port),
                                     "--url", url, "--tokens", orjson.dumps(by_user).decode()], env))  # fmt: skip
            await _wait_port(iso_port)
            await _wait_port(peer_port)
            # the half-peak run follows its own peak, on the database that peak left (after
            # the peer's and the HTTP loads it would meet 1.5 times the rows, and be slower)
            await _vacuum(url)
            peak_codes, half_codes = Counter[str](), Counter[str]()
            service = await iso_load(iso_port, cards, seconds, connections, depth, codes=peak_codes)
            peak, lags = len(service) / seconds, []
            await _vacuum(url)
            half = await iso_load(
                iso_port, cards, seconds / 2, connections, depth, rate=peak / 2, lags=lags,
                codes=half_codes,
            )  # fmt: skip
            await _vacuum(url)
            bare = await iso_load(peer_port, cards, seconds, connections, depth)
            await _vacuum(url)
            sandbox = await http_load(
                f"http://127.0.0.1:{http_port}", by_card, cards, seconds, connections * depth
            )
    finally:
        for process in processes:
            process.kill()
            process.wait()
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    return {
        "seconds": seconds, "connections": connections, "in_flight_per_connection": depth,
        "accounts": accounts, "cards": len(cards),
        "iso_per_s": round(len(service) / seconds, 1),
        "iso_answers": dict(sorted(peak_codes.items())),
        "bare_peer_per_s": round(len(bare) / seconds, 1),
        "sandbox_http_per_s": round(sandbox / seconds, 1),
        "iso_vs_peer": round(len(service) / max(1, len(bare)), 3),
        "iso_vs_http": round(len(service) / max(1, sandbox), 3),
        "at_half_peak": {
            "rate_per_s": round(peak / 2, 1), "approved": len(half), **_percentiles(half),
            "answers": dict(sorted(half_codes.items())),
            "sent_late_max_ms": round(max(lags, default=0) * 1000, 2),
        },
    }  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--connections", type=int, default=4)
    parser.add_argument("--depth", type=int, default=8)
    parser.add_argument("--peer", type=int, help="serve the bare peer on this port (internal)")
    parser.add_argument("--url")
    parser.add_argument("--accounts", type=int, default=1, choices=(1, 2, 4, 8, 16),
                        help="the 16 cards spread over this many accounts (each locked per"
                             " authorization: 1 puts every unit in one line)")  # fmt: skip
    parser.add_argument("--tokens", help="the users' tokens, JSON by user uuid (internal)")
    arguments = parser.parse_args()
    if arguments.peer:
        asyncio.run(run_peer(arguments.peer, arguments.url, orjson.loads(arguments.tokens)))
    else:
        run = main(arguments.seconds, arguments.connections, arguments.depth, arguments.accounts)
        print(orjson.dumps(asyncio.run(run), option=orjson.OPT_INDENT_2).decode())

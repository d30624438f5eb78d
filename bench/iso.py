"""ISO 8583 authorizations per second, in one run, three ways on one PostgreSQL database:

1. the service: `cardservice serve --iso8583-port` (one worker), several connections, each
   with requests pipelined;
2. the bare peer: an asyncio TCP server with the same framing and codec (`network.codec`)
   sending the service's own statement texts in a lone unit's three round trips (`BEGIN`; the
   card of the number with its account locked, then the card locked with its fees and tag,
   and the key's row read; then one simple query: the transaction, its event with its data,
   the entry, postings and card balance in one prepared statement run by `EXECUTE`, the key's
   row, and `COMMIT`), its values worked out in the fewest lines: no framework, rules,
   deadline, metrics or logs;
3. the sandbox HTTP path: `POST /sandbox/authorizations` on the same server, as many
   requests in flight.

In that order: `pgbench` TPC-B on its own database (the write baseline of `bench.run`); a
short unmeasured load on the service and on the peer (warm buffers and prepared statements);
then `--rounds` rounds of the service's peak and the peer's, in turn and each round in the
other order, with p50/p99 of the service's ISO path at half its first peak right after it
(open loop, each answer from the time its request was due); then a burst of 60 authorizations sent at
once over 6 connections on the cards of one account (`one_account_burst`: the answers — a `91`
is one the answer deadline fired — and the one-account rate: 60 ÷ the seconds the last answer took); then HTTP; each load
on a freshly vacuumed database. During each of the service's peak loads its `/metrics` is
scraped every `SEAL_LAG_EVERY` s for the ledger's seal lag (`seal_lag_at_peak_s`: the
oldest committed entry still waiting for the sealer, docs/ledger.md "The seal lag"; its
median and maximum over the samples). The rates and `iso_vs_peer` are medians over the rounds (each round's
figures are printed too): on this shared 2-core machine one pair of loads moved the ratio
between 0.55 and 0.88 from run to run. The 16 cards are in one account (every authorization
locks its card's account: one line, the hot-account case) or spread over `--accounts N`.

    python -m bench.iso --seconds 20                         # make bench
    python -m bench.iso --seconds 20 --accounts 16           # make bench, the second run
    python -m bench.iso --peer PORT                          # the peer alone (a subprocess)

The machine is shared: the figures are comparable within one run, not across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import httpx
import orjson
import uvloop

from bench.run import cpu_ms_each, cpu_seconds, pgbench_tps
from cardservice import runtime
from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.acquirer.simulator import make_cards
from cardservice.auth.credentials import issue_token
from cardservice.config import Settings
from cardservice.db.sql import Reader, Tx, _nothing_to_reset, pg_literal
from cardservice.ledger import entries
from cardservice.ledger.sealer import seal_lag
from cardservice.migrations import upgrade_database
from cardservice.network import repository as network_repository
from cardservice.network.codec import available_balance, decode, encode, merchant_place
from cardservice.network.listener import framed, read_frame
from cardservice.security import CardCipher
from cardservice.transactions import card_testing
from cardservice.transactions.repository import transaction_row, transactions_insert
from tests.fresh_database import create_database, drop_database
from tests.live_server import wait_ready

ADMIN_DSN = os.environ.get("CARDSERVICE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
# The service's own statement texts (the peer runs them as the ISO host does)
LOCKED_CARD_AND_KEY = network_repository._locked_cards_and_keys_sql(1)  # a batch of one
REMEMBER_AT_COMMIT = network_repository._REMEMBER_AT_COMMIT
write_entry_pg = entries._write_entry_pg
DEFAULT_FEE = (
    "SELECT value FROM fee_rates WHERE plan = 'default' AND slug = 'card_transaction'"
    " AND kind = 'fixed'"
)
TAGS = "SELECT slug, name, hold_days FROM transaction_tags"
CARDS = 16
# each card's cents: a fast machine approves ~80,000 of 1.00 (and its fee) in a `--scaling`
# run of 15 s loads, which emptied the simulator's 5,000.00 cards in its third round
START = 100_000_000


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# --- the bare peer -----------------------------------------------------------------------


class _Peer:
    """The bare peer's unit: the service's own statement texts, in the service's order and
    round trips (`bench.statements` counts both: 3 an approval — `BEGIN`, the first
    statement, the write by `EXECUTE` with the key's row and `COMMIT`), with its values worked
    out in the fewest lines of Python — no listener tasks, deadline, rules, metrics or
    logging. Its write and its key's row are prepared on each connection when the pool opens
    it (`_prepare`)."""

    def __init__(self, pool: asyncpg.Pool, cipher: CardCipher, fee: int, tags: dict[str, Any]):
        self.pool, self.cipher, self.fee, self.tags = pool, cipher, fee, tags

    async def answer(self, frame: bytes) -> bytes:
        fields = decode(frame).fields
        now = datetime.now(UTC)
        acquirer = fields[32].rjust(11, "0")
        key = (acquirer, fields[11], fields[7], "010")
        place = merchant_place(fields)
        assert place is not None
        tag, hold_days = self.tags.get(place.name.replace(" ", "").lower(), (None, None))
        async with self.pool.acquire() as connection:
            await connection.execute("BEGIN")
            try:
                opened = await connection.fetchrow(
                    LOCKED_CARD_AND_KEY, self.cipher.fingerprint(fields[2]), *key, acquirer,
                    fields[42].strip(), card_testing.bin_of(fields[2]), tag,
                )  # fmt: skip
                card, user, currency = opened["card_uuid"], opened["user_uuid"], opened["currency"]
                balance = opened["locked_balance"]
                amount, fee, txn = int(fields[4]), self.fee, uuid.uuid4()
                code = txn.hex[:6].upper()
                network = {"stan": fields[11], "rrn": fields[37].strip(), "acquirer_id": fields[32],
                           "terminal_id": fields[41].strip(), "merchant_id": fields[42].strip(),
                           "auth_code": code}  # fmt: skip
                row = transaction_row(
                    uuid=txn, user_uuid=user, account_uuid=opened["account_uuid"], card_uuid=card,
                    type="card_purchase", status="pending", direction="debit", amount=amount,
                    authorized_amount=amount, currency=currency, fee=fee,
                    hold_expires_at=now + timedelta(days=hold_days or 7), tag_slug=tag,
                    merchant_name=place.name, merchant_mcc=fields[18], merchant_city=place.city,
                    merchant_country=place.country, created_at=now, updated_at=now,
                    channel="iso8583", network=orjson.dumps(network).decode(), auth_code=code,
                )  # fmt: skip
                insert = transactions_insert([row])
                legs = [(card, None, currency, -(amount + fee)),
                        (None, "holds", currency, amount),
                        (None, "fees", currency, fee)]  # fmt: skip
                kind = "card_purchase_pending"
                args = [kind, txn, now, [None] * 3, [leg[0] for leg in legs],
                        [leg[1] for leg in legs], [leg[2] for leg in legs],
                        [leg[3] for leg in legs], card, -(amount + fee)]  # fmt: skip
                event = insert.then  # the transaction's event, written with its data
                assert event is not None
                written = map(pg_literal, (*args, *insert.args(), *event.args()))
                own = {"39": "00", "38": code,
                       "54": available_balance("840", balance - amount - fee)}  # fmt: skip
                remembered = (*key, txn, "00", orjson.dumps(own).decode(), now)
                # the key's row as the service sends it: one array a column (`Tx.with_commit`)
                keys = ", ".join(pg_literal([value]) for value in remembered)
                await connection.execute(
                    f"EXECUTE {PEER_WRITE}({', '.join(written)});"
                    f"EXECUTE {PEER_REMEMBER}({keys});COMMIT"
                )
            except BaseException:
                await connection.execute("ROLLBACK")
                raise
        answer = {n: fields[n] for n in (2, 3, 4, 7, 11, 32, 37, 41, 42, 49) if n in fields}
        answer.update({int(k): v for k, v in own.items()})
        return framed(encode("0110", answer))


def _peer_write() -> str:
    """The approval's write as the service sends it with its COMMIT (`ledger.entries`,
    `unread`): one transaction row and its event, the entry, one card's balance."""
    args = 10  # kind, reference, now, the postings' five columns, the card and its delta
    now = datetime.now(UTC)
    row = transaction_row(
        user_uuid=uuid.uuid4(), account_uuid=uuid.uuid4(), card_uuid=uuid.uuid4(),
        type="card_purchase", status="pending", direction="debit", amount=0, currency="USD",
        created_at=now, updated_at=now,
    )  # fmt: skip
    insert = transactions_insert([row])
    assert insert.then is not None
    start = args + len(insert.columns) + 1
    return write_entry_pg(
        insert.sql(start=args + 1), 1, False, True, insert.then.sql(start=start), True
    )


PEER_WRITE, PEER_REMEMBER = "peer_write", "peer_remember"


async def _prepare(connection: asyncpg.Connection) -> None:
    await connection.execute(f"PREPARE {PEER_WRITE} AS {_peer_write()}")
    await connection.execute(f"PREPARE {PEER_REMEMBER} AS {REMEMBER_AT_COMMIT}")


async def run_peer(port: int, url: str) -> None:
    """Serve the bare peer until killed: the service's pool settings; the default plan's
    `card_transaction` fee and the tags read once, as the service caches them."""
    pool = await asyncpg.create_pool(
        url, min_size=2, max_size=10, reset=_nothing_to_reset, init=_prepare
    )
    fee = await pool.fetchval(DEFAULT_FEE)
    tags = {row["name"].replace(" ", "").lower(): (row["slug"], row["hold_days"])
            for row in await pool.fetch(TAGS)}  # fmt: skip
    peer = _Peer(pool, CardCipher([KEY.encode()]), int(fee or 0), tags)

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tasks: set[asyncio.Task[None]] = set()

        async def one(frame: bytes) -> None:
            writer.write(await peer.answer(frame))

        while (frame := await read_frame(reader)) is not None:
            task = asyncio.create_task(one(frame))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    server = await asyncio.start_server(connection, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


# --- load --------------------------------------------------------------------------------


# One run of STANs for every load of the process: the loads share one database, and a load
# that began its own run at the clock's second met keys (32, 11, 7) a load just before it had
# written in the same second — the peer, which does not answer a repeat, then left the
# request unanswered and the load failed at its 30 s wait (warm-ups and `--seconds 3`).
_NUMBERS = stans(int(time.time()) % 900_000 + 1)


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
    numbers, latencies = _NUMBERS, []
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


BURST, BURST_CONNECTIONS = 60, 6  # the burst on one account (tests/network/test_burst.py)


async def one_account_burst(port: int, cards: list[Any]) -> dict[str, Any]:
    """`BURST` authorizations sent at once over `BURST_CONNECTIONS` connections on the cards
    of one account: every answer's field 39, and how long the last took (the one-account
    rate: one account's units queue on its row lock, whatever the workers)."""
    numbers, codes = _NUMBERS, Counter[str]()
    clients = [await NetworkClient.connect("127.0.0.1", port) for _ in range(BURST_CONNECTIONS)]
    requests = []
    for index in range(BURST):
        card = cards[index % len(cards)]
        fields = messages.authorization(card.pan, card.expiry, 1, next(numbers), transmitted_now())
        requests.append(clients[index % BURST_CONNECTIONS].request("0100", fields, wait=30))
    started = time.monotonic()
    for answer in await asyncio.gather(*requests):
        codes[answer.fields.get(39, "")] += 1
    took = time.monotonic() - started
    for client in clients:
        await client.close()
    return {"requests": BURST, "connections": BURST_CONNECTIONS, "cards": len(cards),
            "answers": dict(sorted(codes.items())), "seconds": round(took, 3),
            "per_s": round(BURST / took, 1)}  # fmt: skip


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


async def _setup(url: str, accounts: int) -> tuple[dict[str, str], list[Any]]:
    """16 funded cards over `accounts` accounts (each its own user), taken in turn across
    the accounts; the users' tokens by card."""
    settings = Settings(database_url=url, encryption_key=KEY)
    db, cipher = runtime.database(settings), CardCipher([KEY.encode()])
    by_card: dict[str, str] = {}
    groups: list[list[Any]] = []
    try:
        for _ in range(accounts):
            account, cards = await make_cards(db, cipher, CARDS // accounts, START)

            async def token_of(tx: Tx, account: uuid.UUID = account) -> str:
                user = await tx.value("SELECT user_uuid FROM accounts WHERE uuid = $1", account)
                _row, token = await issue_token(tx, uuid.UUID(str(user)), "bench", None)
                return token

            token = await db.transact(token_of)
            by_card.update((card.uuid, token) for card in cards)
            groups.append(cards)
        return by_card, [card for turn in zip(*groups, strict=True) for card in turn]
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
    """A server of the bench; its warnings and errors on the bench's stderr (an answer that
    never comes shows its cause there, not only as the load's timeout). In a session of its
    own: `_stop` ends it with its worker processes."""
    return subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """A server and every process of its session (`serve --workers 2`'s network processes
    outlived a kill of the server alone, holding connections to the dropped database)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


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


WARM_UP_SECONDS = 3.0
SEAL_LAG_EVERY = 0.25  # seconds between two scrapes of the seal lag during a peak


async def seal_lags(reader: Reader, into: list[float]) -> None:
    """The ledger's seal lag every `SEAL_LAG_EVERY` s into `into`, until cancelled: what the
    server's `/metrics` answers (`cardservice_ledger_seal_lag_seconds`, the same function),
    read here so that the scrapes cost the measured server nothing."""
    while True:
        started = time.monotonic()
        into.append(await seal_lag(reader))
        await asyncio.sleep(max(0.0, SEAL_LAG_EVERY - (time.monotonic() - started)))


def _lag_figures(lags: list[float]) -> dict[str, Any]:
    return {
        "samples": len(lags), "every_s": SEAL_LAG_EVERY,
        "median": round(statistics.median(lags), 3) if lags else None,
        "max": round(max(lags), 3) if lags else None,
        "over_2_s": sum(1 for lag in lags if lag > 2),
        "each": [round(lag, 2) for lag in lags],  # in order, round after round
    }  # fmt: skip


class _Loads:
    """The service's and the peer's closed-loop loads, round after round: approvals,
    seconds and CPU (server or peer, PostgreSQL) of each."""

    def __init__(self) -> None:
        self.rates: dict[str, list[float]] = {"service": [], "peer": []}
        self.approvals = {"service": 0, "peer": 0}
        self.cpu = {"service": [0.0, 0.0], "peer": [0.0, 0.0]}

    def add(self, who: str, approved: int, seconds: float, before: Any, after: Any) -> None:
        self.rates[who].append(approved / seconds)
        self.approvals[who] += approved
        for at, (start, end) in enumerate(zip(before, after, strict=True)):
            self.cpu[who][at] += end - start

    def ratios(self) -> list[float]:
        """Each round's service ÷ peer."""
        return [
            s / max(p, 1e-9) for s, p in zip(self.rates["service"], self.rates["peer"], strict=True)
        ]

    def cpu_ms(self, who: str) -> dict[str, float]:
        """CPU ms an approval over every round (`cpu_ms_each` of the rounds' sums)."""
        spent = (self.cpu[who][0], self.cpu[who][1])
        own, database = cpu_ms_each((0.0, 0.0), spent, self.approvals[who])
        return {"python": own, "postgresql": database}


async def main(
    seconds: float, connections: int, depth: int, accounts: int, rounds: int, workers: int = 1
) -> dict[str, Any]:
    # the database's own write rate, first, on its own database
    tpcb = await asyncio.to_thread(pgbench_tps, int(seconds))
    url = await create_database(ADMIN_DSN, "cs_bench_iso")
    http_port, iso_port, peer_port = _free_port(), _free_port(), _free_port()
    processes: list[subprocess.Popen[bytes]] = []
    loads = _Loads()
    try:
        await upgrade_database(Settings(database_url=url).resolved_database_url)
        by_card, cards = await _setup(url, accounts)
        with tempfile.TemporaryDirectory(prefix="cs-bench-iso-") as var:
            env = {**os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
                   "CARDSERVICE_SANDBOX": "1", "CARDSERVICE_VAR_DIR": var,
                   "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "10000000", "CARDSERVICE_LOG_LEVEL": "WARNING"}  # fmt: skip
            processes.append(_spawn([sys.executable, "-m", "cardservice", "serve", "--port",
                                     str(http_port), "--iso8583-port", str(iso_port),
                                     "--workers", str(workers)], env))  # fmt: skip
            processes.append(_spawn([sys.executable, "-m", "bench.iso", "--peer", str(peer_port),
                                     "--url", url], env))  # fmt: skip
            await _wait_port(iso_port)
            await _wait_port(peer_port)
            # the whole server up before any load: its HTTP worker, which runs the background
            # loop (the sealer), starts seconds after the ISO listener on a loaded machine,
            # and a load before would meet its start-up and the set-up's entries unsealed
            await asyncio.to_thread(wait_ready, f"http://127.0.0.1:{http_port}", processes[0])
            ports = {"service": (iso_port, processes[0].pid), "peer": (peer_port, processes[1].pid)}
            peak_codes, half_codes = Counter[str](), Counter[str]()
            half: list[float] = []
            peak_lags: list[float] = []
            lags: list[float] = []
            # each warmed up first, unmeasured (the first load on a new database met cold
            # buffers and statements not yet prepared: the service, always first, lost a
            # quarter of its rate to it); then service and peer in turn, each round in the
            # other order (ABBA: a drift of the machine or of the database's size weighs on
            # both alike), each load on a freshly vacuumed database
            for port, _pid in ports.values():
                await iso_load(port, cards, WARM_UP_SECONDS, connections, depth)
            lag_db = runtime.database(Settings(database_url=url))
            for turn in range(rounds):
                for who in ("service", "peer") if turn % 2 == 0 else ("peer", "service"):
                    port, pid = ports[who]
                    await _vacuum(url)
                    before = cpu_seconds(pid, url.rsplit("/", 1)[1])
                    codes = peak_codes if who == "service" else None
                    sampler = None
                    if who == "service":  # the seal lag at the peak, from its /metrics
                        sampler = asyncio.create_task(seal_lags(lag_db.reader, peak_lags))
                    done = await iso_load(port, cards, seconds, connections, depth, codes=codes)
                    if sampler is not None:
                        sampler.cancel()
                        await asyncio.gather(sampler, return_exceptions=True)
                    loads.add(
                        who, len(done), seconds, before, cpu_seconds(pid, url.rsplit("/", 1)[1])
                    )
                    if who == "service" and turn == 0:
                        # at half the first peak, on the database that peak left (after
                        # the other loads it would meet more rows, and be slower)
                        await _vacuum(url)
                        half = await iso_load(
                            iso_port, cards, seconds / 2, connections, depth,
                            rate=loads.rates["service"][0] / 2, lags=lags, codes=half_codes,
                        )  # fmt: skip
            await lag_db.dispose()
            await _vacuum(url)
            burst = await one_account_burst(iso_port, cards[::accounts])  # the first account's
            await _vacuum(url)
            sandbox = await http_load(
                f"http://127.0.0.1:{http_port}", by_card, cards, seconds, connections * depth
            )
    finally:
        for process in processes:
            _stop(process)
        await drop_database(ADMIN_DSN, url)
    service, peer = (statistics.median(loads.rates[who]) for who in ("service", "peer"))
    return {
        "seconds": seconds, "rounds": rounds, "workers": workers, "connections": connections,
        "in_flight_per_connection": depth, "accounts": accounts, "cards": len(cards),
        # medians over the rounds; each round's figures below them
        "iso_per_s": round(service, 1),
        "bare_peer_per_s": round(peer, 1),
        "iso_vs_peer": round(statistics.median(loads.ratios()), 3),
        "rounds_iso_per_s": [round(rate, 1) for rate in loads.rates["service"]],
        "rounds_peer_per_s": [round(rate, 1) for rate in loads.rates["peer"]],
        "rounds_iso_vs_peer": [round(ratio, 3) for ratio in loads.ratios()],
        "iso_answers": dict(sorted(peak_codes.items())),
        "seal_lag_at_peak_s": _lag_figures(peak_lags),
        "sandbox_http_per_s": round(sandbox / seconds, 1),
        "iso_vs_http": round(service * seconds / max(1, sandbox), 3),
        # CPU milliseconds an approval cost at peak, over every round: the server's
        # processes (HTTP workers idle, the network process answering) or the peer's, and
        # PostgreSQL's client backends
        "cpu_ms_per_iso_authorization": loads.cpu_ms("service"),
        "cpu_ms_per_peer_authorization": loads.cpu_ms("peer"),
        "pgbench_tps": round(tpcb, 1),
        "iso_vs_pgbench": round(service / tpcb, 3),
        "http_vs_pgbench": round(sandbox / seconds / tpcb, 3),
        "one_account_burst": burst,
        "at_half_peak": {
            "rate_per_s": round(loads.rates["service"][0] / 2, 1), "approved": len(half),
            **_percentiles(half), "answers": dict(sorted(half_codes.items())),
            "sent_late_max_ms": round(max(lags, default=0) * 1000, 2),
        },
    }  # fmt: skip


# --- scaling: one request in flight a connection, 1 and 8 connections, fsyncs -----------

# What the cluster's WAL flushed and the unit's statements cost, read around a load (on a
# private cluster: `pg_stat_wal` and `pg_stat_statements` count every database's).
_WAL = "SELECT wal_sync, wal_write, wal_records FROM pg_stat_wal"
# How long after a load `pg_stat_wal` is read. A backend hands its counters to the shared
# statistics only outside a transaction, at most once a second, and what it holds back then
# waits until it has been idle 10 s (PostgreSQL 15's pgstat.c: PGSTAT_MIN_INTERVAL,
# PGSTAT_IDLE_INTERVAL). A lane's connection, one chained transaction after another through
# a load, reports only once the load ends: read at once, the 8 connections' loads showed
# 0.026–0.029 flushes an approval, 3 s later 0.198–0.199 (2026-11-28, this bench's order of
# loads); one connection's 0.958 at once and 1.089 after 12 s.
STATS_SETTLE_SECONDS = 10.5
_STATEMENTS = """
SELECT calls, round(total_exec_time::numeric * 1000 / greatest(calls, 1)) AS us_each,
       rows, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS query
FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)
ORDER BY total_exec_time DESC LIMIT $2"""


async def _cluster(url: str, query: str, *args: Any) -> list[Any]:
    connection = await asyncpg.connect(url)
    try:
        return list(await connection.fetch(query, *args))
    except (asyncpg.UndefinedTableError, asyncpg.UndefinedFunctionError):  # no pg_stat_statements
        return []
    finally:
        await connection.close()


_WAITING = """
SELECT state || coalesce(' ' || wait_event_type || ':' || wait_event, '') AS what,
       count(*) AS n
FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() GROUP BY 1"""


async def _sample_waits(url: str, every: float, into: Counter[str]) -> None:
    """Until cancelled: what the database's backends are doing (`pg_stat_activity`: their
    state and wait event — `idle in transaction` waits for the service, `active IO:WALSync`
    for the flush, `active Lock:…` for another unit), counted every `every` seconds."""
    connection = await asyncpg.connect(url)
    name = url.rsplit("/", 1)[1]
    try:
        while True:
            for row in await connection.fetch(_WAITING, name):
                into[row["what"]] += row["n"]
            await asyncio.sleep(every)
    finally:
        await connection.close()


async def _scaling_server(
    revision: str,
    var: str,
    processes: list[subprocess.Popen[bytes]],
    workers: int,
    checkout: str | None = None,
) -> tuple[str, int, list[Any]]:
    """A database migrated up to `revision` with the 16 cards over 16 accounts, and a
    server on it (`checkout`: run from that checkout's `src`): its url, ISO port and cards."""
    url = await create_database(ADMIN_DSN, "cs_bench_iso")
    await upgrade_database(Settings(database_url=url).resolved_database_url, revision)
    _tokens, cards = await _setup(url, 16)
    port, http_port = _free_port(), _free_port()
    env = {**os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
           "CARDSERVICE_SANDBOX": "1", "CARDSERVICE_VAR_DIR": var,
           "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "10000000", "CARDSERVICE_LOG_LEVEL": "WARNING"}  # fmt: skip
    if checkout is not None:
        env["PYTHONPATH"] = f"{checkout}/src"
    processes.append(_spawn([sys.executable, "-m", "cardservice", "serve", "--port",
                             str(http_port), "--iso8583-port", str(port),
                             "--workers", str(workers)], env))  # fmt: skip
    await _wait_port(port, seconds=180)  # a loaded machine starts it slowly
    # the whole server up before any load, as in `run` above: its HTTP worker runs the sealer
    await asyncio.to_thread(wait_ready, f"http://127.0.0.1:{http_port}", processes[-1])
    return url, port, cards


def _own_cpu() -> float:
    """CPU seconds so far of this process: the load's client (its codec and loop share the
    machine's cores with the server and PostgreSQL, as pgbench's client does with TPC-B's)."""
    times = os.times()
    return times.user + times.system


def _shares(counted: Counter[str]) -> dict[str, float]:
    total = max(1, sum(counted.values()))
    return {what: round(n / total, 3) for what, n in counted.most_common() if n / total >= 0.01}


async def scaling(
    seconds: float,
    rounds: int,
    statements: int,
    before: str | None,
    workers: int = 1,
    against: str | None = None,
) -> dict[str, Any]:
    """`python -m bench.iso --scaling [--before REVISION]`: the 16 cards over 16 accounts,
    one request in flight a connection; pgbench TPC-B (8 clients) first, then the service at
    1 and 8 connections in turn (each round in the other order), each load on a freshly
    vacuumed database: the rates, the ratio to TPC-B, the scaling 1 → 8 and WAL flushes
    (`pg_stat_wal.wal_sync`, the whole cluster's, read `STATS_SETTLE_SECONDS` after the load,
    the sealer's flushes for its entries included) an approval; with `pg_stat_statements`, the
    heaviest statements of the last 8-connection load; the CPU ms an approval of the server's
    processes, of PostgreSQL's client backends (`bench.run.cpu_seconds`: on a loaded
    machine it moves less than the rates) and of this process, the load's client. With `--before`, the same on a second database
    migrated only up to that revision (its own server), the loads of both interleaved: a
    migration's before and after in one window; with `--against CHECKOUT`, a second server
    run from another checkout's `src` (the same schema: a change of code, e.g. a constant,
    against this one)."""
    tpcb = await asyncio.to_thread(pgbench_tps, int(seconds), 8)
    schemas = ["head"]
    if before is not None or against is not None:
        schemas.append(before or "against")
    cpu: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    rates: dict[tuple[str, int], list[float]] = {(s, n): [] for s in schemas for n in (1, 8)}
    syncs: dict[tuple[str, int], list[float]] = {key: [] for key in rates}
    waits: dict[tuple[str, int], Counter[str]] = {key: Counter() for key in rates}
    answered: dict[tuple[str, int], Counter[str]] = {key: Counter() for key in rates}
    heaviest: dict[str, list[Any]] = {}
    processes: list[subprocess.Popen[bytes]] = []
    servers: dict[str, tuple[str, int, list[Any]]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="cs-bench-iso-") as var:
            for schema in schemas:
                checkout = against if schema == "against" else None
                servers[schema] = await _scaling_server(
                    "head" if checkout else schema, f"{var}/{len(servers)}", processes, workers,
                    checkout,
                )  # fmt: skip
                url, port, cards = servers[schema]
                await iso_load(port, cards, WARM_UP_SECONDS, 8, 1)
            await asyncio.sleep(STATS_SETTLE_SECONDS)  # the warm-up's counters out of the way
            for turn in range(rounds):
                order = list(rates) if turn % 2 == 0 else list(reversed(rates))
                for schema, connections in order:
                    url, port, cards = servers[schema]
                    await _vacuum(url)
                    await _cluster(url, "SELECT pg_stat_statements_reset()")
                    (wal_before,) = await _cluster(url, _WAL)
                    sampled = Counter[str]()
                    sampler = asyncio.create_task(_sample_waits(url, 0.02, sampled))
                    root = processes[schemas.index(schema)].pid
                    name = url.rsplit("/", 1)[1]
                    cpu_before, client_before = cpu_seconds(root, name), _own_cpu()
                    done = await iso_load(
                        port, cards, seconds, connections, 1, codes=answered[schema, connections]
                    )
                    server, database = cpu_ms_each(cpu_before, cpu_seconds(root, name), len(done))
                    client = 1000 * (_own_cpu() - client_before) / max(1, len(done))
                    cpu.setdefault((schema, connections), []).append((server, database, client))
                    sampler.cancel()
                    await asyncio.gather(sampler, return_exceptions=True)
                    await asyncio.sleep(STATS_SETTLE_SECONDS)  # every backend's counters in
                    (wal_after,) = await _cluster(url, _WAL)
                    for what, n in sampled.items():
                        waits[schema, connections][what] += n
                    rates[schema, connections].append(len(done) / seconds)
                    syncs[schema, connections].append(
                        (wal_after[0] - wal_before[0]) / max(1, len(done))
                    )
                    if connections == 8:  # the last 8 connections' load stays
                        heaviest[schema] = await _cluster(url, _STATEMENTS, name, statements)
    finally:
        for process in processes:
            _stop(process)
        for url, _port, _cards in servers.values():
            await drop_database(ADMIN_DSN, url)
    found: dict[str, Any] = {
        "seconds": seconds, "rounds": rounds, "workers": workers, "accounts": 16, "cards": CARDS,
        "load_average": os.getloadavg(), "pgbench_tps_8_clients": round(tpcb, 1),
    }  # fmt: skip
    for schema in schemas:
        one, eight = (statistics.median(rates[schema, n]) for n in (1, 8))
        found[schema] = {
            "iso_per_s_1_connection": round(one, 1), "iso_per_s_8_connections": round(eight, 1),
            "rounds_iso_per_s_1": [round(r, 1) for r in rates[schema, 1]],
            "rounds_iso_per_s_8": [round(r, 1) for r in rates[schema, 8]],
            "iso_vs_pgbench": round(eight / tpcb, 3), "scaling_1_to_8": round(eight / one, 2),
            "wal_syncs_per_authorization_1": round(statistics.median(syncs[schema, 1]), 3),
            "wal_syncs_per_authorization_8": round(statistics.median(syncs[schema, 8]), 3),
            **{f"cpu_ms_per_approval_{n}": {
                "server": round(statistics.median(c[0] for c in cpu[schema, n]), 3),
                "database": round(statistics.median(c[1] for c in cpu[schema, n]), 3),
                "client": round(statistics.median(c[2] for c in cpu[schema, n]), 3),
            } for n in (1, 8)},
            # the cores those three kept busy (rate × CPU an approval, each round's): with one
            # lane a process, its unit's steps one after the other, they stay near one of the
            # machine's cores whatever the connections (docs/performance.md#what-bounds-8--1-on-two-cores)
            **{f"cores_busy_{n}": round(statistics.median(
                rate * sum(spent) / 1000
                for rate, spent in zip(rates[schema, n], cpu[schema, n], strict=True)
            ), 2) for n in (1, 8)},
            # every answer's field 39 (the rates count the approvals, `00`)
            "answers_1": dict(sorted(answered[schema, 1].items())),
            "answers_8": dict(sorted(answered[schema, 8].items())),
            # what the backends did, sampled every 20 ms (share of the samples, ≥ 1 %)
            "backends_at_8_connections": _shares(waits[schema, 8]),
            "backends_at_1_connection": _shares(waits[schema, 1]),
            "statements_at_8_connections": [
                {"calls": row["calls"], "us_each": int(row["us_each"]), "rows": row["rows"],
                 "query": row["query"]} for row in heaviest.get(schema, [])
            ],
        }  # fmt: skip
    return found


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
    parser.add_argument("--rounds", type=int, default=3,
                        help="service and peer loads in turn, this many each (medians)")  # fmt: skip
    parser.add_argument("--scaling", action="store_true",
                        help="16 accounts, 1 and 8 connections with one request in flight"
                             " each, against TPC-B with 8 clients; WAL flushes an approval")  # fmt: skip
    parser.add_argument("--before", metavar="REVISION",
                        help="with --scaling: also a database migrated only up to REVISION,"
                             " loads interleaved (a migration's before and after)")  # fmt: skip
    parser.add_argument("--against", metavar="CHECKOUT",
                        help="with --scaling: also a server run from CHECKOUT's src, loads"
                             " interleaved (a change of code against this one)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1,
                        help="the server's processes (`serve --workers`): each a network"
                             " process with its own lanes")  # fmt: skip
    parser.add_argument("--statements", type=int, default=25,
                        help="with --scaling: the heaviest statements listed")  # fmt: skip
    arguments = parser.parse_args()
    if arguments.scaling:
        run = scaling(
            arguments.seconds, arguments.rounds, arguments.statements, arguments.before,
            arguments.workers, arguments.against,
        )  # fmt: skip
        print(orjson.dumps(uvloop.run(run), option=orjson.OPT_INDENT_2).decode())
    elif arguments.peer:
        uvloop.run(run_peer(arguments.peer, arguments.url))  # the network process's loop
    else:
        run = main(
            arguments.seconds,
            arguments.connections,
            arguments.depth,
            arguments.accounts,
            arguments.rounds,
            arguments.workers,
        )
        print(orjson.dumps(uvloop.run(run), option=orjson.OPT_INDENT_2).decode())

"""Bank run with crashes: 32 clients hammer a real server on PostgreSQL while it is killed
with SIGKILL at random moments and restarted; then the books are checked to the cent.

    python -m tests.stress.bank_run --seconds 120      # make stress
    (a 20-second run is part of make test: tests/stress/test_bank_run.py)

Authorizations take every shape of docs/transactions.md#holds-captures-increments-expiry: a whole
capture, a partial final one (fuel), partial captures that keep the rest held then a final one, a
tip over-capture, an increment then a capture, or no capture at all — left to the expiry sweep
(`cardservice simulate expire-holds`, run beside the server every few seconds with an instant 40
days ahead, racing the clients' captures). A quarter of them are in EUR on the USD cards
(docs/transactions.md#foreign-currency, foreign currency): captured in the merchant's currency, in
parts too, each capture at the authorization's rate or another one, so a capture's difference with
its share of the hold moves between the card and the books.

Checks: customer money (accounts + cards) = deposits − fees − net merchant payments, each
side computed independently (balances vs. the transactions table); no balance negative; the
ledger sums to zero and equals the balances; no purchase applied twice (per external_id);
the `holds` book equals what pending purchases still hold (released + captured = held); no
purchase captured more than its authorization + 20 %; a settled purchase cost its captures;
a foreign purchase's merchant amounts follow the same rules (held + captured while pending,
captured once settled, nothing captured when reversed).
Checks: customer money (accounts + cards) = deposits − fees − net merchant payments (less
refunds and won disputes), each side computed independently (balances vs. the transactions
table); no balance negative; the ledger sums to zero and equals the balances; no purchase
applied twice (per external_id); a purchase credited by a dispute at most once, and never
given back more than it took.

The program operator (docs/operations.md#running-a-program) moves money too: credits and debits by
external_id (some sent twice, as after a timeout), top-ups asked in USD or EUR (converted) then
confirmed, confirmed twice at once (one credit), cancelled, or left unpaid for `cardservice topups
expire` (run beside the hold sweep, 73 hours ahead, racing the confirms), and card
replacements (the new card takes the old one's place in the clients' list; holds of the old
card still capture). Checks: the operator's books (`ledger.books.class_totals`, what
`/operator/balances` reads) sum to zero per currency now and at every instant the server was
killed; now, the cardholder classes equal accounts + cards, `held` the pending holds, and
`funding` −(deposits − withdrawals).

The ledger's sealer runs in the server's background loop (docs/ledger.md, "The hash chain"),
so each kill also kills a sealer, often with entries committed and not sealed yet (counted
at each kill: the restarted server's sealer must seal them). Once the traffic stops, the
running server's sealer seals every entry (its `/metrics` seal lag back to 0, waited for
up to `SEAL_PATIENCE` s); then each entry has its own place (places 1..N, the head at N) and
`ledger.verify` without sealing walks the chain, every balance and the day totals.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from cardservice import runtime
from cardservice.config import Settings
from cardservice.ledger.books import class_totals
from cardservice.ledger.verify import verify as verify_chain
from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.live_server import wait_ready

ADMIN_DSN = os.environ.get("CARDSERVICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
CLIENTS = 32
SEAL_PATIENCE = 60.0  # seconds the server's sealer may take to seal all (a liveness bound)


@dataclass
class Figures:
    attempted: int = 0
    ok: int = 0
    refused: int = 0
    interrupted: int = 0
    kills: int = 0
    kill_instants: list[datetime] = field(default_factory=list)  # the books are read at each
    foreign_captures: int = 0  # captures of EUR purchases answered 201
    operator: dict[str, int] = field(default_factory=dict)  # the operator's moves answered 2xx
    purchases: dict[str, int] = field(default_factory=dict)  # external_id → cards bought
    unsealed_at_kills: list[int] = field(default_factory=list)  # entries a killed sealer left

    def line(self) -> str:
        return (
            f"operations attempted={self.attempted} ok={self.ok} refused={self.refused} "
            f"interrupted={self.interrupted} kills survived={self.kills} "
            f"entries unsealed at the kills={self.unsealed_at_kills} "
            f"foreign captures={self.foreign_captures} operator: "
            + " ".join(f"{k}={v}" for k, v in sorted(self.operator.items()))
        )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """The real service as a subprocess (`cardservice serve`), killable and restartable."""

    def __init__(self, url: str, workdir: Path, workers: int = 1) -> None:
        self.port, self.workers = _free_port(), workers
        self.env = {
            **os.environ,
            "CARDSERVICE_DATABASE_URL": url,
            "CARDSERVICE_ENCRYPTION_KEY": KEY,
            "CARDSERVICE_SANDBOX": "1",
            "CARDSERVICE_VAR_DIR": str(workdir),
            "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",
            "CARDSERVICE_LOG_LEVEL": "WARNING",
        }
        self.process: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(sys.executable, "-m", "cardservice", "serve"),
                *("--port", str(self.port), "--workers", str(self.workers)),
            ],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its workers too are killed with the group
        )
        await asyncio.to_thread(wait_ready, self.base, self.process)

    def kill(self) -> None:
        """SIGKILL the server and every worker process it started."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def url(self) -> str:
        return self.env["CARDSERVICE_DATABASE_URL"]


async def _setup(
    url: str, server: Server, email: str = "run@example.com"
) -> tuple[dict[str, str], list[str], list[str]]:
    """One user, four accounts (the first hot), two cards each; returns headers, accounts, cards."""
    env = server.env

    def cli(*args: str) -> str:
        out = subprocess.run(
            [sys.executable, "-m", "cardservice", *args],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip()

    # the program operator's key (docs/operations.md#running-a-program): the holder, the
    # accounts and the token here, then the run's credits, debits, top-up confirmations; one
    # `cardservice` process, the rest over the server's operator API
    operator = cli("operator-keys", "create", "--name", "run", "--scopes", "users,funding")
    async with httpx.AsyncClient(
        base_url=server.base, headers={"Authorization": f"Bearer {operator}"}, timeout=30
    ) as http:

        async def made(path: str, body: dict[str, Any]) -> dict[str, Any]:
            answer = await http.post(path, json=body)
            assert answer.status_code == 201, answer.text
            return dict(answer.json()["data"])

        user = (await made("/operator/users", {"email": email, "name": "Bank Run"}))["uuid"]
        accounts = [
            (
                await made(
                    "/operator/accounts", {"user_uuid": user, "name": f"A{i}", "currency": "USD"}
                )
            )["uuid"]
            for i in range(4)
        ]
        token = (await made(f"/operator/users/{user}/tokens", {}))["token"]
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=30) as client:
        bins = (await client.get("/dictionary/bins")).json()["data"]
        bin_uuid = next(
            b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
        )
        cards = []
        for account in accounts:
            await client.post("/sandbox/deposits", json={"account_uuid": account, "amount": 500})
            bought = await client.post(
                "/card/buy",
                json={
                    "account_uuid": account,
                    "bin_uuid": bin_uuid,
                    "cards_count": 2,
                    "start_balance": 50,
                    "auto_replenish_amount": 20,
                    "auto_replenish_min_balance": 5,
                },
            )
            cards += [c["uuid"] for c in bought.json()["data"]["cards"]]
    headers["bin"] = bin_uuid
    headers["operator"] = operator
    return headers, accounts, cards


async def _client(
    server: Server,
    headers: dict[str, str],
    accounts: list[str],
    cards: list[str],
    figures: Figures,
    running: Callable[[], bool],
    seed: int,
) -> None:
    rng = random.Random(seed)
    auth = {"Authorization": headers["Authorization"]}
    settled: list[str] = []
    async with httpx.AsyncClient(headers=auth, timeout=10) as client:
        while running():
            account = accounts[0] if rng.random() < 0.6 else rng.choice(accounts)  # one hot account
            op = rng.choice(
                ["buy", "authorize", "authorize", "refund", "deposit", "dispute", "operator"]
            )
            figures.attempted += 1
            if op == "operator":  # a credit, a debit, a top-up confirmed, or a replacement
                await _operate(client, server, headers, account, cards, figures, rng)
                continue
            if op == "buy":
                await _buy(client, server, headers["bin"], account, figures, rng)
                continue
            if op == "dispute":
                await _dispute(client, server, settled[-1] if settled else None, figures, rng)
                continue
            path, body = {
                "authorize": (
                    "/sandbox/authorizations",
                    {
                        "card_uuid": rng.choice(cards),
                        "amount": rng.randint(1, 2000) / 100,
                        "currency": "EUR" if rng.random() < 0.25 else "USD",
                        "merchant_name": "Run",
                    },
                ),
                "deposit": (
                    "/sandbox/deposits",
                    {"account_uuid": account, "amount": rng.randint(1, 30)},
                ),
                "refund": (
                    f"/sandbox/transactions/{settled.pop() if settled else uuid.uuid4()}/refund",
                    {"amount": 0.5},
                ),
            }[op]
            try:
                response = await client.post(server.base + path, json=body)
            except httpx.TransportError:
                figures.interrupted += 1  # not retried: its effect, if any, is in the database
                await asyncio.sleep(0.2)
                continue
            _count(figures, response)
            if op == "authorize" and response.status_code == 201:
                txn = response.json()["data"]
                if txn["status"] == "pending":
                    base = f"{server.base}/sandbox/transactions/{txn['uuid']}"
                    if await _capture(client, base, txn, figures, rng):
                        settled.append(txn["uuid"])


async def _operate(
    client: httpx.AsyncClient,
    server: Server,
    headers: dict[str, str],
    account: str,
    cards: list[str],
    figures: Figures,
    rng: random.Random,
) -> None:
    """One of the operator's moves (docs/operations.md#running-a-program); a replacement takes the
    old card's place in the clients' shared list."""
    operator = {"Authorization": f"Bearer {headers['operator']}"}
    kind = rng.choice(["credit", "debit", "topup", "replace"])
    external_id = f"run-{kind}-{uuid.uuid4().hex[:12]}"
    amount = {"amount": rng.randint(1, 40), "external_id": external_id}
    try:
        if kind in ("credit", "debit"):
            path = f"{server.base}/operator/accounts/{account}/{kind}s"
            _count(figures, await client.post(path, json=amount, headers=operator), kind)
            if rng.random() < 0.3:  # a retry after a timeout: the same transaction, once
                _count(figures, await client.post(path, json=amount, headers=operator))
        elif kind == "topup":
            await _topup(client, server, operator, account, figures, rng)
        else:
            index = rng.randrange(len(cards))
            path = f"{server.base}/card/{cards[index]}/replace"
            replaced = await client.post(path, json={"reason": "damaged"})
            _count(figures, replaced, "replacements")
            if replaced.status_code == 201:
                cards[index] = replaced.json()["data"]["uuid"]
    except httpx.TransportError:
        figures.interrupted += 1
        await asyncio.sleep(0.2)


async def _topup(
    client: httpx.AsyncClient,
    server: Server,
    operator: dict[str, str],
    account: str,
    figures: Figures,
    rng: random.Random,
) -> None:
    """A top-up asked in USD or EUR (converted), then confirmed, confirmed twice at once
    (one credit), cancelled, or left unpaid for the sweeper to expire."""
    method, currency = rng.choice([("card", "USD"), ("bank-transfer", "EUR"), ("sepa", "EUR")])
    ask = {"account_uuid": account, "method": method, "currency": currency, "amount": 20}
    asked = await client.post(f"{server.base}/topups", json=ask)
    _count(figures, asked)
    if asked.status_code != 201:
        return
    base = f"{server.base}/operator/topups/{asked.json()['data']['uuid']}"
    fate = rng.choice(["confirm", "confirm twice", "cancel", "unpaid"])
    if fate == "unpaid":
        return
    if fate == "cancel":
        cancelled = await client.post(f"{base}/cancel", headers=operator)
        assert cancelled.status_code in (200, 409), cancelled.text  # 409: the sweeper's first
        _count(figures, cancelled, "top-ups cancelled")
        return
    received = {"received_amount": rng.choice([20, 19.5, 25])}  # what arrived may differ
    answers = await asyncio.gather(
        *(
            client.post(f"{base}/confirm", json=received, headers=operator)
            for _ in range(2 if fate == "confirm twice" else 1)
        )
    )
    for answer in answers:  # 409: the other confirm's, or the sweeper's expiry
        assert answer.status_code in (200, 409), answer.text
        _count(figures, answer, f"top-ups {fate.replace('confirm', 'confirmed')}")
    assert [a.status_code for a in answers].count(200) <= 1, "a top-up credited twice"


async def _capture(
    client: httpx.AsyncClient,
    base: str,
    txn: dict[str, object],
    figures: Figures,
    rng: random.Random,
) -> bool:
    """One shape of docs/transactions.md#foreign-currency on a pending purchase; whether it ended
    captured. A foreign one's amounts are the merchant's, and each capture may carry another
    rate."""
    foreign = txn["merchant_currency"] is not None
    cents = int(Decimal(str(txn["merchant_amount"] if foreign else txn["amount"])) * 100)
    shape = rng.choice(["whole", "fuel", "parts", "tip", "increment", "expire"])
    if shape == "expire":
        return False  # left to the sweep
    steps: list[dict[str, object] | None] = [None]
    if shape == "fuel":
        steps = [{"amount": rng.randint(1, cents) / 100}]
    elif shape == "parts":
        part = max(1, cents // 3)
        steps = [{"amount": part / 100, "final": False}, {"amount": part / 100}]
        if foreign:  # two kept-rest parts, then what the merchant still holds
            steps = [{"amount": part / 100, "final": False}, {**steps[0]}, None]
    elif shape == "tip":
        steps = [{"amount": rng.randint(cents, cents * 6 // 5) / 100}]
    elif shape == "increment":
        raised = await _quiet_post(
            client, base + "/increment", {"amount": rng.randint(1, 500) / 100}
        )
        if raised is None:
            return False
    for body in steps:
        if foreign and rng.random() < 0.5:
            body = {**(body or {}), "rate": rng.choice([1.05, 1.085, 1.12])}
        settle = await _quiet_post(client, base + "/settle", body)
        if settle is None or settle.status_code != 201:
            return False
        figures.foreign_captures += int(foreign)
    return settle.json()["data"]["status"] == "completed"


async def _dispute(
    client: httpx.AsyncClient,
    server: Server,
    purchase: str | None,
    figures: Figures,
    rng: random.Random,
) -> None:
    """Open a dispute on a settled purchase, then resolve it won or lost at once."""
    body = {"transaction_uuid": purchase or str(uuid.uuid4()), "reason": "other"}
    try:
        response = await client.post(server.base + "/disputes", json=body)
        _count(figures, response)
        if response.status_code == 201:
            dispute, outcome = response.json()["data"]["uuid"], rng.choice(["won", "lost"])
            resolve = f"{server.base}/sandbox/disputes/{dispute}/resolve"
            _count(figures, await client.post(resolve, json={"outcome": outcome}))
    except httpx.TransportError:
        figures.interrupted += 1
        await asyncio.sleep(0.2)


async def _quiet_post(
    client: httpx.AsyncClient, url: str, body: dict[str, object] | None = None
) -> httpx.Response | None:
    try:
        return await client.post(url, json=body)
    except httpx.TransportError:
        return None


async def _sweeper(server: Server, running: Callable[[], bool]) -> None:
    """`cardservice simulate expire-holds` every few seconds, 40 days ahead: every hold that
    is still pending then expires, racing the clients' captures; then `cardservice topups
    expire` 73 hours ahead: every unpaid top-up expires, racing the operator's confirms."""
    while running():
        await asyncio.sleep(2.0)
        for command, ahead in (
            (("simulate", "expire-holds"), timedelta(days=40)),
            (("topups", "expire"), timedelta(hours=73)),
        ):
            later = (datetime.now(UTC) + ahead).isoformat()
            process = await asyncio.create_subprocess_exec(
                *(sys.executable, "-m", "cardservice", *command, "--now", later),
                env=server.env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            await process.wait()


def _count(figures: Figures, response: httpx.Response, move: str | None = None) -> None:
    """An answer counted (never a 5xx); `move`: the operator's move it made, if it did."""
    assert response.status_code < 500, response.text
    if response.status_code in (200, 201):
        figures.ok += 1
        if move is not None:
            figures.operator[move] = figures.operator.get(move, 0) + 1
    else:
        figures.refused += 1


async def _buy(
    client: httpx.AsyncClient,
    server: Server,
    bin_uuid: str,
    account: str,
    figures: Figures,
    rng: random.Random,
) -> None:
    """A purchase is retried with the same external_id until it gets a definite answer."""
    external_id = f"run-{uuid.uuid4().hex}"
    body = {
        "account_uuid": account,
        "bin_uuid": bin_uuid,
        "cards_count": rng.randint(1, 2),
        "start_balance": rng.randint(0, 20),
        "external_id": external_id,
    }
    for _attempt in range(100):
        try:
            response = await client.post(server.base + "/card/buy", json=body)
        except httpx.TransportError:
            figures.interrupted += 1
            await asyncio.sleep(0.3)
            continue
        _count(figures, response)
        if response.status_code == 201:
            figures.purchases[external_id] = len(response.json()["data"]["cards"])
        return


async def _killer(
    server: Server, figures: Figures, running: Callable[[], bool], rng: random.Random
) -> None:
    while True:
        await asyncio.sleep(rng.uniform(2.5, 5.0))
        if not running():
            return
        server.kill()
        figures.kills += 1
        figures.kill_instants.append(datetime.now(UTC))
        figures.unsealed_at_kills.append(await _unsealed(server.url))
        await server.start()


async def _unsealed(url: str) -> int:
    connection = await asyncpg.connect(url)
    try:
        return int(
            await connection.fetchval(
                "SELECT count(*) FROM journal_entries WHERE chain_seq IS NULL"
            )
        )
    finally:
        await connection.close()


async def _until_sealed(server: Server) -> None:
    """Until the server's sealer sealed every entry (its `/metrics` seal lag 0)."""
    deadline = time.monotonic() + SEAL_PATIENCE
    async with httpx.AsyncClient(base_url=server.base, timeout=10) as client:
        while True:
            text = (await client.get("/metrics")).text
            [lag] = [
                float(line.split()[1])
                for line in text.splitlines()
                if line.startswith("cardservice_ledger_seal_lag_seconds ")
            ]
            if lag == 0:
                return
            assert time.monotonic() < deadline, f"the server's sealer left a lag of {lag} s"
            await asyncio.sleep(0.2)


async def _chain(url: str) -> dict[str, object]:
    """Whether each entry has its own place (1..N once, the head at N), and what
    `ledger.verify` finds without sealing anything itself."""
    db = runtime.database(Settings(database_url=url))
    try:
        row = await db.reader.row(
            "SELECT count(*) AS entries, count(chain_seq) AS sealed, "
            "count(DISTINCT chain_seq) AS places, coalesce(max(chain_seq), 0) AS last, "
            "(SELECT seq FROM ledger_chain_head WHERE id = 1) AS head FROM journal_entries"
        )
        check = await verify_chain(db, seal=False)
    finally:
        await db.dispose()
    assert row is not None
    return {
        "entries": int(row["entries"]),
        "sealed_once": row["sealed"]
        == row["places"]
        == row["last"]
        == row["head"]
        == row["entries"],
        "verify": check.problem or f"ok {check.entries} entries, {check.unsealed} unsealed",
    }


async def _ledger_books(url: str, instants: Sequence[datetime]) -> dict[str, object]:
    """The books as the operator reads them (`/operator/balances`' `ledger.books`): now, and
    at each instant the server was killed."""
    db = runtime.database(Settings(database_url=url))
    try:
        now = await class_totals(db.reader, datetime.now(UTC))
        then = [await class_totals(db.reader, instant) for instant in instants]
    finally:
        await db.dispose()
    return {"now": now, "then": then}


async def _books(url: str, instants: Sequence[datetime] = ()) -> dict[str, int]:
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow("""
            SELECT
              (SELECT COALESCE(SUM(balance), 0) FROM accounts) + (SELECT COALESCE(SUM(balance), 0) FROM cards) AS held,
              (SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE type = 'deposit') AS deposits,
              (SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE type = 'withdrawal') AS withdrawals,
              (SELECT COALESCE(SUM(fee), 0) FROM transactions WHERE status <> 'reversed') AS fees,
              (SELECT COALESCE(SUM(amount), 0) FROM transactions
                 WHERE type = 'card_purchase' AND status IN ('pending', 'completed', 'refunded')) AS spent,
              (SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE type = 'card_refund') AS refunded,
              (SELECT COALESCE(SUM(amount), 0) FROM transactions WHERE type = 'dispute_credit') AS credited,
              (SELECT COUNT(*) FROM (SELECT p.uuid FROM transactions p
                 JOIN transactions c ON c.parent_uuid = p.uuid AND c.type = 'dispute_credit'
                 GROUP BY p.uuid, p.amount, p.refunded_amount
                 HAVING COUNT(*) > 1 OR p.refunded_amount + SUM(c.amount) > p.amount) x) AS overcredited,
              (SELECT COUNT(*) FROM accounts WHERE balance < 0) + (SELECT COUNT(*) FROM cards WHERE balance < 0) AS negative,
              (SELECT COALESCE(SUM(amount), 0) FROM postings) AS ledger_sum,
              (SELECT COUNT(*) FROM (SELECT a.uuid FROM accounts a LEFT JOIN postings p ON p.account_uuid = a.uuid
                 GROUP BY a.uuid, a.balance HAVING a.balance <> COALESCE(SUM(p.amount), 0)) x)
              + (SELECT COUNT(*) FROM (SELECT c.uuid FROM cards c LEFT JOIN postings p ON p.card_uuid = c.uuid
                 GROUP BY c.uuid, c.balance HAVING c.balance <> COALESCE(SUM(p.amount), 0)) x) AS drifted,
              (SELECT COALESCE(SUM(amount), 0) FROM postings WHERE system_book = 'holds') AS holds_book,
              (SELECT COALESCE(SUM(amount - captured_amount), 0) FROM transactions
                 WHERE type = 'card_purchase' AND status = 'pending') AS pending_held,
              (SELECT COUNT(*) FROM transactions WHERE type = 'card_purchase'
                 AND captured_amount * 100 > authorized_amount * 120) AS over_captured,
              (SELECT COUNT(*) FROM transactions WHERE type = 'card_purchase'
                 AND status IN ('completed', 'refunded') AND amount <> captured_amount) AS miscaptured,
              (SELECT COUNT(*) FROM transactions WHERE type = 'card_purchase'
                 AND status = 'reversed' AND captured_amount <> 0) AS captured_then_released,
              (SELECT COUNT(*) FROM transactions WHERE type = 'card_purchase'
                 AND merchant_currency IS NOT NULL AND status <> 'declined' AND (
                   merchant_captured_amount < 0
                   OR (status = 'pending' AND merchant_amount <= merchant_captured_amount)
                   OR (status IN ('completed', 'refunded')
                       AND merchant_amount <> merchant_captured_amount)
                   OR (status = 'reversed' AND merchant_captured_amount <> 0))) AS merchant_miscaptured
        """)
        cards = await connection.fetch(
            "SELECT external_id, COUNT(*) AS n FROM cards "
            "WHERE external_id LIKE 'run-%' GROUP BY external_id"
        )
    finally:
        await connection.close()
    books = dict(row)
    books["cards_by_external_id"] = {r["external_id"]: r["n"] for r in cards}  # type: ignore[assignment]
    books["ledger_books"] = await _ledger_books(url, instants)  # type: ignore[assignment]
    return books


async def bank_run(
    seconds: float, seed: int = 7, min_kills: int = 0
) -> tuple[Figures, dict[str, int]]:
    """Run the scenario on a fresh PostgreSQL database for `seconds`, and on until the server
    was killed `min_kills` times (a busy machine restarts it slowly; at most 3× as long);
    returns the figures and the books."""
    url = await create_migrated_database(ADMIN_DSN, "cs_stress")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()
    server = Server(url, workdir)
    try:
        await server.start()
        headers, accounts, cards = await _setup(url, server)
        figures, rng = Figures(), random.Random(seed)
        started = time.monotonic()

        def running() -> bool:
            elapsed = time.monotonic() - started
            return elapsed < seconds or (figures.kills < min_kills and elapsed < 3 * seconds)

        await asyncio.gather(
            _killer(server, figures, running, rng),
            _sweeper(server, running),
            *(
                _client(server, headers, accounts, cards, figures, running, seed + i)
                for i in range(CLIENTS)
            ),
        )
        await _until_sealed(server)
        server.kill()
        books = await _books(url, figures.kill_instants)
        books["chain"] = await _chain(url)  # type: ignore[assignment]
        return figures, books
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
        await drop_database(ADMIN_DSN, url)


def _verify_ledger_books(books: dict[str, Any]) -> None:
    """The operator's books sum to zero per currency, now and at every kill; now, their
    classes are what the tables say: cardholders' = accounts + cards, held = what pending
    purchases hold, funding = −(deposits − withdrawals)."""
    ledger = books["ledger_books"]
    for totals in (ledger["now"], *ledger["then"]):
        for currency, classes in totals.items():
            assert sum(classes.values()) == 0, (currency, totals)
    usd = ledger["now"]["USD"]
    assert usd["cardholder_accounts"] + usd["cards"] == books["held"], (usd, books["held"])
    assert usd["held"] == books["pending_held"] == books["holds_book"], usd
    assert usd["funding"] == -(books["deposits"] - books["withdrawals"]), usd


def verify(figures: Figures, books: dict[str, int]) -> int:
    """Assert the books balance; returns the cents lost (0)."""
    expected = (
        books["deposits"]
        - books["withdrawals"]
        - books["fees"]
        - books["spent"]
        + books["refunded"]
        + books["credited"]
    )
    lost = expected - books["held"]
    assert lost == 0, f"{lost} cents unaccounted for: {books}"
    assert books["negative"] == 0 and books["ledger_sum"] == 0 and books["drifted"] == 0, books
    assert books["holds_book"] == books["pending_held"], books
    assert books["over_captured"] == books["miscaptured"] == 0, books
    assert books["captured_then_released"] == 0, books
    assert books["merchant_miscaptured"] == 0, books  # foreign: the same in its currency
    assert books["overcredited"] == 0, books  # a dispute credit at most once, within the amount
    _verify_ledger_books(books)
    by_external_id = books["cards_by_external_id"]
    for external_id, bought in figures.purchases.items():
        assert by_external_id.get(external_id) == bought, (external_id, bought)  # type: ignore[attr-defined]
    return lost


def verify_sealed(books: dict[str, Any]) -> None:
    """Every entry sealed once by the servers' own sealers, through the kills, and the chain
    they made walks clean (`bank_run`'s `chain`)."""
    chain = books["chain"]
    assert chain["sealed_once"], chain
    assert chain["verify"] == f"ok {chain['entries']} entries, 0 unsealed", chain


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    figures, books = asyncio.run(bank_run(args.seconds, args.seed))
    lost = verify(figures, books)
    verify_sealed(books)
    print(figures.line())
    instants = len(books["ledger_books"]["then"]) + 1  # type: ignore[index]
    print(f"operator books: each currency sums to 0 at {instants} instants (now and every kill)")
    money = {
        key: format(Decimal(books[key]).scaleb(-2), "f")
        for key in ("deposits", "fees", "held", "credited")
    }
    print(
        f"purchases ok={len(figures.purchases)} applied twice=0 deposits={money['deposits']} "
        f"fees={money['fees']} held={money['held']} dispute credits={money['credited']} "
        f"cents lost={lost}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

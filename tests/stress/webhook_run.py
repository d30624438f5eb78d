"""Webhook crash run: a real server with 2 worker processes (`cardservice serve --workers 2`)
on PostgreSQL delivers to a loopback receiver during a stream of authorizations and card
purchases; every 1-2 s a worker process is killed with SIGKILL (uvicorn starts another),
and every third time the whole server is, and restarted. Then: every committed event reached the receiver at least once; every id the
receiver got is an event in the table (nothing for a rolled-back change); every card and
transaction has its created event and every event its object; sequences are 1..N.

    python -m tests.stress.webhook_run --seconds 60      # make stress
    (a short run is part of make test: tests/stress/test_webhook_run.py)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

from cardservice import runtime
from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_token
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.users.service import create_user
from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.live_server import wait_ready
from tests.stress.bank_run import ADMIN_DSN, KEY
from tests.webhooks.receiver import Receiver, free_port

CLIENTS = 8
LEASE_SECONDS = 3  # a killed worker's attempts are taken again this soon
TIMEOUT_SECONDS = 2


@dataclass
class RunFigures:
    requests: int = 0
    interrupted: int = 0
    kills: int = 0
    events: int = 0
    received: int = 0
    duplicates: int = 0
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"requests={self.requests} interrupted={self.interrupted} kills={self.kills} "
            f"events={self.events} received={self.received} duplicates={self.duplicates} "
            f"problems={len(self.problems)}"
        )


def _workers(parent: int) -> list[int]:
    """The server processes uvicorn's supervisor `parent` spawned (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if ppid == parent and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


class Servers:
    """`cardservice serve --workers 2` in its own process group, killed all at once."""

    def __init__(self, url: str, workdir: Path, workers: int = 2, **settings: str) -> None:
        self.port, self.workers = free_port(), workers
        self.env = {
            **os.environ,
            "CARDSERVICE_DATABASE_URL": url,
            "CARDSERVICE_ENCRYPTION_KEY": KEY,
            "CARDSERVICE_SANDBOX": "1",
            "CARDSERVICE_VAR_DIR": str(workdir),
            "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",
            "CARDSERVICE_LOG_LEVEL": "WARNING",
            "CARDSERVICE_WEBHOOK_LEASE_SECONDS": str(LEASE_SECONDS),
            "CARDSERVICE_WEBHOOK_TIMEOUT_SECONDS": str(TIMEOUT_SECONDS),
            "CARDSERVICE_DB_POOL_SIZE": "4",
            **{f"CARDSERVICE_{k.upper()}": v for k, v in settings.items()},
        }
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardservice", "serve", "--port", str(self.port),
             "--workers", str(self.workers)],
            env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        await asyncio.to_thread(wait_ready, self.base, self.process)

    def kill(self) -> None:
        """SIGKILL to the supervisor and both workers."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def kill_worker(self, rng: random.Random) -> bool:
        """SIGKILL to one worker process; uvicorn's supervisor starts another."""
        assert self.process is not None
        pids = _workers(self.process.pid)
        if not pids:
            return False
        os.kill(rng.choice(pids), signal.SIGKILL)
        return True


async def setup(
    url: str, servers: Servers, receiver_url: str
) -> tuple[dict[str, str], list[str], str]:
    """A user (made through the services, in process) with a webhook endpoint for every
    type, then a funded account and four cards."""
    db = runtime.database(Settings(database_url=url, encryption_key=KEY))

    async def work(tx: Tx) -> tuple[uuid.UUID, str]:
        user = await create_user(tx, "hooks@example.com", "Hooks")
        account = await create_account(tx, user, "A", "USD")
        _token, token = await issue_token(tx, user, "run", None)
        return account, token

    try:
        account, token = await db.transact(work)
    finally:
        await db.dispose()
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=servers.base, headers=headers, timeout=30) as client:
        hook = await client.post("/webhook-endpoints", json={"url": receiver_url})
        assert hook.status_code == 201, hook.text
        bins = (await client.get("/dictionary/bins")).json()["data"]
        bin_uuid = next(
            b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
        )
        await client.post(
            "/sandbox/deposits", json={"account_uuid": str(account), "amount": 100000}
        )
        bought = await client.post(
            "/card/buy",
            json={"account_uuid": str(account), "bin_uuid": bin_uuid, "cards_count": 4,
                  "start_balance": 20000},
        )  # fmt: skip
        cards = [c["uuid"] for c in bought.json()["data"]["cards"]]
    return headers, cards, str(account)


async def _client(servers: Servers, headers: dict[str, str], cards: list[str], account: str,
                  figures: RunFigures, deadline: float, seed: int) -> None:  # fmt: skip
    rng = random.Random(seed)
    async with httpx.AsyncClient(headers=headers, timeout=10) as client:
        while time.monotonic() < deadline:
            figures.requests += 1
            if rng.random() < 0.9:
                path = "/sandbox/authorizations"
                body: dict[str, object] = {
                    "card_uuid": rng.choice(cards), "amount": rng.randint(1, 500) / 100,
                    "currency": "USD", "merchant_name": "Hooks",
                }  # fmt: skip
            else:  # refused (unknown BIN): rolled back, must leave no event
                path = "/card/buy"
                body = {"account_uuid": account, "bin_uuid": str(uuid.uuid4()), "start_balance": 1}
            try:
                await client.post(servers.base + path, json=body)
            except httpx.TransportError:
                figures.interrupted += 1
                await asyncio.sleep(0.2)


async def _killer(
    servers: Servers, figures: RunFigures, deadline: float, rng: random.Random
) -> None:
    """Every 1-2 s a worker process is killed (its supervisor replaces it); every third
    time the whole server is, and started again."""
    while True:
        await asyncio.sleep(rng.uniform(1.0, 2.0))
        if time.monotonic() >= deadline - 0.5:
            return
        figures.kills += 1
        if figures.kills % 3 == 0 or not servers.kill_worker(rng):
            servers.kill()
            await servers.start()


async def _settle(url: str, receiver: Receiver, figures: RunFigures, seconds: float) -> None:
    """Wait until every event is numbered and has reached the receiver, then check."""
    connection = await asyncpg.connect(url)
    try:
        deadline = time.monotonic() + seconds
        while True:
            rows = await connection.fetch("SELECT uuid, sequence FROM events")
            events = {str(r["uuid"]) for r in rows}
            got = set(receiver.ids())
            if (
                all(r["sequence"] is not None for r in rows) and events <= got
            ) or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.2)
        figures.events, figures.received = len(events), len(receiver.ids())
        figures.duplicates = len(receiver.ids()) - len(got)
        if missing := events - got:
            figures.problems.append(f"{len(missing)} committed events never received")
        if strangers := got - events:
            figures.problems.append(f"{len(strangers)} received ids are no committed event")
        sequences = sorted(r["sequence"] for r in rows if r["sequence"] is not None)
        if sequences != list(range(1, len(rows) + 1)):
            figures.problems.append("sequences are not 1..N")
        for table, kind in (("transactions", "transaction"), ("cards", "card")):
            orphans = await connection.fetchval(
                f"SELECT COUNT(*) FROM {table} o WHERE NOT EXISTS (SELECT 1 FROM events e "
                f"WHERE e.object_uuid = o.uuid AND e.type = '{kind}.created')"
            )
            ghosts = await connection.fetchval(
                f"SELECT COUNT(*) FROM events e WHERE e.object_type = '{kind}' AND NOT EXISTS "
                f"(SELECT 1 FROM {table} o WHERE o.uuid = e.object_uuid)"
            )
            if orphans or ghosts:
                figures.problems.append(
                    f"{table}: {orphans} without event, {ghosts} events without row"
                )
    finally:
        await connection.close()


async def webhook_run(seconds: float, seed: int = 15) -> RunFigures:
    """Run the scenario on a fresh PostgreSQL database; returns the figures."""
    url = await create_migrated_database(ADMIN_DSN, "cs_hooks")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()
    receiver, figures, rng = Receiver(), RunFigures(), random.Random(seed)
    await receiver.start()
    servers = Servers(url, workdir)  # after the receiver took its port
    try:
        await servers.start()
        headers, cards, account = await setup(url, servers, receiver.url)
        deadline = time.monotonic() + seconds
        await asyncio.gather(
            _killer(servers, figures, deadline, rng),
            *(
                _client(servers, headers, cards, account, figures, deadline, seed + i)
                for i in range(CLIENTS)
            ),
        )
        await _settle(url, receiver, figures, seconds=4 * LEASE_SECONDS + 20)
        return figures
    finally:
        servers.kill()
        await receiver.close()
        subprocess.run(["rm", "-rf", str(workdir)], check=False)
        await drop_database(ADMIN_DSN, url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    figures = asyncio.run(webhook_run(parser.parse_args().seconds))
    print(figures.line())
    for problem in figures.problems:
        print("PROBLEM:", problem)
    return 1 if figures.problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""`make bench-events`: what webhooks cost the write path, and how fast events go out.

On a fresh PostgreSQL database, one `cardservice serve` (with its embedded delivery loop)
and a loopback receiver answering 200:

* write throughput: authorizations, 16 closed-loop clients, with the user's webhook
  endpoint disabled, enabled, disabled again (same run, same server, same data); the ratio
  is enabled ÷ mean(disabled). Events are written either way: the outbox is structural.
* event lag: authorizations at a fixed 200/s with the endpoint enabled; for every first
  attempt, attempt start − event commit, from the database (`webhook_attempts`: its row is
  written after the attempt, minus the attempt's duration; `events.created_at` is the
  insert, a little before the commit, so the lag is overstated, never understated).

    python -m bench.events               # 20 s phases
    python -m bench.events --seconds 5   # quick
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from tests.stress.bank_run import ADMIN_DSN
from tests.stress.webhook_run import Servers, setup
from tests.webhooks.receiver import Receiver

CLIENTS = 16
RATE = 200
RESULTS = Path(__file__).parent / "results"
LAG_SQL = """
SELECT count(*) AS n,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99,
       max(lag) AS max
FROM (SELECT EXTRACT(EPOCH FROM a.created_at - e.created_at) - a.duration_ms / 1000.0 AS lag
      FROM webhook_attempts a JOIN events e ON e.uuid = a.event_uuid
      WHERE a.attempt = 1 AND e.created_at >= $1) AS first_attempts"""


def _authorization(cards: list[str], rng: random.Random) -> dict[str, Any]:
    return {"card_uuid": rng.choice(cards), "amount": rng.randint(1, 10) / 100,
            "currency": "USD", "merchant_name": "Bench"}  # fmt: skip


async def closed_loop(
    base: str, headers: dict[str, str], cards: list[str], seconds: float
) -> float:
    """Authorizations per second, `CLIENTS` clients each sending as soon as answered."""
    done = 0
    deadline = time.monotonic() + seconds

    async def client(seed: int) -> None:
        nonlocal done
        rng = random.Random(seed)
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as http:
            while time.monotonic() < deadline:
                response = await http.post(
                    "/sandbox/authorizations", json=_authorization(cards, rng)
                )
                assert response.status_code == 201, response.text
                done += 1

    started = time.monotonic()
    await asyncio.gather(*(client(i) for i in range(CLIENTS)))
    return done / (time.monotonic() - started)


async def fixed_rate(
    base: str, headers: dict[str, str], cards: list[str], seconds: float
) -> tuple[float, float]:
    """Authorizations offered at `RATE` per second (open loop): the rate they were sent at,
    and the rate they were answered at (lower when the server is saturated)."""
    rng, sent = random.Random(1), 0
    started = time.monotonic()
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30,
                                 limits=httpx.Limits(max_connections=64)) as http:  # fmt: skip
        tasks = []
        while (elapsed := time.monotonic() - started) < seconds:
            due = sent / RATE
            if due > elapsed:
                await asyncio.sleep(due - elapsed)
            tasks.append(
                asyncio.create_task(
                    http.post("/sandbox/authorizations", json=_authorization(cards, rng))
                )
            )
            sent += 1
        offered = sent / (time.monotonic() - started)
        responses = await asyncio.gather(*tasks)
    assert all(r.status_code == 201 for r in responses)
    return offered, sent / (time.monotonic() - started)


async def _enable(base: str, headers: dict[str, str], enabled: bool) -> None:
    async with httpx.AsyncClient(base_url=base, headers=headers) as http:
        hooks = (await http.get("/webhook-endpoints")).json()["data"]
        for hook in hooks:
            await http.patch(f"/webhook-endpoints/{hook['uuid']}", json={"enabled": enabled})


async def _drained(url: str, seconds: float = 60) -> None:
    connection = await asyncpg.connect(url)
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            waiting = await connection.fetchval(
                "SELECT (SELECT COUNT(*) FROM events WHERE sequence IS NULL) + "
                "(SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending')"
            )
            if waiting == 0:
                return
            await asyncio.sleep(0.2)
    finally:
        await connection.close()


async def run(seconds: float) -> dict[str, Any]:
    name = f"cs_bench_events_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = ADMIN_DSN.rsplit("/", 1)[0] + "/" + name
    workdir = Path(f"/tmp/{name}")
    workdir.mkdir()  # noqa: ASYNC240 - once, before the run
    receiver = Receiver()
    await receiver.start()
    servers = Servers(url, workdir, workers=1, webhook_lease_seconds="30",
                      webhook_timeout_seconds="10", db_pool_size="10")  # fmt: skip
    try:
        await upgrade_database(Settings(database_url=url).resolved_database_url)
        await servers.start()
        headers, cards, _account = await setup(url, servers, receiver)
        base = servers.base
        await _drained(url)
        figures: dict[str, Any] = {"seconds_per_phase": seconds, "clients": CLIENTS}
        for phase, enabled in (("without_1", False), ("with", True), ("without_2", False)):
            await _enable(base, headers, enabled)
            figures[f"writes_per_s_{phase}"] = round(
                await closed_loop(base, headers, cards, seconds), 1
            )
            await _drained(url)
        without = (figures["writes_per_s_without_1"] + figures["writes_per_s_without_2"]) / 2
        figures["with_vs_without"] = round(figures["writes_per_s_with"] / without, 3)
        await _enable(base, headers, True)
        since = datetime.now(UTC)
        offered, answered = await fixed_rate(base, headers, cards, seconds)
        figures["lag_offered_per_s"] = round(offered, 1)
        figures["lag_answered_per_s"] = round(answered, 1)
        await _drained(url)
        connection = await asyncpg.connect(url)
        lag = await connection.fetchrow(LAG_SQL, since)
        await connection.close()
        figures.update(
            {f"lag_{k}_s": (round(float(v), 4) if k != "n" else v) for k, v in lag.items()}
        )
        return figures
    finally:
        servers.kill()
        await receiver.close()
        shutil.rmtree(workdir, ignore_errors=True)
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20)
    figures = asyncio.run(run(parser.parse_args().seconds))
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    (RESULTS / f"events-{stamp}.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    ok = figures["with_vs_without"] >= 0.85 and figures["lag_p99_s"] <= 1.0
    print("targets (with/without >= 0.85, lag p99 <= 1 s):", "met" if ok else "MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`make bench-events`: what webhooks cost the write path, and how fast events go out.

On a fresh PostgreSQL database, `cardservice serve --workers 2` (each worker with its
embedded delivery loop) and a loopback receiver answering 200 in a process of its own; the
load comes from `wrk` and `hey` (C and Go), so neither the receiver nor the load generator
takes the CPU of a Python process that also measures:

* write throughput: authorizations (`wrk`, 64 connections, over the user's four cards) with
  the user's webhook endpoint disabled, enabled, disabled again (same run, same server, same
  data); the ratio is enabled ÷ mean(disabled). Events are written either way: the outbox is
  structural. Between phases the queue is drained, so a phase does not pay for the last.
* event lag: authorizations at a fixed 200/s (`hey -q`) with the endpoint enabled; for every
  first attempt, attempt start − event commit, from the database (`webhook_attempts`: its
  row is written after the attempt, minus the attempt's duration; `events.created_at` is the
  insert, a little before the commit, so the lag is overstated, never understated).

    python -m bench.events               # 20 s phases
    python -m bench.events --seconds 5   # quick
    python -m bench.events --vacuum      # VACUUM between the phases (is the drift dead rows?)
    make bench-events                    # installs wrk and hey first
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import socket
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx

from bench.run import CONNECTIONS, Target, _free_port, hey, wrk
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from tests.fresh_database import create_database, database_name, drop_database
from tests.stress.bank_run import ADMIN_DSN
from tests.stress.webhook_run import Servers, setup

RATE = 200
HEY_WORKERS = 64  # enough rate-limited senders to hold 200/s while answers take 100+ ms
RESULTS = Path(__file__).parent / "results"
# the loopback receiver, in a process of its own: drains each request's body, answers 200
RECEIVER = """
import sys, uvicorn

async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b'{"approved": true}'})

uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""
LAG_SQL = """
SELECT count(*) AS n,
       percentile_cont(0.5) WITHIN GROUP (ORDER BY lag) AS p50,
       percentile_cont(0.99) WITHIN GROUP (ORDER BY lag) AS p99,
       max(lag) AS max
FROM (SELECT EXTRACT(EPOCH FROM a.created_at - e.created_at) - a.duration_ms / 1000.0 AS lag
      FROM webhook_attempts a JOIN events e ON e.uuid = a.event_uuid
      WHERE a.attempt = 1 AND e.created_at >= $1) AS first_attempts"""


def _target(token: str, cards: list[str]) -> Target:
    """Authorizations of 0.01 on each of the user's cards in turn."""
    body = {"amount": 0.01, "currency": "USD", "merchant_name": "Bench"}
    return Target(
        "POST /sandbox/authorizations",
        "write",
        "/sandbox/authorizations",
        [(token, json.dumps({"card_uuid": card, **body})) for card in cards],
    )


def closed_loop(base: str, target: Target, seconds: int) -> float:
    """Authorizations per second at `wrk`'s 64 connections (none may fail)."""
    rps, _p50, _p99, errors = wrk(base + target.path, seconds, target)
    assert errors == 0, f"{errors} authorizations failed"
    return rps


def fixed_rate(base: str, target: Target, seconds: int) -> tuple[float, int]:
    """Authorizations offered at `RATE` per second (`hey -q`); their p99 (ms) and how many
    failed."""
    _p50, p99, errors = hey(base + target.path, seconds, RATE, target, workers=HEY_WORKERS)
    return p99, errors


async def _enable(base: str, headers: dict[str, str], enabled: bool) -> None:
    async with httpx.AsyncClient(base_url=base, headers=headers) as http:
        hooks = (await http.get("/webhook-endpoints")).json()["data"]
        for hook in hooks:
            await http.patch(f"/webhook-endpoints/{hook['uuid']}", json={"enabled": enabled})


async def _listening(port: int, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        await asyncio.sleep(0.05)
    raise RuntimeError("the receiver did not start")


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


DEAD_ROWS = """
SELECT relname, n_dead_tup FROM pg_stat_user_tables
WHERE relname IN ('cards', 'accounts', 'events', 'transaction_counts', 'daily_spend',
                  'card_spend', 'webhook_deliveries') ORDER BY relname"""


async def _dead_rows(url: str) -> dict[str, int]:
    """Dead row versions of the hot tables now (the statistics lag a little)."""
    connection = await asyncpg.connect(url)
    try:
        return {row["relname"]: row["n_dead_tup"] for row in await connection.fetch(DEAD_ROWS)}
    finally:
        await connection.close()


async def _vacuum(url: str) -> None:
    """VACUUM the database, so that the next phase starts without dead rows."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("VACUUM")
    finally:
        await connection.close()


async def _setting(url: str, name: str) -> str:
    connection = await asyncpg.connect(url)
    try:
        return str(await connection.fetchval("SELECT current_setting($1)", name))
    finally:
        await connection.close()


async def run(seconds: float, vacuum: bool = False) -> dict[str, Any]:
    url = await create_database(ADMIN_DSN, "cs_bench_events")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()  # noqa: ASYNC240 - once, before the run
    port = _free_port()
    receiver = await asyncio.create_subprocess_exec(sys.executable, "-c", RECEIVER, str(port))
    receiver_url = f"http://127.0.0.1:{port}/hook"
    await _listening(port)
    servers = Servers(url, workdir, workers=2, webhook_lease_seconds="30",
                      webhook_timeout_seconds="10", db_pool_size="10")  # fmt: skip
    try:
        await upgrade_database(Settings(database_url=url).resolved_database_url)
        await servers.start()
        headers, cards, _account = await setup(url, servers, receiver_url)
        base = servers.base
        target = _target(headers["Authorization"].removeprefix("Bearer "), cards)
        await _drained(url)
        figures: dict[str, Any] = {"seconds_per_phase": seconds, "connections": CONNECTIONS}
        figures["vacuum_between_phases"] = vacuum
        figures["autovacuum"] = await _setting(url, "autovacuum")  # off on the test machines
        for phase, enabled in (("without_1", False), ("with", True), ("without_2", False)):
            await _enable(base, headers, enabled)
            rps = await asyncio.to_thread(closed_loop, base, target, seconds)
            figures[f"writes_per_s_{phase}"] = round(rps, 1)
            await _drained(url)
            figures[f"dead_rows_after_{phase}"] = await _dead_rows(url)
            if vacuum:
                await _vacuum(url)
        without = (figures["writes_per_s_without_1"] + figures["writes_per_s_without_2"]) / 2
        figures["with_vs_without"] = round(figures["writes_per_s_with"] / without, 3)
        await _enable(base, headers, True)
        since = datetime.now(UTC)
        p99, failed = await asyncio.to_thread(fixed_rate, base, target, seconds)
        figures["lag_offered_per_s"] = RATE
        figures["lag_authorization_p99_ms"] = round(p99, 1)
        figures["lag_authorizations_failed"] = failed
        await _drained(url)
        connection = await asyncpg.connect(url)
        lag = await connection.fetchrow(LAG_SQL, since)
        await connection.close()
        figures.update(
            {f"lag_{k}_s": (round(float(v), 4) if k != "n" else v) for k, v in lag.items()}
        )
        figures["lag_events_per_s"] = round(lag["n"] / seconds, 1)  # first attempts made
        return figures
    finally:
        servers.kill()
        receiver.terminate()
        await receiver.wait()
        shutil.rmtree(workdir, ignore_errors=True)
        await drop_database(ADMIN_DSN, url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument(
        "--vacuum", action="store_true", help="VACUUM between the phases (a diagnosis)"
    )
    args = parser.parse_args()
    figures = asyncio.run(run(args.seconds, args.vacuum))
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    (RESULTS / f"events-{stamp}.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
    ok = figures["with_vs_without"] >= 0.85 and figures["lag_p99_s"] <= 1.0
    print("targets (with/without >= 0.85, lag p99 <= 1 s):", "met" if ok else "MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())

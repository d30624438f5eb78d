"""CPU cost per request of each benchmarked endpoint, in process, and where it goes.

    python -m bench.profile --database sqlite            # CPU ms per request, each endpoint
    python -m bench.profile --database postgresql --profile "GET /card"   # + pyinstrument tree
    python -m bench.profile --database postgresql --functions "POST /card/buy"  # + CPU by function
    python -m bench.profile --database postgresql --peer   # + the bare peer's, same process
    python -m bench.profile --budget                     # CPU per layer, both databases

CPU time (not wall time) of this process over N sequential requests through the ASGI app:
on a shared machine it is far steadier than req/s, so it shows what a change to a hot path
bought. `GET /health` is measured the same way as the reference. The database server's own
CPU (PostgreSQL) is not in these figures; `bench.run` measures the whole.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import shutil
import subprocess
import sys
import tempfile
import time

import httpx
from starlette.types import ASGIApp

from bench import peer
from bench.dataset import DataSet, build
from bench.peer import app as peer_app
from bench.run import ADMIN_DSN, KEY, PEER_ENDPOINTS, Target, endpoints
from cardservice import runtime
from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher
from cardservice.webhooks.queue import publish_committed
from tests.fresh_database import create_database, drop_database


async def _database(kind: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tempfile.mkdtemp(prefix='cs_profile_')}/profile.db"
    return await create_database(ADMIN_DSN, "cs_profile")


def in_process_settings(url: str, **more: object) -> Settings:
    """The service's settings for measuring it in process: the sandbox on, no rate limit
    in the way, quiet logs."""
    fields: dict[str, object] = {
        "database_url": url,
        "encryption_key": KEY,
        "sandbox": True,
        "rate_limit_per_minute": 100_000_000,
        "log_level": "WARNING",
    }
    return Settings(**(fields | more))  # type: ignore[arg-type]


async def _data_set(settings: Settings, cards: int) -> DataSet:
    """The schema and the data set (`cards` for the heavy user, 10,000 transactions), its
    events completed as the service completes them and numbered now, not by the app's
    background loop while measured."""
    await upgrade_database(settings.resolved_database_url)
    db = runtime.database(settings)
    try:
        data = await build(
            db, CardCipher.from_settings(settings), cards=cards, transactions=10_000, users=20
        )
        await publish_committed(db)
    finally:
        await db.dispose()
    return data


async def run(
    kind: str,
    requests: int,
    profile: str | None,
    functions: str | None,
    cards: int,
    with_peer: bool,
) -> None:
    url = await _database(kind)
    try:
        settings = in_process_settings(url)
        data = await _data_set(settings, cards)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            service = await _measure(app, data, requests, profile, functions)
        peer = await _measure_peer(url, data, requests) if with_peer else {}
        for label, cpu in service.items():
            figure: dict[str, object] = {"endpoint": label, "cpu_ms": cpu}
            if label in peer:
                figure |= {"peer_cpu_ms": peer[label], "peer_ratio": round(peer[label] / cpu, 3)}
            print(json.dumps(figure))
    finally:
        if kind != "sqlite":
            await drop_database(ADMIN_DSN, url)


async def _measure(
    app: ASGIApp, data: DataSet, requests: int, profile: str | None, functions: str | None
) -> dict[str, float]:
    """CPU ms per request of `app` for `GET /health` and each benchmarked endpoint."""
    cpu_ms: dict[str, float] = {}
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://bench"
    ) as client:
        health = Target("GET /health", "baseline", "/health", [(data.token, None)])
        for target in [health, *endpoints(data, deep_page=50)]:
            if app is peer_app and target.label not in PEER_ENDPOINTS | {"GET /health"}:
                continue
            label = target.label
            token, body = target.variants[0]
            headers = {"Authorization": f"Bearer {token}"}
            if body is not None:
                headers["Content-Type"] = "application/json"

            async def call(
                target: Target = target, body: str | None = body, headers: dict[str, str] = headers
            ) -> None:
                response = await client.request(
                    target.method, target.path, content=body, headers=headers
                )
                if response.status_code >= 300:
                    raise RuntimeError(f"{target.label}: {response.status_code} {response.text}")

            for _ in range(20):  # warm caches and pools
                await call()
            profiler = None
            if profile and label.startswith(profile):
                from pyinstrument import Profiler

                profiler = Profiler(async_mode="enabled")
                profiler.start()
            by_function = None
            if functions and label.startswith(functions):
                by_function = cProfile.Profile(time.process_time)
                by_function.enable()
            cpu = time.process_time()
            for _ in range(requests):
                await call()
            cpu_ms[label] = round((time.process_time() - cpu) / requests * 1000, 3)
            if profiler is not None:
                profiler.stop()
                print(profiler.output_text(unicode=False, color=False, show_all=False))
            if by_function is not None:
                by_function.disable()
                stats = pstats.Stats(by_function).sort_stats("tottime")
                stats.print_stats(45)
                stats.sort_stats("cumulative").print_stats(
                    "cardservice|fastapi/(routing|dependencies)|pydantic|starlette", 60
                )
    return cpu_ms


async def _measure_peer(url: str, data: DataSet, requests: int) -> dict[str, float]:
    """The same for the bare peer (`bench/peer.py`) on the same data, in this process."""
    peer.DB = peer.Database(url)
    await peer.DB.open()
    try:
        return await _measure(peer_app, data, requests, None, None)
    finally:
        await peer.DB.close()


def budget(
    kind: str,
    requests: int,
    seconds: float,
    rate: int,
    labels: tuple[str, ...] = (),
) -> None:
    """`--budget` on one database: the service's table, then the bare peer's (bench.budget)."""
    from bench import budget as layers

    loop = layers.new_loop()
    url = loop.run_until_complete(_database(kind))
    try:
        settings = in_process_settings(url, log_level="INFO", log_format="json")
        data = loop.run_until_complete(_data_set(settings, cards=100))
        app = create_app(settings)
        restore = layers.quiet_access_log()
        lifespan = app.router.lifespan_context(app)
        loop.run_until_complete(lifespan.__aenter__())
        peer.DB = peer.Database(url)
        loop.run_until_complete(peer.DB.open())
        apps = {layers.SERVICE: app, "peer": peer_app}
        try:
            labels = labels or layers.ENDPOINTS
            budgets = layers.run_budget(loop, apps, data, requests, seconds, rate, labels)
        finally:
            loop.run_until_complete(peer.DB.close())
            loop.run_until_complete(lifespan.__aexit__(None, None, None))
            restore()
        by_label = {b.label: b for b in budgets["peer"]}
        print(layers.table(kind, budgets[layers.SERVICE], by_label))
        print()
        print(layers.peer_table(kind, by_label))
        print()
    finally:
        if kind != "sqlite":
            loop.run_until_complete(drop_database(ADMIN_DSN, url))
        loop.close()


def _budget_process(args: argparse.Namespace) -> int:
    """The budget measures metrics as served, in files: `PROMETHEUS_MULTIPROC_DIR` must be
    set before anything imports `prometheus_client`, so it runs in a child process."""
    directory = tempfile.mkdtemp(prefix="cs_budget_metrics_")
    try:
        for kind in args.databases.split(","):
            child = [sys.executable, "-m", "bench.profile", "--budget-of", kind]
            child += ["--requests", str(args.requests), "--seconds", str(args.seconds)]
            child += ["--rate", str(args.rate)]
            child += ["--endpoints", args.endpoints] if args.endpoints else []
            environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": directory}
            subprocess.run(child, env=environment, check=True)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument(
        "--budget", action="store_true", help="CPU per request, layer by layer (bench.budget)"
    )
    parser.add_argument("--budget-of", help=argparse.SUPPRESS)
    parser.add_argument("--databases", default="sqlite,postgresql", help="for --budget")
    parser.add_argument(
        "--endpoints", default="", help="for --budget: labels, comma-separated (default: all four)"
    )
    parser.add_argument("--seconds", type=float, default=10, help="--budget: py-spy's sampling")
    parser.add_argument("--rate", type=int, default=1000, help="--budget: py-spy's samples/s")
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--profile", help="endpoint label prefix to profile, e.g. 'GET /card'")
    parser.add_argument(
        "--functions", help="endpoint label prefix to show CPU time by function (cProfile)"
    )
    parser.add_argument("--cards", type=int, default=100, help="the heavy user's cards")
    parser.add_argument(
        "--peer", action="store_true", help="also the bare peer's CPU per request, and the ratio"
    )
    args = parser.parse_args()
    if args.budget:
        return _budget_process(args)
    if args.budget_of:
        labels = tuple(label.strip() for label in args.endpoints.split(",") if label.strip())
        budget(args.budget_of, args.requests, args.seconds, args.rate, labels)
        return 0
    asyncio.run(
        run(args.database, args.requests, args.profile, args.functions, args.cards, args.peer)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

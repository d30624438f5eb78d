"""`make bench` / `make bench-quick`: the service as deployed, measured against baselines
taken in the same run — its own `GET /health` (read ceiling of this stack), `pgbench`
TPC-B on the same PostgreSQL (write ceiling of the database), bare `sqlite3` loops of the
authorization's and the purchase's units (SQLite's write ceilings), and the bare peer
(`bench/peer.py`: each hot endpoint's SQL and JSON with no framework, on the same server
program and workers).

    python -m bench.run --quick            # small data set, short runs, SQLite and PostgreSQL
    python -m bench.run                    # 1,000 cards and 1,000,000 transactions
    python -m bench.run --quick --databases postgresql --only "POST /card/buy"  # some endpoints

Peak throughput: wrk, 64 connections. Latency: hey at a fixed rate of half that endpoint's
peak (rate-limited workers, so latency is not just connections ÷ throughput). Then the heavy
user's whole history as CSV from one worker: rows/s and the worker's peak RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import httpx

from bench.dataset import REFERENCE_TRANSACTIONS, DataSet, build
from cardservice import runtime
from cardservice.config import Settings
from cardservice.db.sql import sqlite_path, text_uuid
from cardservice.migrations import upgrade_database
from cardservice.security import CardCipher
from cardservice.webhooks.queue import publish_committed
from tests.fresh_database import create_database, drop_database

ADMIN_DSN = os.environ.get("CARDSERVICE_BENCH_PG", "postgresql://postgres@127.0.0.1:5432/test")
KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
RESULTS = Path(__file__).with_name("results")
CONNECTIONS = 64


@dataclass
class Figure:
    database: str
    endpoint: str
    kind: str  # read | write | baseline
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    ratio: float = 0.0
    fixed_rate: float = 0.0
    fixed_p50_ms: float = 0.0
    fixed_p99_ms: float = 0.0
    fixed_errors: int = 0
    peer_rps: float = 0.0
    peer_ratio: float = 0.0
    # CPU milliseconds a request at peak: the server's processes, PostgreSQL's (the database
    # in both kinds: SQLite's work is the server's own); the peer's alike
    cpu_ms: float = 0.0
    db_cpu_ms: float = 0.0
    peer_cpu_ms: float = 0.0
    peer_db_cpu_ms: float = 0.0


_TICK = os.sysconf("SC_CLK_TCK")


def _processes() -> dict[int, tuple[int, str, float]]:
    """Every process now: pid → (parent, command name, CPU seconds so far) (Linux's /proc)."""
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                command, rest = stat.read().rsplit(")", 1)
        except OSError:  # gone meanwhile
            continue
        parts = rest.split()
        cpu = (int(parts[11]) + int(parts[12])) / _TICK  # utime + stime
        found[int(name)] = (int(parts[1]), command.split("(", 1)[1], cpu)
    return found


def _client_backend(pid: int, database: str | None = None) -> bool:
    """A PostgreSQL process serving a client connection (its title names the client's address:
    `postgres: … user db 127.0.0.1(port) …` or `[local]`), not the checkpointer, background
    writer, WAL writer or a launcher, whose work comes when it comes; with `database`, only a
    connection to that database (another engineer's tests on the same machine are not the
    load's)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as title:
            text = title.read().decode(errors="replace")
    except OSError:
        return False
    if database is not None and f" {database} " not in text:
        return False
    return "[local]" in text or re.search(r"\d\(\d+\)", text) is not None


def cpu_seconds(root: int, database: str | None = None) -> tuple[float, float]:
    """CPU seconds so far of the process tree of `root` (a server and its workers) and of
    PostgreSQL's client backends (every connection's, whoever's: on a quiet machine, the
    load's; with `database`, only that database's connections): read before and after a
    load, what one request cost each. The database's background processes are left out: a
    checkpoint falling in one load's window would be charged to that load's requests alone."""
    processes, tree = _processes(), {root}
    for _round in range(4):  # children, grandchildren, …
        tree |= {pid for pid, (parent, _c, _s) in processes.items() if parent in tree}
    total = sum(processes[pid][2] for pid in tree if pid in processes)
    database = sum(
        cpu
        for pid, (_parent, command, cpu) in processes.items()
        if command.startswith("postgres") and _client_backend(pid, database)
    )
    return total, database


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ms(text: str) -> float:
    value, unit = re.match(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


@dataclass
class Target:
    """One benchmarked endpoint; `variants` (token, body) rotate request by request."""

    label: str
    kind: str  # read | write
    path: str
    variants: list[tuple[str, str | None]]

    @property
    def method(self) -> str:
        return "GET" if self.variants[0][1] is None else "POST"


def _lua(target: Target) -> str:
    """wrk script: every request takes the next variant; each thread starts elsewhere."""
    rows = []
    for token, body in target.variants:
        headers = f'{{["Authorization"] = {json.dumps("Bearer " + token)}'
        if body is not None:
            headers += ', ["Content-Type"] = "application/json"'
        rows.append(
            f"  wrk.format({json.dumps(target.method)}, nil, {headers}}}, "
            f"{json.dumps(body) if body is not None else 'nil'}),"
        )
    return (
        "local threads = 0\n"
        "function setup(thread) thread:set('id', threads); threads = threads + 1 end\n"
        "function init(args)\n  requests = {\n" + "\n".join(rows) + "\n  }\n"
        "  i = (id or 0) * 7919 % #requests\nend\n"
        "function request() i = i % #requests + 1; return requests[i] end\n"
    )


def wrk(url: str, seconds: int, target: Target | None) -> tuple[float, float, float, int]:
    """Peak req/s, p50, p99 (ms) and non-2xx/socket errors at 64 connections."""
    return wrk_script(url, seconds, _lua(target) if target else "")


def wrk_costed(
    server: Server, path: str, seconds: int, target: Target | None
) -> tuple[float, float, float, int, float, float]:
    """`wrk` on one of `server`'s paths, with the CPU ms a request cost the server's
    processes and PostgreSQL's meanwhile (`cpu_seconds`)."""
    assert server.process is not None
    before = cpu_seconds(server.process.pid)
    rps, p50, p99, errors = wrk(server.base + path, seconds, target)
    own, database = cpu_ms_each(before, cpu_seconds(server.process.pid), rps * seconds)
    return rps, p50, p99, errors, own, database


def cpu_ms_each(
    before: tuple[float, float], after: tuple[float, float], requests: float
) -> tuple[float, float]:
    """Two `cpu_seconds` readings around `requests` requests: the CPU ms each cost the
    server's processes and PostgreSQL's client backends."""
    own, database = (
        round(1000 * (a - b) / max(1.0, requests), 3) for a, b in zip(after, before, strict=True)
    )
    return own, database


def wrk_script(url: str, seconds: int, script: str) -> tuple[float, float, float, int]:
    """`wrk` with a Lua script: peak req/s, p50, p99 (ms), non-2xx and socket errors."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as lua:
        lua.write(script)
    args = ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{seconds}s", "--latency", "-s", lua.name, url]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    os.unlink(lua.name)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"50%\s+([\d.]+\w+)", out).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"99%\s+([\d.]+\w+)", out).group(1))  # type: ignore[union-attr]
    errors = sum(
        int(n)
        for n in re.findall(r"(?:Non-2xx or 3xx responses|connect|read|write|timeout):? (\d+)", out)
    )
    return rps, p50, p99, errors


HEY_PROCESSES = 8


def hey(
    url: str, seconds: int, rate: float, target: Target, workers: int = 8
) -> tuple[float, float, int]:
    """p50 and p99 (ms) of the 2xx answers, and the count of the others, at a fixed total
    request rate: `hey -q` (`workers` rate-limited workers in all), one process per variant
    (up to 8), their samples merged."""
    variants = target.variants[:HEY_PROCESSES]
    processes, files = [], []
    per_variant = max(1, workers // len(variants))
    for token, body in variants:
        per_process = rate / len(variants)
        args = ["hey", "-z", f"{seconds}s", "-c", str(per_variant), "-o", "csv"]
        args += ["-q", f"{max(per_process / per_variant, 1):.2f}"]
        args += ["-H", f"Authorization: Bearer {token}"]
        if body is not None:
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
                handle.write(body)
            files.append(handle.name)
            args += ["-m", "POST", "-T", "application/json", "-D", handle.name]
        processes.append(subprocess.Popen([*args, url], stdout=subprocess.PIPE, text=True))
    samples: list[float] = []
    errors = 0
    for process in processes:
        out, _ = process.communicate()
        for line in out.splitlines()[1:]:  # response-time,DNS+dialup,DNS,Request-write,...
            fields = line.split(",")
            if len(fields) > 6 and fields[6].startswith("2"):  # status code column
                samples.append(float(fields[0]) * 1000)
            else:
                errors += 1
    for name in files:
        os.unlink(name)
    if not samples:  # every request failed or outlasted hey's 20 s: errors say so
        return 0.0, 0.0, errors
    samples.sort()
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    return samples[len(samples) // 2], p99, errors


def pgbench_tps(seconds: int, clients: int = 16) -> float:
    """TPC-B tps of this PostgreSQL (16 clients unless told), on its own scratch database."""
    dsn = asyncio.run(create_database(ADMIN_DSN, "cs_pgbench"))
    try:
        subprocess.run(["pgbench", "-q", "-i", "-s", "10", dsn], check=True, capture_output=True)
        out = subprocess.run(
            ["pgbench", "-c", str(clients), "-j", "2", "-T", str(seconds), dsn],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        return float(re.search(r"tps = ([\d.]+)", out).group(1))  # type: ignore[union-attr]
    finally:
        asyncio.run(drop_database(ADMIN_DSN, dsn))


class Server:
    """`cardservice serve`, or with `app` another ASGI app on the same server program."""

    def __init__(self, url: str, workdir: Path, workers: int, app: str = "") -> None:
        self.port, self.workers, self.app = _free_port(), workers, app
        self.env = {
            **os.environ,
            "CARDSERVICE_DATABASE_URL": url,
            "CARDSERVICE_ENCRYPTION_KEY": KEY,
            "CARDSERVICE_SANDBOX": "1",
            "CARDSERVICE_VAR_DIR": str(workdir),
            "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "100000000",
            "CARDSERVICE_LOG_LEVEL": "WARNING",
            "CARDSERVICE_PEER_URL": url,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def _command(self) -> list[str]:
        port, workers = ("--port", str(self.port)), ("--workers", str(self.workers))
        if not self.app:
            return [sys.executable, "-m", "cardservice", "serve", *port, *workers]
        # the service's own server settings (cli.run_server): uvloop and httptools
        return [sys.executable, "-m", "uvicorn", self.app, *port, *workers, "--no-access-log"]

    def __enter__(self) -> Server:
        self.process = subprocess.Popen(
            self._command(),
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(300):
            try:
                if httpx.get(f"{self.base}/ready").status_code == 200:
                    return self
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def __exit__(self, *_exc: object) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:  # still busy with a slow request: stop it
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def peak_rss_mb(self) -> float:
        """Largest peak RSS (VmHWM) among the worker processes."""
        assert self.process is not None
        peaks = []
        for pid in subprocess.run(
            ["pgrep", "-g", str(self.process.pid)], capture_output=True, text=True
        ).stdout.split():
            status = Path(f"/proc/{pid}/status")
            if status.exists():
                match = re.search(r"VmHWM:\s+(\d+) kB", status.read_text())
                if match:
                    peaks.append(int(match.group(1)) / 1024)
        return max(peaks, default=0.0)


PEER_ENDPOINTS = {  # what bench/peer.py answers
    "GET /card",
    "POST /card/buy",
    "POST /card/buy (one account)",
    "GET /transaction/report",
    "GET /transaction/report (deep page)",
    "GET /transaction/{uuid}",
    "POST /sandbox/authorizations",
    "POST /sandbox/authorizations (one card)",
}


def sqlite_write_tps(url: str, data: DataSet, seconds: int) -> dict[str, float]:
    """SQLite's write ceilings: each write endpoint's unit in a bare `sqlite3` loop."""
    from bench.peer import sqlite_loop_tps

    path, holder = url.split(":///", 1)[1], data.holders[0]
    pay = {"card_uuid": holder.card, "amount": 1, "merchant_name": "B"}
    buy = {"account_uuid": holder.account, "bin_uuid": data.bin_uuid, "start_balance": 1}
    return {
        "authorization": sqlite_loop_tps(path, "authorization", holder.token, pay, seconds),
        "purchase": sqlite_loop_tps(path, "purchase", holder.token, buy, seconds),
    }


def endpoints(
    data: DataSet, deep_page: int, cursor: str | None = None, only: str = ""
) -> list[Target]:
    """Reads as the heavy user; writes spread over the ordinary users (one account each),
    as many holders buy and pay at once; and the single-account write path for contrast.
    With `cursor` (the last row of page `deep_page - 1`), the keyset page at that depth;
    with `only`, just the targets whose label starts with it."""
    heavy = data.token
    targets = [
        Target("GET /card", "read", "/card", [(heavy, None)]),
        Target("GET /accounts", "read", "/accounts", [(heavy, None)]),
        Target("GET /transaction/report", "read", "/transaction/report", [(heavy, None)]),
        Target(
            "GET /transaction/report (deep page)",
            "read",
            f"/transaction/report?page={deep_page}",
            [(heavy, None)],
        ),
        Target(
            "GET /transaction/{uuid}",
            "read",
            f"/transaction/{data.transactions[0]}",
            [(heavy, None)],
        ),
        Target("GET /user/summary", "read", "/user/summary", [(heavy, None)]),
    ]
    if cursor is not None:
        targets.insert(
            4,
            Target(
                f"GET /transaction/report (keyset, page {deep_page:,})",
                "read",
                f"/transaction/report?starting_after={cursor}",
                [(heavy, None)],
            ),
        )
    if data.reference is not None:
        targets.insert(
            3,
            Target(
                f"GET /transaction/report (user with {REFERENCE_TRANSACTIONS:,})",
                "read",
                "/transaction/report",
                [(data.reference.token, None)],
            ),
        )

    def buy(account: str) -> str:
        return json.dumps({"account_uuid": account, "bin_uuid": data.bin_uuid, "start_balance": 1})

    def pay(card: str) -> str:
        return json.dumps({"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "B"})

    holders = data.holders
    targets += [
        Target(
            "POST /card/buy", "write", "/card/buy", [(h.token, buy(h.account)) for h in holders]
        ),
        Target(
            "POST /sandbox/authorizations",
            "write",
            "/sandbox/authorizations",
            [(h.token, pay(h.card)) for h in holders],
        ),
        Target("POST /card/buy (one account)", "write", "/card/buy", [(heavy, buy(data.account))]),
        Target(
            "POST /sandbox/authorizations (one card)",
            "write",
            "/sandbox/authorizations",
            [(heavy, pay(data.cards[0]))],
        ),
    ]
    return [target for target in targets if target.label.startswith(only)]


async def _prepare(kind: str, size: dict[str, int]) -> tuple[str, DataSet]:
    if kind == "sqlite":
        url = f"sqlite:///{tempfile.mkdtemp(prefix='cs_bench_')}/bench.db"
    else:
        url = await create_database(ADMIN_DSN, "cs_bench")
    try:
        settings = Settings(database_url=url, encryption_key=KEY)
        await upgrade_database(settings.resolved_database_url)
        db = runtime.database(settings)
        started = time.perf_counter()
        data = await build(db, CardCipher.from_settings(settings), **size)
        # the history's events numbered, as a running service's delivery loop leaves them:
        # the loads then measure the service at rest, not its catch-up of a bulk load
        await publish_committed(db)
        await db.dispose()
        if kind == "postgresql":  # what autovacuum does after a bulk load: visibility map
            admin = await asyncpg.connect(url)
            await admin.execute("VACUUM ANALYZE")
            await admin.close()
    except BaseException:
        await _drop(url)
        raise
    took = time.perf_counter() - started
    print(f"[{kind}] data set {size} loaded in {took:.1f}s", file=sys.stderr)
    return url, data


def measure(
    kind: str,
    url: str,
    data: DataSet,
    seconds: int,
    workers: int,
    deep_page: int,
    write_baseline: float,
    only: str = "",
) -> tuple[list[Figure], float]:
    figures: list[Figure] = []
    cursor = asyncio.run(_row_before_page(url, data, deep_page))
    # the peer's reads first and its writes after the service's: its purchases add cards to
    # the heavy user, whose reads would then walk more of them
    peer_rps = _peer(url, data, seconds, workers, deep_page, "read", only)
    unit_baselines: dict[str, float] = {}  # SQLite: each write endpoint's own unit in a loop
    if kind == "sqlite":
        unit_baselines = sqlite_write_tps(url, data, seconds)
        for unit, tps in unit_baselines.items():
            loop = Figure(kind, f"bare sqlite3 {unit} loop", "baseline", tps, 0, 0, 0, 1.0)
            figures.append(loop)
            print(row(loop), file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as workdir, Server(url, Path(workdir), workers) as server:
        rps, p50, p99, errors = wrk(f"{server.base}/health", seconds, None)
        health = Figure(kind, "GET /health", "baseline", rps, p50, p99, errors, 1.0)
        figures.append(health)
        for target in endpoints(data, deep_page, cursor, only):
            rps, p50, p99, errors, cpu, db_cpu = wrk_costed(server, target.path, seconds, target)
            if target.kind == "read":
                baseline = health.rps
            elif unit_baselines:
                unit = "purchase" if target.path == "/card/buy" else "authorization"
                baseline = unit_baselines[unit]
            else:
                baseline = write_baseline
            figure = Figure(
                kind,
                target.label,
                target.kind,
                rps,
                p50,
                p99,
                errors,
                round(rps / baseline, 3) if baseline else 0.0,
            )
            figure.cpu_ms, figure.db_cpu_ms = cpu, db_cpu
            figure.fixed_rate = round(rps / 2, 1)
            figure.fixed_p50_ms, figure.fixed_p99_ms, figure.fixed_errors = hey(
                server.base + target.path, seconds, rps / 2, target
            )
            figures.append(figure)
            print(row(figure), file=sys.stderr, flush=True)
        # /health again at the end: the baseline is the better of the two, so a dip of the
        # shared machine during one 4 s run cannot flatter every ratio of that database
        rps, p50, p99, errors = wrk(f"{server.base}/health", seconds, None)
        if rps > health.rps:
            health.rps, health.p50_ms, health.p99_ms, health.errors = rps, p50, p99, errors
            for figure in figures:
                if figure.kind == "read":
                    figure.ratio = round(figure.rps / health.rps, 3)
        rss = server.peak_rss_mb()
    peer_rps |= _peer(url, data, seconds, workers, deep_page, "write", only)
    for figure in figures:
        if figure.endpoint in peer_rps:
            figure.peer_rps, figure.peer_cpu_ms, figure.peer_db_cpu_ms = peer_rps[figure.endpoint]
            figure.peer_ratio = round(figure.rps / figure.peer_rps, 3) if figure.peer_rps else 0.0
    return figures, rss


async def _row_before_page(url: str, data: DataSet, page: int) -> str:
    """The heavy user's last transaction on report page `page - 1`: the keyset cursor that
    opens page `page` (looked up once, before the clock starts)."""
    db = runtime.database(Settings(database_url=url, encryption_key=KEY))
    try:
        found = await db.reader.value(
            "SELECT t.uuid FROM transactions t WHERE t.user_uuid = "
            "(SELECT user_uuid FROM transactions WHERE uuid = $1) "
            "ORDER BY t.created_at DESC, t.uuid DESC LIMIT 1 OFFSET $2",
            uuid.UUID(data.transactions[0]),
            (page - 1) * 20 - 1,
        )
    finally:
        await db.dispose()
    return str(text_uuid(found))


async def _export(base: str, token: str) -> tuple[int, float]:
    """Rows of the caller's whole history as CSV, and the seconds it took."""
    rows, started = 0, time.perf_counter()
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx.AsyncClient(base_url=base, timeout=None) as client,
        client.stream("GET", "/transaction/report.csv", headers=headers) as response,
    ):
        assert response.status_code == 200, response.status_code
        async for chunk in response.aiter_bytes():
            rows += chunk.count(b"\r\n")
    return rows - 1, time.perf_counter() - started  # less the header


def export_csv(kind: str, url: str, data: DataSet) -> dict[str, object]:
    """`GET /transaction/report.csv` of the heavy user's whole history from one worker: rows,
    rows/s, and the worker's peak RSS (VmHWM) before and after."""
    with tempfile.TemporaryDirectory() as workdir, Server(url, Path(workdir), 1) as server:
        httpx.get(f"{server.base}/health")
        before = server.peak_rss_mb()
        rows, seconds = asyncio.run(_export(server.base, data.token))
        after = server.peak_rss_mb()
    figure: dict[str, object] = {
        "database": kind,
        "rows": rows,
        "seconds": round(seconds, 2),
        "rows_per_s": round(rows / seconds),
        "peak_rss_mb_before": round(before, 1),
        "peak_rss_mb_after": round(after, 1),
    }
    print(f"export {json.dumps(figure)}", file=sys.stderr, flush=True)
    return figure


def _peer(
    url: str, data: DataSet, seconds: int, workers: int, deep_page: int, kind: str, only: str
) -> dict[str, tuple[float, float, float]]:
    """Peak req/s of the bare peer for each endpoint of `kind` (read, write) it answers (of
    those `only` keeps), with the CPU ms a request cost it and PostgreSQL."""
    found = {}
    with (
        tempfile.TemporaryDirectory() as workdir,
        Server(url, Path(workdir), workers, app="bench.peer:app") as peer,
    ):
        for target in endpoints(data, deep_page, only=only):
            if target.label in PEER_ENDPOINTS and target.kind == kind:
                rps, _p50, _p99, errors, cpu, db_cpu = wrk_costed(
                    peer, target.path, seconds, target
                )
                found[target.label] = (0.0 if errors else rps, cpu, db_cpu)
                print(
                    f"peer {target.label:<44} {rps:>9.1f} errors {errors}"
                    f" cpu ms {cpu} + database {db_cpu}",
                    file=sys.stderr,
                )
    return found


def row(f: Figure) -> str:
    """One figure as a line of the table."""
    return (
        f"{f.database:<10} {f.endpoint:<44} {f.rps:>9.1f} {f.ratio:>7.3f} {f.p50_ms:>7.1f}ms"
        f" {f.p99_ms:>7.1f}ms {f.errors:>6} {f.fixed_rate:>8.1f} {f.fixed_p50_ms:>6.1f}ms {f.fixed_p99_ms:>6.1f}ms"
        f" {f.fixed_errors:>6} {f.peer_ratio:>6.3f} {f.cpu_ms:>6.2f}+{f.db_cpu_ms:<5.2f}"
        f" {f.peer_cpu_ms:>6.2f}+{f.peer_db_cpu_ms:<5.2f}"
    )


def table(
    figures: list[Figure],
    write_baseline: float,
    rss: dict[str, float],
    exports: list[dict[str, object]],
) -> str:
    lines = [
        f"{'db':<10} {'endpoint':<44} {'req/s':>9} {'ratio':>7} {'p50':>8} {'p99':>8} {'errors':>6}"
        f" {'@rate':>8} {'p50':>7} {'p99':>7} {'errors':>6} {'peer':>6} {'cpu+db ms':>12}"
        f" {'peer cpu+db':>12}"
    ]
    lines += [row(f) for f in figures]
    lines.append(f"pgbench TPC-B tps (write baseline): {write_baseline:.1f}")
    lines += [f"peak RSS per worker [{db}]: {mb:.1f} MB" for db, mb in rss.items()]
    lines += [
        f"CSV export [{e['database']}]: {e['rows']:,} rows in {e['seconds']} s ="
        f" {e['rows_per_s']:,} rows/s; worker peak RSS {e['peak_rss_mb_before']} MB before,"
        f" {e['peak_rss_mb_after']} MB after"
        for e in exports
    ]
    lines.append(
        "ratios: reads against GET /health of the same server; writes against pgbench TPC-B"
        " (PostgreSQL) or the bare sqlite3 loop of the same unit (SQLite); peer: req/s against"
        " the bare peer doing the same SQL and JSON (bench/peer.py); cpu+db ms: CPU a request"
        " at peak of the server's processes + PostgreSQL's client backends (the peer's alike)"
    )
    return "\n".join(lines)


def _prepare_in_process(kind: str, size: dict[str, int]) -> tuple[str, DataSet]:
    return asyncio.run(_prepare(kind, size))


async def _drop(url: str) -> None:
    """Remove a run's database: its PostgreSQL database, or its SQLite file's directory."""
    if url.startswith("sqlite"):
        shutil.rmtree(Path(sqlite_path(url)).parent, ignore_errors=True)
    else:
        await drop_database(ADMIN_DSN, url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--only",
        default="",
        metavar="LABEL",
        help="only the endpoints whose label starts with LABEL, e.g. 'POST /card/buy'",
    )
    args = parser.parse_args()
    for tool in ("wrk", "hey", "pgbench"):
        if shutil.which(tool) is None:
            print(f"bench: {tool} is missing (make bench installs it)", file=sys.stderr)
            return 2
    size = (
        {"cards": 100, "transactions": 10_000, "users": 50}
        if args.quick
        else {"cards": 1000, "transactions": 1_000_000, "users": 1000}
    )
    seconds = 4 if args.quick else 15
    deep_page = 200 if args.quick else 20_000
    kinds = args.databases.split(",")
    # The data sets are built side by side, one process each (CPU-bound Python), then
    # measured one database at a time on a quiet machine.
    with ProcessPoolExecutor(max_workers=len(kinds)) as pool:
        prepared = dict(
            zip(kinds, pool.map(_prepare_in_process, kinds, [size] * len(kinds)), strict=True)
        )
    write_baseline = pgbench_tps(seconds)
    figures: list[Figure] = []
    rss: dict[str, float] = {}
    exports: list[dict[str, object]] = []
    RESULTS.mkdir(exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = RESULTS / f"{'quick' if args.quick else 'full'}-{stamp}.json"
    try:
        for kind in kinds:
            url, data = prepared[kind]
            measured, rss[kind] = measure(
                kind, url, data, seconds, args.workers, deep_page, write_baseline, args.only
            )
            figures += measured
            exports.append(export_csv(kind, url, data))
            out.write_text(  # after each database, so a failure keeps what was measured
                json.dumps(
                    {
                        "size": size,
                        "seconds": seconds,
                        "workers": args.workers,
                        "pgbench_tps": write_baseline,
                        "peak_rss_mb": rss,
                        "figures": [asdict(f) for f in figures],
                        "exports": exports,
                    },
                    indent=2,
                )
            )
    finally:
        for url, _data in prepared.values():
            asyncio.run(_drop(url))
    print(table(figures, write_baseline, rss, exports))
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

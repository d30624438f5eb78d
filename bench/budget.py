"""`python -m bench.profile --budget`: the CPU a request costs, layer by layer.

For each endpoint of `ENDPOINTS`, on the database given, the requests go through the
service as `cardservice serve` runs it — uvicorn's HTTP protocol (httptools, the service's
own protocol class), uvloop, the app with its middleware, metrics in multiprocess mode (the
files of `PROMETHEUS_MULTIPROC_DIR`), the access log at INFO in JSON — but in this one
process and thread: the raw request bytes are handed to the protocol by a transport that
keeps what it writes (no socket, no client, no other process's CPU in the figure; the
kernel's share of a socket write is the one thing not measured). The bare peer
(`bench/peer.py`) is driven the same way.

Two passes per endpoint:
1. **the total**: `ROUNDS` rounds of `--requests` requests, this process's CPU time
   (`time.process_time_ns`, every thread) per request in each round; the median.
2. **the shares**: py-spy samples this process from outside while the same requests run,
   with native frames (`--native`: asyncpg's and uvloop's C code, the socket writes to
   PostgreSQL, are seen where they run; py-spy stops the process for each sample, which
   costs wall time, not the CPU figures of pass 1). A sample whose innermost frame is a wait
   (`IDLE`) is an idle thread and dropped; every other goes to one layer, the innermost
   frame of its stack that a rule of `LAYERS` names (a statement run by the authentication
   dependency is the authentication's, one of the background loop is the loop's). Each
   layer's row is its share of the samples times the total, so the rows sum to it.

CPU time is what the shared two cores cannot inflate much (a request that waits for a core
does not consume CPU meanwhile); a sample's share is steady to ~1 % at the default counts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import uvloop
from starlette.types import ASGIApp

from bench.dataset import DataSet
from bench.run import Target, endpoints

ENDPOINTS = (
    "GET /transaction/{uuid}",
    "GET /transaction/report",
    "POST /sandbox/authorizations",
    "POST /card/buy",
)
ROUNDS = 7

# (layer, path fragment of the frame's file, function names or None for any): the innermost
# frame of a sample's stack that one of these names decides its layer; a frame named by none
# is server protocol (uvicorn, httptools, the event loop) when no frame of the stack is.
LAYERS: list[tuple[str, str, tuple[str, ...] | None]] = [
    ("background loop (webhook worker, sweeps)", "cardservice/webhooks/worker.py", None),
    ("background loop (webhook worker, sweeps)", "cardservice/infra/background.py", None),
    ("statement(s)", "protocol.c", None),  # asyncpg's Cython protocol (native frames)
    ("statement(s)", "pgproto.c", None),
    ("metrics", "prometheus_client/", None),
    ("metrics", "cardservice/observability/metrics.py", None),
    ("tracing", "cardservice/observability/tracing.py", None),
    ("access log", "cardservice/observability/logs.py", None),
    ("access log", "logging/__init__.py", None),
    ("rate limit", "cardservice/http/ratelimit.py", None),
    ("rate limit", "limits/", None),
    ("authentication", "cardservice/auth/", None),
    ("Db dependency", "cardservice/db/database.py", ("database",)),
    ("statement(s)", "cardservice/db/sql.py", None),
    ("statement(s)", "cardservice/db/database.py", None),
    ("statement(s)", "cardservice/db/replica.py", None),
    ("statement(s)", "asyncpg/", None),
    ("statement(s)", "sqlite3/", None),
    ("statement(s)", "asyncio/", ("to_thread",)),
    (
        "statement(s)",
        "bench/peer.py",
        ("rows", "row", "execute", "unit", "authorize", "sqlite_unit"),
    ),
    ("JSON", "cardservice/encoding.py", None),
    ("JSON", "cardservice/http/router.py", ("render", "ok", "done")),
    ("JSON", "bench/peer.py", ("_json", "_default")),
    ("response", "starlette/responses.py", None),
    ("response", "bench/peer.py", ("_answer",)),
    (
        "request body",
        "cardservice/http/router.py",
        ("read_json", "parse_json", "read_limited", "require_json", "nul_errors"),
    ),
    ("request body", "starlette/requests.py", ("stream", "body", "json")),
    ("request body", "bench/peer.py", ("_body",)),
    ("record", "/records.py", None),
    ("record", "transactions/reports.py", None),
    ("record", "bench/peer.py", ("_transaction", "_card", "_u", "_money")),
    ("endpoint (route function)", "/routes.py", None),
    ("endpoint (route function)", "bench/peer.py", ("app",)),
    ("write: engine, ledger, events", "cardservice/transactions/", None),
    ("write: engine, ledger, events", "cardservice/ledger/", None),
    ("write: engine, ledger, events", "cardservice/cards/", None),
    ("write: engine, ledger, events", "cardservice/events/", None),
    ("write: engine, ledger, events", "cardservice/security/", None),
    ("write: engine, ledger, events", "cardservice/values/amounts.py", None),
    ("write: engine, ledger, events", "bench/peer.py", ("_buy", "_authorize")),
    ("page dependency", "cardservice/http/router.py", ("standard_page",)),
    ("routing", "cardservice/http/route.py", ("matches", "first_segment", "route_path")),
    ("routing", "starlette/routing.py", None),
    ("FastAPI: dependencies", "fastapi/dependencies/", None),
    ("request handler (cardservice.http.route)", "cardservice/http/route.py", None),
    ("FastAPI: app, request handler", "fastapi/", None),
    ("request-context middleware", "cardservice/http/middleware.py", None),
    ("Starlette: app, error middlewares", "starlette/middleware/", None),
    ("Starlette: app, error middlewares", "starlette/applications.py", None),
    ("Starlette: app, error middlewares", "starlette/_exception_handler.py", None),
    ("server protocol (uvicorn, httptools)", "uvicorn/", None),
    ("server protocol (uvicorn, httptools)", "parser.c", None),  # httptools (native frames)
    ("server protocol (uvicorn, httptools)", "bench/budget.py", ("write", "request")),
]
# Where a statement or a body's parse runs inside one of these, it is that layer's own.
OWNERS = ("authentication", "rate limit", "background loop (webhook worker, sweeps)")
SERVER = "event loop, sockets, C (uvloop; no Python frame)"
# A sample whose innermost native frame is one of these waits: the thread is idle (py-spy's
# --native mode cannot tell idle threads itself).
IDLE = ("epoll_wait", "epoll_pwait", "futex", "pthread_cond_wait", "pthread_cond_timedwait",
        "sem_wait", "sem_timedwait", "select", "poll", "nanosleep", "clock_nanosleep")  # fmt: skip
ORDER = [SERVER, *list(dict.fromkeys(layer for layer, _, _ in reversed(LAYERS)))]


def _parse_frame(frame: str) -> tuple[str, str]:
    """`Class.function (path/file.py:12)` → (function, path)."""
    name, _, where = frame.rpartition(" (")
    return name.rsplit(".", 1)[-1], where.rsplit(":", 1)[0]


def layer_of(stack: list[str]) -> str:
    """The layer of one sample: `stack` outermost frame first."""
    found: str | None = None
    for frame in reversed(stack):
        name, path = _parse_frame(frame)
        for layer, fragment, names in LAYERS:
            if fragment in path and (names is None or name in names):
                if found is None:
                    found = layer
                elif layer in OWNERS:  # the auth's own statement, the limiter's own lock
                    return layer
                break
    return found or SERVER


class _Transport:
    """What uvicorn's protocol writes to, kept; `answered` is set at each response's end."""

    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.answered: asyncio.Future[None] | None = None
        self._closing = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 40000)}.get(
            name, default
        )

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self._closing = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...

    def set_write_buffer_limits(self, *_args: Any) -> None: ...


def _raw(target: Target) -> list[bytes]:
    """Each of `target`'s variants as the bytes of an HTTP/1.1 request."""
    requests = []
    for token, body in target.variants:
        head = f"{target.method} {target.path} HTTP/1.1\r\nhost: bench\r\n"
        head += f"authorization: Bearer {token}\r\nuser-agent: bench\r\n"
        payload = (body or "").encode()
        if body is not None:
            head += f"content-type: application/json\r\ncontent-length: {len(payload)}\r\n"
        requests.append(head.encode() + b"\r\n" + payload)
    return requests


class Driver:
    """One keep-alive connection of uvicorn's HTTP protocol to `app`, requests one at a
    time."""

    def __init__(self, app: ASGIApp) -> None:
        import uvicorn
        from uvicorn.server import ServerState

        from cardservice.http.protocol import protocol_class

        self.config = uvicorn.Config(
            app, http=protocol_class(), loop="none", lifespan="off", access_log=False,
            log_config=None, proxy_headers=False,
        )  # fmt: skip
        self.config.load()
        base = protocol_class()

        class Protocol(base):  # type: ignore[valid-type,misc]
            def on_response_complete(self) -> None:
                super().on_response_complete()
                transport: _Transport = self.transport  # type: ignore[assignment]
                if transport.answered is not None and not transport.answered.done():
                    transport.answered.set_result(None)

        self.transport = _Transport()
        self.protocol = Protocol(self.config, ServerState(), {})
        self.protocol.connection_made(self.transport)

    async def request(self, raw: bytes) -> bytes:
        self.transport.written.clear()
        self.transport.answered = asyncio.get_running_loop().create_future()
        self.protocol.data_received(raw)
        await self.transport.answered
        return b"".join(self.transport.written)

    async def run(self, raws: list[bytes], count: int, check: str = "") -> None:
        """`count` requests; with `check` (the app's name), a first answer other than 200 or
        201 is an error that names the app."""
        for i in range(count):
            answer = await self.request(raws[i % len(raws)])
            if check and not answer.startswith((b"HTTP/1.1 200", b"HTTP/1.1 201")):
                raise RuntimeError(f"{check}: " + answer[:300].decode(errors="replace"))


@dataclass
class Budget:
    label: str
    cpu_us: float  # the median of the rounds
    spread_us: tuple[float, float]  # the rounds' lowest and highest
    samples: int
    layers: dict[str, float]  # µs per request
    peer_ratio: float = 0.0  # the peer's CPU ÷ this app's, round by round, the median


def _samples(path: Path) -> Counter[str]:
    """py-spy's raw (collapsed) output: `frame;frame;… count` per distinct stack."""
    layers: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = stack.split(";")
        if frames and frames[0].startswith("thread "):  # --threads names the thread first
            frames = frames[1:]
        if not frames or frames[-1].split(" (", 1)[0] in IDLE:
            continue
        layers[layer_of(frames)] += int(count)
    return layers


def measure(
    loop: asyncio.AbstractEventLoop,
    apps: dict[str, ASGIApp],
    target: Target,
    requests: int,
    seconds: float,
    rate: int,
) -> dict[str, Budget]:
    """`target` on each of `apps` (the service, the peer, …): the totals in rounds that take
    turns app by app, so that the shared machine's load falls on all alike; then each app's
    shares."""
    raws = _raw(target)
    drivers = {name: Driver(app) for name, app in apps.items()}
    for name, driver in drivers.items():
        loop.run_until_complete(driver.run(raws, 50, check=name))  # warm pools and caches
    per_request: dict[str, list[float]] = {name: [] for name in apps}
    for _ in range(ROUNDS):
        for name, driver in drivers.items():
            started = time.process_time_ns()
            loop.run_until_complete(driver.run(raws, requests))
            per_request[name].append((time.process_time_ns() - started) / requests / 1000)
    budgets = {}
    for name, driver in drivers.items():
        total = statistics.median(per_request[name])
        counts = _shares(loop, driver, raws, seconds, rate)
        samples = sum(counts.values())
        budgets[name] = Budget(
            target.label,
            round(total, 1),
            (round(min(per_request[name]), 1), round(max(per_request[name]), 1)),
            samples,
            {layer: total * n / samples for layer, n in counts.items()} if samples else {},
        )
    for name in apps:  # the peer's CPU ÷ the app's, round by round: the median
        if name != "peer" and "peer" in per_request:
            rounds = zip(per_request["peer"], per_request[name], strict=True)
            ratios = [peer / app for peer, app in rounds]
            budgets[name].peer_ratio = round(statistics.median(ratios), 3)
    return budgets


def _shares(
    loop: asyncio.AbstractEventLoop, driver: Driver, raws: list[bytes], seconds: float, rate: int
) -> Counter[str]:
    """py-spy's samples of `driver`'s requests for `seconds`, counted by layer."""
    py_spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "samples.txt"
        spy = subprocess.Popen(
            [
                py_spy, "record", "--pid", str(os.getpid()), "--rate", str(rate),
                "--duration", str(int(seconds)), "--format", "raw", "--native",
                "--output", str(out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        while spy.poll() is None:
            loop.run_until_complete(driver.run(raws, 50))
        if spy.returncode != 0:
            raise RuntimeError(f"py-spy: {spy.stderr.read().decode() if spy.stderr else ''}")
        return _samples(out)


def table(kind: str, budgets: list[Budget], peer: dict[str, Budget]) -> str:
    """A Markdown table: a row per layer, a column per endpoint (µs of CPU per request)."""
    head = "| layer (µs CPU / request) | " + " | ".join(b.label for b in budgets) + " |"
    lines = [f"**{kind}**", "", head, "|---|" + "---:|" * len(budgets)]
    for layer in ORDER:
        if not any(b.layers.get(layer, 0) >= 0.5 for b in budgets):
            continue
        cells = [f"{b.layers.get(layer, 0.0):.0f}" for b in budgets]
        lines.append(f"| {layer} | " + " | ".join(cells) + " |")
    lines.append(
        "| **total** (median of rounds) | "
        + " | ".join(f"**{b.cpu_us:.0f}**" for b in budgets)
        + " |"
    )
    lines.append(
        "| rounds' range | "
        + " | ".join(f"{b.spread_us[0]:.0f}–{b.spread_us[1]:.0f}" for b in budgets)
        + " |"
    )
    lines.append("| py-spy samples | " + " | ".join(f"{b.samples:,}" for b in budgets) + " |")
    if peer:
        cells = [f"{peer[b.label].cpu_us:.0f}" if b.label in peer else "" for b in budgets]
        lines.append("| bare peer, total | " + " | ".join(cells) + " |")
        cells = [f"{b.peer_ratio:.2f}" for b in budgets]
        lines.append("| peer ÷ this (the rounds' median) | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def peer_table(kind: str, peer: dict[str, Budget]) -> str:
    budgets = list(peer.values())
    return table(f"{kind}: the bare peer, same driver", budgets, {})


def quiet_access_log() -> Callable[[], None]:
    """The access log at INFO in JSON, as served, written to /dev/null (a write per line)."""
    from cardservice.observability.logs import JsonFormatter

    sink = open(os.devnull, "w")  # noqa: SIM115
    handler = logging.StreamHandler(sink)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    saved = root.handlers[:]
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)

    def restore() -> None:
        root.handlers[:] = saved
        sink.close()

    return restore


SERVICE = "service"


def run_budget(
    loop: asyncio.AbstractEventLoop,
    apps: dict[str, ASGIApp],
    data: DataSet,
    requests: int,
    seconds: float,
    rate: int,
    labels: tuple[str, ...] = ENDPOINTS,
) -> dict[str, list[Budget]]:
    """Each of `labels` (of `ENDPOINTS`) on each of `apps` (`SERVICE` first): budgets by app."""
    targets = {t.label: t for t in endpoints(data, deep_page=50)}
    budgets: dict[str, list[Budget]] = {name: [] for name in apps}
    for label in labels:
        for name, budget in measure(loop, apps, targets[label], requests, seconds, rate).items():
            print(name, json.dumps(budget.__dict__), file=sys.stderr, flush=True)
            budgets[name].append(budget)
    return budgets


def new_loop() -> asyncio.AbstractEventLoop:
    """uvloop, as `cardservice serve` runs."""
    loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    return loop

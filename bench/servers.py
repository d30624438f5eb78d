"""uvicorn against granian, for the service and the bare peer alike (issue 34).

    python -m bench.servers --database postgresql      # needs `pip install granian`

One small data set (`bench.run --quick`'s), then for each server program the service and the
peer on two workers, `wrk -t2 -c64` on each budget endpoint; the servers take turns endpoint
by endpoint (uvicorn, granian, uvicorn, granian) so a change of the shared machine's load
falls on both. Prints req/s per server and the ratio granian ÷ uvicorn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.budget import ENDPOINTS
from bench.run import Server, _drop, _prepare, endpoints, wrk

SIZE = {"cards": 100, "transactions": 10_000, "users": 50}


class Granian(Server):
    """The same app and environment as `Server`, served by granian (uvloop, HTTP/1.1)."""

    def _command(self) -> list[str]:
        target = self.app or "cardservice.asgi:app"
        granian = str(Path(sys.executable).with_name("granian"))
        return [
            granian, "--interface", "asgi", "--loop", "uvloop", "--http", "1", "--no-ws",
            "--host", "127.0.0.1", "--port", str(self.port), "--workers", str(self.workers),
            "--no-log", target,
        ]  # fmt: skip

    def __enter__(self) -> Granian:
        if not self.app:  # what `cardservice serve` sets before its workers start
            self.metrics = tempfile.mkdtemp(prefix="cs_granian_metrics_")
            self.env |= {"PROMETHEUS_MULTIPROC_DIR": self.metrics, "CARDSERVICE_WORKERS": "2"}
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
        raise RuntimeError("granian did not start")

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if getattr(self, "metrics", None):
            shutil.rmtree(self.metrics, ignore_errors=True)


def compare(kind: str, seconds: int, rounds: int) -> list[dict[str, object]]:
    url, data, name = asyncio.run(_prepare(kind, SIZE))
    rows: list[dict[str, object]] = []
    try:
        targets = [t for t in endpoints(data, deep_page=50) if t.label in ENDPOINTS]
        for app in ("", "bench.peer:app"):
            with tempfile.TemporaryDirectory() as workdir:
                servers = {
                    "uvicorn": Server(url, Path(workdir), 2, app),
                    "granian": Granian(url, Path(workdir), 2, app),
                }
                measured: dict[tuple[str, str], list[float]] = {}
                errors: dict[tuple[str, str], int] = {}
                for _ in range(rounds):
                    for program, server in servers.items():
                        with server:
                            for target in targets:
                                rps, _p50, _p99, failed = wrk(
                                    server.base + target.path, seconds, target
                                )
                                key = (program, target.label)
                                measured.setdefault(key, []).append(rps)
                                errors[key] = errors.get(key, 0) + failed
                for target in targets:
                    uvicorn = max(measured[("uvicorn", target.label)])
                    granian = max(measured[("granian", target.label)])
                    row = {
                        "database": kind,
                        "app": app or "service",
                        "endpoint": target.label,
                        "uvicorn": round(uvicorn, 1),
                        "granian": round(granian, 1),
                        "granian_over_uvicorn": round(granian / uvicorn, 3),
                        "errors": {p: errors[(p, target.label)] for p in servers},
                    }
                    print(json.dumps(row), flush=True)
                    rows.append(row)
    finally:
        asyncio.run(_drop(name))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2, help="the better round is kept")
    args = parser.parse_args()
    os.environ.setdefault("CARDSERVICE_LOG_LEVEL", "WARNING")
    for kind in args.databases.split(","):
        compare(kind, args.seconds, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

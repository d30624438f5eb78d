"""Issue 16's bench rows, against `cardservice serve` as deployed (2 workers):

1. authorization throughput (wrk, 64 connections, spread over one card per holder) with
   spending controls on every card — all five limits and tag and country lists, so every
   authorization reads its window sums — against the same cards without controls, in the
   same run, in ABBA order (four runs each, their mean);
2. the same authorizations with a decision endpoint set for every holder, answering at
   once on loopback: peak, then p99 at half that peak (hey, fixed rate).

    python -m bench.controls [--databases sqlite,postgresql] [--seconds 8]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import httpx

from bench.dataset import DataSet
from bench.run import RESULTS, Server, Target, _drop, _free_port, _prepare, hey, wrk

SIZE = {"cards": 10, "transactions": 1_000, "users": 64}
CONTROLS = {
    "per_authorization": 1000,
    "daily": 10_000_000,
    "weekly": 10_000_000,
    "monthly": 10_000_000,
    "lifetime": 10_000_000,
    "blocked_tags": ["uber"],
    "blocked_countries": ["RU"],
}
ORDER = (False, True, True, False, False, True, True, False)  # with controls?
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


def _target(data: DataSet) -> Target:
    def pay(card: str) -> str:
        return json.dumps({"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "B"})

    return Target(
        "POST /sandbox/authorizations",
        "write",
        "/sandbox/authorizations",
        [(h.token, pay(h.card)) for h in data.holders],
    )


def _set_controls(base: str, data: DataSet, controls: dict[str, object] | None) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        for holder in data.holders:
            response = client.patch(
                f"/card/{holder.card}",
                json={"spending_controls": controls},
                headers={"Authorization": f"Bearer {holder.token}"},
            )
            response.raise_for_status()


def _set_endpoint(base: str, data: DataSet, url: str) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        for holder in data.holders:
            response = client.put(
                "/authorization-endpoint",
                json={"url": url, "timeout_ms": 1000},
                headers={"Authorization": f"Bearer {holder.token}"},
            )
            response.raise_for_status()


def measure(kind: str, url: str, data: DataSet, seconds: int) -> dict[str, object]:
    target = _target(data)
    port = _free_port()
    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER, str(port)])
    try:
        with tempfile.TemporaryDirectory() as workdir, Server(url, Path(workdir), 2) as server:
            endpoint = server.base + target.path
            plain, controlled = [], []
            for controls in ORDER:  # ABBA: a drift of the machine or the data cancels out
                _set_controls(server.base, data, CONTROLS if controls else None)
                (controlled if controls else plain).append(wrk(endpoint, seconds, target))
            _set_controls(server.base, data, None)
            _set_endpoint(server.base, data, f"http://127.0.0.1:{port}/decide")
            asked = wrk(endpoint, seconds, target)
            p50, p99, errors = hey(endpoint, seconds, asked[0] / 2, target)
    finally:
        receiver.terminate()
        receiver.wait(timeout=10)
    without = sum(run[0] for run in plain) / len(plain)
    with_controls = sum(run[0] for run in controlled) / len(controlled)
    return {
        "database": kind,
        "without_controls_rps": round(without, 1),
        "with_controls_rps": round(with_controls, 1),
        "controls_ratio": round(with_controls / without, 3),
        "errors": sum(f[3] for f in plain + controlled),
        "runs": {"without": plain, "with": controlled},
        "endpoint_peak_rps": round(asked[0], 1),
        "endpoint_peak_p99_ms": asked[2],
        "endpoint_half_peak_rate": round(asked[0] / 2, 1),
        "endpoint_half_peak_p50_ms": round(p50, 1),
        "endpoint_half_peak_p99_ms": round(p99, 1),
        "endpoint_errors": asked[3] + errors,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--seconds", type=int, default=8)
    args = parser.parse_args()
    rows = []
    for kind in args.databases.split(","):
        url, data, name = asyncio.run(_prepare(kind, SIZE))
        try:
            rows.append(measure(kind, url, data, args.seconds))
        finally:
            asyncio.run(_drop(name))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"controls-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.json"
    out.write_text(json.dumps({"size": SIZE, "seconds": args.seconds, "rows": rows}, indent=2))
    print(
        f"{'db':<11}{'no controls':>12}{'controls':>10}{'ratio':>7}{'endpoint':>10}"
        f"{'@half':>8}{'p50':>8}{'p99':>8}{'errors':>8}"
    )
    for r in rows:
        print(
            f"{r['database']:<11}{r['without_controls_rps']:>12}{r['with_controls_rps']:>10}"
            f"{r['controls_ratio']:>7}{r['endpoint_peak_rps']:>10}{r['endpoint_half_peak_rate']:>8}"
            f"{r['endpoint_half_peak_p50_ms']:>7}ms{r['endpoint_half_peak_p99_ms']:>6}ms"
            f"{r['errors'] + r['endpoint_errors']:>8}"  # type: ignore[operator]
        )
    print(f"written {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

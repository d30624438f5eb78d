"""CPU per POST of the service's HTTP client for users' URLs (`outbound.Outbound`, h11 on
asyncio streams) against a general client (httpx) doing the same POST, in the same run, to
one loopback receiver in a process of its own (the receiver's CPU is not counted).

Each delivery and each decision-endpoint call pays this once; measured because httpx cost
~0.8 ms of CPU per call, most of a webhook delivery (issue 15).

    python -m bench.outbound_cpu [--calls 6400]
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime

import httpx
import uvloop

from bench.controls import RECEIVER
from bench.run import _free_port
from cardservice.infra.outbound import Outbound, new_secret, signed_headers

CONCURRENCY = 32  # the delivery loop's default attempts in flight
BODY = b'{"type": "authorization.approved", "data": {"pad": "' + b"x" * 400 + b'"}}'


async def _cpu_per_call(call: Callable[[], Awaitable[int]], calls: int) -> float:
    """Microseconds of this process's CPU per call, `CONCURRENCY` in flight."""
    await asyncio.gather(*(call() for _ in range(CONCURRENCY)))  # connections opened
    started = time.process_time()
    for _ in range(calls // CONCURRENCY):
        statuses = await asyncio.gather(*(call() for _ in range(CONCURRENCY)))
        assert set(statuses) == {200}, statuses
    return (time.process_time() - started) / calls * 1e6


async def _measure(url: str, calls: int) -> dict[str, float]:
    secret = new_secret()

    def headers() -> dict[str, str]:
        return signed_headers([secret], "msg_bench", BODY, datetime.now(UTC))

    async with Outbound() as ours, httpx.AsyncClient(trust_env=False) as general:

        async def with_ours() -> int:
            answer = await ours.post(url, BODY, headers(), allow_private=True, limit=65536)
            return answer.status

        async def with_httpx() -> int:
            async with general.stream("POST", url, content=BODY, headers=headers()) as response:
                return response.status_code

        figures: dict[str, list[float]] = {"outbound": [], "httpx": []}
        for _ in range(2):  # interleaved: a drift of the machine falls on both
            figures["httpx"].append(await _cpu_per_call(with_httpx, calls))
            figures["outbound"].append(await _cpu_per_call(with_ours, calls))
    return {name: min(values) for name, values in figures.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=6400)
    calls = parser.parse_args().calls
    port = _free_port()
    receiver = subprocess.Popen([sys.executable, "-c", RECEIVER, str(port)])
    try:
        time.sleep(1.5)  # uvicorn starting
        figures = uvloop.run(_measure(f"http://127.0.0.1:{port}/hook", calls))
    finally:
        receiver.terminate()
        receiver.wait(timeout=10)
    print(f"CPU per POST, {calls} calls, {CONCURRENCY} in flight (best of 2):")
    print(f"  httpx     {figures['httpx']:7.0f} µs   1.000")
    print(
        f"  Outbound  {figures['outbound']:7.0f} µs   {figures['outbound'] / figures['httpx']:.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

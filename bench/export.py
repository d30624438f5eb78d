"""CSV export at depth (API.md §11): `GET /transaction/report.csv` of a long history,
streamed by a real server, with the worker's peak memory and the rows per second.

    python -m bench.export --transactions 1000000            # the issue's figure
    python -m bench.export --transactions 100000 --databases sqlite

Prints, per database: rows received, seconds, rows/s, the worker's peak RSS before and after
the export (VmHWM), and the `/health` RSS baseline of the same server.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

import httpx

from bench.run import Server, _drop, _prepare


async def _export(base: str, token: str) -> tuple[int, float]:
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


def run(kind: str, transactions: int) -> str:
    size = {"cards": 10, "transactions": transactions, "users": 1}
    url, data, name = asyncio.run(_prepare(kind, size))
    try:
        with Server(url, Path(name if name.startswith("/") else "/tmp"), workers=1) as server:
            httpx.get(f"{server.base}/health")
            before = server.peak_rss_mb()
            rows, seconds = asyncio.run(_export(server.base, data.token))
            after = server.peak_rss_mb()
    finally:
        asyncio.run(_drop(name))
    return (
        f"{kind}: {rows} rows in {seconds:.1f} s = {rows / seconds:,.0f} rows/s;"
        f" worker peak RSS {before:.1f} MB before, {after:.1f} MB after the export"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--transactions", type=int, default=1_000_000)
    parser.add_argument("--databases", default="postgresql,sqlite")
    args = parser.parse_args()
    for kind in args.databases.split(","):
        print(run(kind, args.transactions), file=sys.stdout, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

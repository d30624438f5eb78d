"""CSV export at depth (API.md §11) on its own: `GET /transaction/report.csv` of a long
history, streamed by a real server (one worker), with the worker's peak memory and the rows
per second. `make bench` measures the same on its 1 M data set (`bench.run.export_csv`).

    python -m bench.export --transactions 1000000            # the issue's figure
    python -m bench.export --transactions 100000 --databases sqlite
"""

from __future__ import annotations

import argparse
import asyncio

from bench.run import _drop, _prepare, export_csv


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--transactions", type=int, default=1_000_000)
    parser.add_argument("--databases", default="postgresql,sqlite")
    args = parser.parse_args()
    size = {"cards": 100, "transactions": args.transactions, "users": 1}  # 10 cards run dry
    for kind in args.databases.split(","):
        url, data, name = asyncio.run(_prepare(kind, size))
        try:
            export_csv(kind, url, data)
        finally:
            asyncio.run(_drop(name))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

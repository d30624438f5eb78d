"""Checkouts back to back: two or more checkouts of cardservice measured in turns, round
after round, on one machine, each by its own `bench.run` (its data set, its server), so the
drift of a shared machine falls on each of them alike.

    python -m bench.checkouts ../parent . --rounds 4 --seconds 6

Each checkout needs its own `.venv` (`make install` there; `git worktree add` makes one of a
commit). Every checkout builds the quick data set on its own PostgreSQL database
(`CARDSERVICE_BENCH_PG`), then in every round serves it with two workers and runs wrk
(64 connections) on `GET /health` and the write endpoints: purchases and authorizations
spread over the ordinary holders, and authorizations on one card; with `--reads`, on a data
set of 10,000 transactions, the heavy user's reads instead. Prints each round's lines
as they come and, at the end, each endpoint's median per checkout and its ratio to the first
checkout's. Used to attribute a change between commits (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

WRITES = (
    "GET /health",
    "POST /card/buy",
    "POST /sandbox/authorizations",
    "POST /sandbox/authorizations (one card)",
)
READS = (
    "GET /health",
    "GET /card",
    "GET /accounts",
    "GET /transaction/report",
    "GET /transaction/report (page 200)",
    "GET /transaction/{uuid}",
    "GET /user/summary",
)


def _drive(seconds: int, reads: bool) -> None:
    """In a checkout (cwd, its venv): prepare, then a round per `go` line on stdin."""
    import asyncio
    import tempfile

    sys.path.insert(0, os.getcwd())
    from bench import run  # the checkout's own bench

    size = {"cards": 100, "transactions": 10_000 if reads else 2_000, "users": 50}
    url, data, name = asyncio.run(run._prepare("postgresql", size))

    def body_buy(account: str) -> str:
        return json.dumps({"account_uuid": account, "bin_uuid": data.bin_uuid, "start_balance": 1})

    def body_pay(card: str) -> str:
        amount = {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "B"}
        return json.dumps(amount)

    # the targets are spelled here, not taken from `run.endpoints`: its signature changed
    # between the commits this compares (the cursor, the reference user); these use only
    # the data set's fields every checkout since a723f00 has
    heavy = [(data.token, None)]
    holders = data.holders
    targets = [
        run.Target(READS[1], "read", "/card", heavy),
        run.Target(READS[2], "read", "/accounts", heavy),
        run.Target(READS[3], "read", "/transaction/report", heavy),
        run.Target(READS[4], "read", "/transaction/report?page=200", heavy),
        run.Target(READS[5], "read", f"/transaction/{data.transactions[0]}", heavy),
        run.Target(READS[6], "read", "/user/summary", heavy),
    ] if reads else [
        run.Target(WRITES[1], "write", "/card/buy", [(h.token, body_buy(h.account)) for h in holders]),
        run.Target(WRITES[2], "write", "/sandbox/authorizations", [(h.token, body_pay(h.card)) for h in holders]),
        run.Target(WRITES[3], "write", "/sandbox/authorizations", [(data.token, body_pay(data.cards[0]))]),
    ]  # fmt: skip
    print("ready", flush=True)
    try:
        for line in sys.stdin:
            if line.strip() != "go":
                break
            with (
                tempfile.TemporaryDirectory() as workdir,
                run.Server(url, Path(workdir), 2) as server,
            ):
                rps, p50, p99, _errors = run.wrk(f"{server.base}/health", seconds, None)
                print(json.dumps(["GET /health", rps, p50, p99]), flush=True)
                for target in targets:
                    rps, p50, p99, _errors = run.wrk(server.base + target.path, seconds, target)
                    print(json.dumps([target.label, rps, p50, p99]), flush=True)
            print("done", flush=True)
    finally:
        asyncio.run(run._drop(name))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("checkouts", nargs="+", type=Path)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=6)
    parser.add_argument("--reads", action="store_true", help="the reads instead of the writes")
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drive:
        _drive(args.seconds, args.reads)
        return 0
    drivers = []
    for checkout in args.checkouts:
        python = checkout.resolve() / ".venv" / "bin" / "python"
        command = [str(python), str(Path(__file__).resolve()), "--drive"]
        drivers.append(
            subprocess.Popen(
                [
                    *command,
                    "--seconds",
                    str(args.seconds),
                    *(["--reads"] if args.reads else []),
                    ".",
                ],
                cwd=checkout,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    figures: dict[tuple[int, str], list[float]] = {}
    try:
        for driver in drivers:
            assert driver.stdout is not None
            if driver.stdout.readline().strip() != "ready":
                raise RuntimeError("a checkout could not build its data set")
        for round_ in range(args.rounds):
            for n, driver in enumerate(drivers):
                assert driver.stdin is not None and driver.stdout is not None
                load = Path("/proc/loadavg").read_text().split()[0]
                driver.stdin.write("go\n")
                driver.stdin.flush()
                for line in iter(driver.stdout.readline, "done\n"):
                    endpoint, rps, p50, p99 = json.loads(line)
                    figures.setdefault((n, endpoint), []).append(rps)
                    name = args.checkouts[n]
                    print(
                        f"round {round_} load {load:>5} {name!s:<28} {endpoint:<42}"
                        f" {rps:9.1f}/s p50 {p50:7.1f} ms p99 {p99:7.1f} ms",
                        flush=True,
                    )
    finally:
        for driver in drivers:
            if driver.stdin is not None:
                driver.stdin.close()
        for driver in drivers:
            driver.wait(timeout=120)
    print("\nmedians (requests/s) and ratio to the first checkout")
    for endpoint in READS if args.reads else WRITES:
        first = statistics.median(figures[(0, endpoint)])
        cells = []
        for n, checkout in enumerate(args.checkouts):
            median = statistics.median(figures[(n, endpoint)])
            cells.append(f"{checkout}: {median:8.1f} ({median / first:5.2f}×)")
        print(f"{endpoint:<42} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

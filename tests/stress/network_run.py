"""Network run: `cardservice network run --seed 1 --seconds 60 --faults all --clearing-file
FILE` against `cardservice serve --iso8583-port …` on a fresh database (real processes: on
PostgreSQL two workers share the ISO 8583 port with SO_REUSEPORT; on SQLite one), then the
day's settlement: the run's IPM clearing file ingested (`cardservice clearing ingest FILE`,
the ingest of `POST /operator/clearing-files`) and checked against the books.

    python -m tests.stress.network_run --seconds 60      # make stress (PostgreSQL)
    python -m tests.stress.network_run --seconds 60 --database sqlite
    (a short run on both databases is part of make test: tests/stress/test_network_run.py)

The simulator checks its own bookkeeping (0 cents lost, 0 applied twice, every answer within
3 s) and exits non-zero when a check fails. The settlement check (docs/network.md,
"Settling the day") then holds or this run fails too:

* the only unmatched records are the injected unknown cards (`presentments.UNKNOWN_CARDS`);
* per currency, the settlement report of the run's UTC day(s) (`GET
  /operator/reports/settlement`, docs/operations.md#running-a-program: `net`, the postings to the
  network settlement account) equals the file's totals (`totals` of the report: what the file
  presents, purchases less refunds, less its unmatched records, which the service never booked);
* `cardservice ledger verify` is ok after the ingest.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import orjson

from cardservice.acquirer.presentments import UNKNOWN_CARDS
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from tests.fresh_database import create_migrated_database, drop_database
from tests.stress.bank_run import ADMIN_DSN, Server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _database(kind: str, workdir: Path) -> str:
    """A fresh migrated database of `kind`, its URL (PostgreSQL: dropped at the end)."""
    if kind != "sqlite":
        return await create_migrated_database(ADMIN_DSN, "cs_network")
    url = f"sqlite:///{workdir / 'network-run.db'}"
    await upgrade_database(Settings(database_url=url).resolved_database_url)
    return url


@dataclass
class Settlement:
    """What the run found: the simulator's findings, the file's report, the settlement
    report of the run's days, and every way they disagree (`problems`, empty when right)."""

    simulator: dict[str, Any] = field(default_factory=dict)
    report: dict[str, Any] = field(default_factory=dict)
    settled: dict[str, Decimal] = field(default_factory=dict)  # currency → net of the days
    presented: dict[str, Decimal] = field(default_factory=dict)  # currency → file totals
    ledger: str = ""  # what `cardservice ledger verify` printed after the ingest
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        unmatched = len(self.report.get("unmatched", []))
        currencies = ", ".join(
            f"{currency} settled {self.settled.get(currency, Decimal(0))} "
            f"presented {self.presented.get(currency, Decimal(0))}"
            for currency in sorted(set(self.settled) | set(self.presented))
        )
        verdict = "ok" if not self.problems else "FAILED: " + "; ".join(self.problems)
        return (
            f"clearing: {self.report.get('messages', 0)} messages, "
            f"presentments {self.report.get('presentments')}, refunds "
            f"{self.report.get('refunds')}, {len(self.report.get('amount_differences', []))} "
            f"amount differences, {unmatched} unmatched (injected {UNKNOWN_CARDS}); "
            f"{currencies}; ledger verify {self.ledger or 'not run'} — {verdict}"
        )


def check_settlement(report: dict[str, Any], settlements: list[list[dict[str, Any]]]) -> Settlement:
    """The settlement check of a run's ingested file (`report`) against the settlement
    reports of the run's days (`settlements`, one per UTC day the run touched)."""
    found = Settlement(report=report)
    reasons = [item["reason"] for item in report["unmatched"]]
    if reasons != ["unknown card"] * UNKNOWN_CARDS:
        found.problems.append(f"unmatched {reasons}, expected {UNKNOWN_CARDS} unknown cards")
    for day in settlements:
        for item in day:
            currency = item["currency"]
            found.settled[currency] = found.settled.get(currency, Decimal(0)) + Decimal(
                str(item["net"])
            )
    found.presented = {item["currency"]: Decimal(str(item["amount"])) for item in report["totals"]}
    for currency in sorted(set(found.settled) | set(found.presented)):
        settled = found.settled.get(currency, Decimal(0))
        presented = found.presented.get(currency, Decimal(0))
        if settled != presented:
            found.problems.append(
                f"{currency}: settled {settled}, the file presents {presented} "
                f"(off by {settled - presented})"
            )
    return found


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "cardservice", *args],
        env=env,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"cardservice {args[0]} {args[1]}: {done.stderr.decode()[-2000:]}")
    return done.stdout.decode()


def _days(start: datetime, end: datetime) -> list[date]:
    days, day = [], start.date()
    while day <= end.date():
        days.append(day)
        day += timedelta(days=1)
    return days


async def _settle(server: Server, env: dict[str, str], path: Path, started: datetime) -> Settlement:
    """Ingest the run's file, read the settlement report of its days, check them."""
    report = orjson.loads(await asyncio.to_thread(_cli, env, "clearing", "ingest", str(path)))
    key = (
        await asyncio.to_thread(
            _cli, env, "operator-keys", "create", "--name", "network-run", "--scopes", "reports"
        )
    ).strip()
    settlements = []
    async with httpx.AsyncClient(
        base_url=server.base, headers={"Authorization": f"Bearer {key}"}, timeout=60
    ) as client:
        for day in _days(started, datetime.now(UTC)):
            answer = await client.get("/operator/reports/settlement", params={"date": str(day)})
            answer.raise_for_status()
            settlements.append(answer.json()["data"])
    found = check_settlement(report, settlements)
    verified = await asyncio.to_thread(_cli, env, "ledger", "verify")
    found.ledger = verified.strip().splitlines()[0] if verified.strip() else ""
    if not found.ledger.startswith("ok"):
        found.problems.append(f"ledger verify: {found.ledger}")
    return found


async def network_run(seconds: float, seed: int, database: str = "postgresql") -> Settlement:
    """The whole run (module docstring); what it found. The simulator's own verdict is in
    `simulator["ok"]` (a failing simulator is a problem too)."""
    with tempfile.TemporaryDirectory(prefix="cs-network-run-") as workdir:
        url = await _database(database, Path(workdir))
        iso_port = _free_port()
        server = Server(url, Path(workdir), workers=1 if database == "sqlite" else 2)
        server.env["CARDSERVICE_ISO8583_PORT"] = str(iso_port)
        env = {**server.env, **{k: v for k, v in os.environ.items() if k == "PATH"}}
        path = Path(workdir) / "run.ipm"
        await server.start()
        try:
            started = datetime.now(UTC)
            done = await asyncio.to_thread(
                subprocess.run,
                [
                    *(sys.executable, "-m", "cardservice", "network", "run"),
                    *("--seed", str(seed), "--seconds", str(seconds), "--faults", "all"),
                    *("--port", str(iso_port), "--clearing-file", str(path)),
                ],
                env=env,
                capture_output=True,
                check=False,
            )
            output = (done.stdout or done.stderr).decode()
            simulator = orjson.loads(output[output.index("{") :]) if "{" in output else {}
            if done.returncode != 0 or not path.exists():
                found = Settlement(simulator=simulator)
                found.problems.append(f"the simulator failed ({done.returncode}): {output[-2000:]}")
                return found
            found = await _settle(server, env, path, started)
            found.simulator = simulator
            return found
        finally:
            server.kill()
            if database != "sqlite":
                await drop_database(ADMIN_DSN, url)


async def main(seconds: float, seed: int, database: str) -> int:
    found = await network_run(seconds, seed, database)
    print(orjson.dumps(found.simulator, option=orjson.OPT_INDENT_2).decode())
    print(found.line())
    return 1 if found.problems else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    arguments = parser.parse_args()
    sys.exit(asyncio.run(main(arguments.seconds, arguments.seed, arguments.database)))

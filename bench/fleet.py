"""`make bench-fleet`: the write mix through HAProxy with 1 and with 3 instances, in one run,
beside the same mix sent to one instance directly (the proxy hop's cost) and `GET /health`
each way (the hop on a request that does no I/O).

    python -m bench.fleet [--seconds 15]        # the fleet must be up (make fleet)

    python -m bench.fleet --reads-only          # only the standby rows below

Standby rows: `GET /transaction/report` (a standby-eligible read, 50 rows a page) of the
bench users, on one instance of the fleet (its reads on the standby) and on a fourth instance
without `CARDSERVICE_REPLICA_URL` (port 18304, started and stopped here): req/s, latency, and
the CPU seconds the primary and the standby spent per 1,000 reads.

Write mix: purchases (`POST /card/buy`, start balance 1) and authorizations
(`POST /sandbox/authorizations`, 1 USD) in turn, over the funded accounts and cards of 8
new bench users; wrk, 2 threads, 64 connections. Per configuration it also reports the CPU
seconds the instances and PostgreSQL spent per 1,000 requests, the instances' resident
memory and the server connections open on the primary: the sizing figures of
docs/operations.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx

from bench.run import wrk_script
from scripts.fleet import fleet
from tests.stress.bank_run import _setup

USERS = 8  # four accounts each (tests/stress/bank_run.py's set-up)
PRIMARY_ONLY_PORT = 18304  # the standby rows' instance without the standby
PIN_SECONDS = 5  # the fleet's CARDSERVICE_REPLICA_PIN_SECONDS (the default)


@dataclass
class Row:
    config: str
    endpoint: str
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    instance_cpu_per_1k: float
    postgres_cpu_per_1k: float
    rss_mb: float
    pg_connections: int


@dataclass
class Proxy:
    base: str = fleet.PROXY
    env: dict[str, str] | None = None


@dataclass(frozen=True)
class Holder:
    auth: str
    account: str
    card: str


async def _data() -> tuple[list[Holder], str]:
    """New bench users (the writes of one user queue on that user's counter rows), their
    accounts funded for every write of the run; returns the holders and the BIN."""
    holders: list[Holder] = []
    bin_uuid = ""
    for _ in range(USERS):
        email = f"bench-{uuid.uuid4().hex[:8]}@example.com"
        proxy = Proxy(env=fleet.instance_env())
        headers, accounts, cards = await _setup(fleet.DSN, proxy, email)  # type: ignore[arg-type]
        async with httpx.AsyncClient(base_url=fleet.PROXY, headers=headers, timeout=30) as client:
            for account in accounts:
                for _ in range(5):
                    await client.post(
                        "/sandbox/deposits", json={"account_uuid": account, "amount": 99_999}
                    )
        auth, bin_uuid = headers["Authorization"], headers["bin"]
        holders += [Holder(auth, a, c) for a, c in zip(accounts, cards[::2], strict=True)]
    return holders, bin_uuid


def _mix_lua(holders: list[Holder], bin_uuid: str) -> str:
    """wrk script: a purchase, then an authorization, each holder in turn."""
    rows = []
    for holder in holders:
        buy = {"account_uuid": holder.account, "bin_uuid": bin_uuid, "start_balance": 1}
        pay = {"card_uuid": holder.card, "amount": 1, "currency": "USD", "merchant_name": "B"}
        headers = f'{{["Authorization"] = {json.dumps(holder.auth)}, ["Content-Type"] = "application/json"}}'
        for path, body in (("/card/buy", buy), ("/sandbox/authorizations", pay)):
            rows.append(
                f"  wrk.format('POST', {json.dumps(path)}, {headers}, {json.dumps(json.dumps(body))}),"
            )
    return (
        "local threads = 0\n"
        "function setup(thread) thread:set('id', threads); threads = threads + 1 end\n"
        "function init(args)\n  requests = {\n" + "\n".join(rows) + "\n  }\n"
        "  i = (id or 0) * 7 % #requests\nend\n"
        "function request() i = i % #requests + 1; return requests[i] end\n"
    )


def _cpu_seconds(pids: list[int]) -> float:
    """utime + stime of the processes and their reaped children."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += sum(int(f) for f in fields[11:15])
    return total / 100  # clock ticks (USER_HZ)


def _postgres_pids(cluster: str = "primary") -> list[int]:
    """The postmaster of the fleet's leader (`primary`) or of its synchronous standby
    (`standby`), and its children (backends, writers, WAL sender)."""
    node = fleet.leader() if cluster == "primary" else fleet.sync_standby()
    primary = fleet.postmaster_pid(node) if node is not None else None
    if primary is None:
        raise SystemExit(f"bench: the fleet has no {cluster} now")
    children = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text() if entry.name.isdigit() else ""
        except FileNotFoundError:
            continue
        if stat and int(stat.rsplit(")", 1)[1].split()[1]) == primary:
            children.append(int(entry.name))
    return [primary, *children]


def _instance_pids(ports: tuple[int, ...]) -> list[int]:
    return [pid for port in ports if (pid := fleet.read_pid(f"instance-{port}", "cardservice"))]


def _rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total / 1024 / max(1, len(pids))


async def _pg_connections() -> int:
    connection = await asyncpg.connect(fleet.DSN)
    try:
        return (
            int(
                await connection.fetchval(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1", fleet.DATABASE
                )
            )
            - 1
        )
    finally:
        await connection.close()


def measure(config: str, url: str, ports: tuple[int, ...], seconds: int, mix: str) -> list[Row]:
    rows = []
    for endpoint, script in (("GET /health", ""), ("write mix", mix)):
        instances = _instance_pids(ports)
        cpu = _cpu_seconds(instances), _cpu_seconds(_postgres_pids())
        target = f"{url}/health" if not script else url
        rps, p50, p99, errors = wrk_script(target, seconds, script)
        requests = rps * seconds / 1000
        used = _cpu_seconds(instances) - cpu[0], _cpu_seconds(_postgres_pids()) - cpu[1]
        rows.append(
            Row(
                config,
                endpoint,
                rps,
                p50,
                p99,
                errors,
                used[0] / requests,
                used[1] / requests if script else 0.0,
                _rss_mb(instances),
                asyncio.run(_pg_connections()),
            )
        )
        print(_line(rows[-1]), flush=True)
    return rows


def _line(row: Row) -> str:
    return (
        f"| {row.config} | {row.endpoint} | {row.rps:.0f} | {row.p50_ms:.1f} | {row.p99_ms:.1f} | "
        f"{row.errors} | {row.instance_cpu_per_1k:.2f} | {row.postgres_cpu_per_1k:.2f} | "
        f"{row.rss_mb:.0f} | {row.pg_connections} |"
    )


def _report_lua(holders: list[Holder]) -> str:
    """wrk script: each holder's first report page in turn."""
    rows = [
        f"  wrk.format('GET', '/transaction/report?per_page=50', "
        f'{{["Authorization"] = {json.dumps(holder.auth)}}}),'
        for holder in holders
    ]
    return (
        "function init(args)\n  requests = {\n" + "\n".join(rows) + "\n  }\n  i = 0\nend\n"
        "function request() i = i % #requests + 1; return requests[i] end\n"
    )


def _replica_reads(port: int) -> tuple[float, float]:
    """Statements of standby-eligible routes the instance ran so far: on the standby, in all
    (its /metrics; both 0 without a standby)."""
    text = httpx.get(f"http://127.0.0.1:{port}/metrics").text
    samples = [
        (float(line.rsplit(" ", 1)[1]), 'target="standby"' in line)
        for line in text.splitlines()
        if line.startswith("cardservice_replica_reads_total{")
    ]
    return sum(n for n, standby in samples if standby), sum(n for n, _ in samples)


def measure_reads(seconds: int, holders: list[Holder]) -> list[str]:
    """The standby rows: the same report reads with and without the standby."""
    script = _report_lua(holders)
    env = fleet.instance_env()
    del env["CARDSERVICE_REPLICA_URL"]
    fleet.start_instance(PRIMARY_ONLY_PORT, env)
    time.sleep(PIN_SECONDS + 1)  # the set-up's writes pinned the bench users to the primary
    lines = []
    try:
        for config, port in (
            ("1 instance, standby reads on", fleet.INSTANCE_PORTS[0]),
            ("1 instance, primary only", PRIMARY_ONLY_PORT),
        ):
            cpu = _cpu_seconds(_postgres_pids()), _cpu_seconds(_postgres_pids("standby"))
            served = _replica_reads(port)
            rps, p50, p99, errors = wrk_script(f"http://127.0.0.1:{port}", seconds, script)
            reads = rps * seconds / 1000
            used = (
                _cpu_seconds(_postgres_pids()) - cpu[0],
                _cpu_seconds(_postgres_pids("standby")) - cpu[1],
            )
            now = _replica_reads(port)
            share = (now[0] - served[0]) / max(1.0, now[1] - served[1])
            lines.append(
                f"| {config} | GET /transaction/report | {rps:.0f} | {p50:.1f} | {p99:.1f} | "
                f"{errors} | {used[0] / reads:.2f} | {used[1] / reads:.2f} | {share:.0%} |"
            )
            print(lines[-1], flush=True)
    finally:
        fleet.stop_instance(PRIMARY_ONLY_PORT)
    return lines


READ_HEADER = (
    "| configuration | endpoint | req/s | p50 ms | p99 ms | errors | primary CPU s / 1k req | "
    "standby CPU s / 1k req | statements on the standby |\n|---|---|---|---|---|---|---|---|---|"
)


def _settle_proxy() -> None:
    """Until HAProxy's health checks have seen the change (inter 1 s, rise 1, fall 2)."""
    time.sleep(3)
    fleet._wait(lambda: fleet._ready(fleet.PROXY), "HAProxy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=int, default=15)
    parser.add_argument("--reads-only", action="store_true", help="only the standby rows")
    arguments = parser.parse_args()
    seconds = arguments.seconds
    holders, bin_uuid = asyncio.run(_data())
    if arguments.reads_only:
        print(READ_HEADER)
        measure_reads(seconds, holders)
        return 0
    mix = _mix_lua(holders, bin_uuid)
    first, *others = fleet.INSTANCE_PORTS
    print(
        "| configuration | endpoint | req/s | p50 ms | p99 ms | errors | instance CPU s / 1k req | PostgreSQL CPU s / 1k req | RSS MB / instance | PG connections |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for port in others:
        fleet.stop_instance(port)
    try:
        _settle_proxy()
        rows = measure("1 instance, direct", f"http://127.0.0.1:{first}", (first,), seconds, mix)
        rows += measure("1 instance, HAProxy", fleet.PROXY, (first,), seconds, mix)
    finally:
        for port in others:
            fleet.start_instance(port)
    _settle_proxy()
    rows += measure("3 instances, HAProxy", fleet.PROXY, fleet.INSTANCE_PORTS, seconds, mix)
    print(READ_HEADER)
    measure_reads(seconds, holders)
    out = (
        Path(__file__).with_name("results")
        / f"fleet-{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}.json"
    )
    out.write_text(json.dumps([row.__dict__ for row in rows], indent=2))
    print(f"results: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Fleet chaos: the bank run through HAProxy while parts of the fleet die, then the books.

    python -m scripts.fleet.chaos --seconds 120      # make fleet-chaos (starts the fleet)

32 clients buy cards (retried with their external_id until a definite answer), authorize and
settle, refund and deposit through 127.0.0.1:8080. Meanwhile: an instance is SIGKILLed every
3-6 s and restarted; Redis is restarted once (at 30 % of the run) and the leader's PostgreSQL
once (at 60 %: `patronictl restart`, a fast shutdown and start in place, no failover). Each
disruption opens a window that closes 3 s after the part is back; a 5xx answered outside every
window is a failure, and so is a 503 without Retry-After (the service answers 503 + Retry-After
while the database is away; HAProxy 502 for the requests a killed instance took with it, 503 +
Retry-After while no instance is ready). A 500 inside a window is printed as a warning with its
count.

Alongside, ISO 8583 traffic (docs/network.md#the-network-interface-iso-8583): `cardservice network
run --faults all` through HAProxy's TCP frontend (127.0.0.1:8583) for the same seconds —
authorizations, stand-in advices, captures, refunds, reversals, duplicates, pipelined bursts,
dropped connections — its lines cut whenever the instance behind them is killed; it retransmits
(repeat MTIs), sends advices and reversals again while answered `91`, reverses what stayed
unanswered, and checks its own books at the end: every approved authorization is a purchase or was
reversed, 0 cents lost on its cards, 0 applied twice, what its stand-ins left cardholders
owing is what `cardholder_receivables` holds.

Then: the ledger (customer money = deposits − fees − net payments + what cardholders owe
for stand-ins, to the cent; postings sum to zero and equal every balance, no balance
negative, no purchase applied twice), the
webhooks (a loopback receiver is the user's endpoint: every approved authorization's
`transaction.created` event reached it at least once, waiting up to 90 s for retries and
leases of killed instances), and the standbys (each replayed up to the leader's LSN). Last line:
`fleet chaos: N operations, K kills, 0 cents lost, X applied twice, Y 5xx outside restarts`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx

from scripts.fleet import fleet
from tests.stress.bank_run import _books, _setup
from tests.webhooks.receiver import Receiver

CLIENTS = 32
GRACE = 3.0  # seconds a window stays open after the part is back
RETRYABLE = {502, 503, 504}


@dataclass
class Proxy:
    """What the bank run's set-up needs of a server: its base URL and the CLI environment."""

    base: str = fleet.PROXY
    env: dict[str, str] = field(default_factory=fleet.instance_env)


@dataclass
class Run:
    attempted: int = 0
    ok: int = 0
    refused: int = 0
    interrupted: int = 0
    kills: int = 0
    restarts: list[str] = field(default_factory=list)
    windows: list[tuple[float, float]] = field(default_factory=list)
    errors: list[tuple[float, float, int, bool]] = field(default_factory=list)  # 5xx answers
    purchases: dict[str, int] = field(default_factory=dict)  # external_id → cards bought
    events: int = 0  # approved authorizations' created events
    undelivered: int = 0  # of those, never received by the webhook endpoint
    iso: dict[str, Any] = field(default_factory=dict)  # `network run`'s findings

    def outside_windows(self) -> int:
        """5xx answers whose request overlapped no disruption window."""
        return sum(
            1
            for sent, answered, _status, _retry in self.errors
            if not any(sent <= end and answered >= start for start, end in self.windows)
        )


async def _post(
    client: httpx.AsyncClient, run: Run, path: str, body: object = None
) -> httpx.Response | None:
    """One POST; a 5xx is recorded with its times, a cut connection counted as interrupted."""
    sent = time.monotonic()
    try:
        response = await client.post(path, json=body)
    except httpx.TransportError:
        run.interrupted += 1
        await asyncio.sleep(0.2)
        return None
    if response.status_code >= 500:
        retry_after = "retry-after" in response.headers
        run.errors.append((sent, time.monotonic(), response.status_code, retry_after))
        if response.status_code in RETRYABLE:
            run.interrupted += 1
            await asyncio.sleep(min(1.0, float(response.headers.get("retry-after", 0.2))))
        return None
    if response.status_code in (200, 201):
        run.ok += 1
    else:
        run.refused += 1
    return response


async def _buy(
    client: httpx.AsyncClient, run: Run, bin_uuid: str, account: str, rng: random.Random
) -> None:
    """Retried with the same external_id until a definite answer (the idempotency key)."""
    external_id = f"run-{uuid.uuid4().hex}"
    body = {
        "account_uuid": account,
        "bin_uuid": bin_uuid,
        "cards_count": rng.randint(1, 2),
        "start_balance": rng.randint(0, 20),
        "external_id": external_id,
    }
    for _attempt in range(200):
        response = await _post(client, run, "/card/buy", body)
        if response is None:
            continue
        if response.status_code == 201:
            run.purchases[external_id] = len(response.json()["data"]["cards"])
        return


async def _client(
    headers: dict[str, str],
    accounts: list[str],
    cards: list[str],
    run: Run,
    deadline: float,
    seed: int,
) -> None:
    rng = random.Random(seed)
    settled: list[str] = []
    auth = {"Authorization": headers["Authorization"]}
    async with httpx.AsyncClient(base_url=fleet.PROXY, headers=auth, timeout=30) as client:
        while time.monotonic() < deadline:
            account = accounts[0] if rng.random() < 0.6 else rng.choice(accounts)
            op = rng.choice(["buy", "authorize", "authorize", "refund", "deposit"])
            run.attempted += 1
            if op == "buy":
                await _buy(client, run, headers["bin"], account, rng)
            elif op == "deposit":
                body = {"account_uuid": account, "amount": rng.randint(1, 30)}
                await _post(client, run, "/sandbox/deposits", body)
            elif op == "refund":
                target = settled.pop() if settled else str(uuid.uuid4())
                await _post(client, run, f"/sandbox/transactions/{target}/refund", {"amount": 0.5})
            else:
                await _authorize_and_settle(client, run, rng.choice(cards), rng, settled)


async def _authorize_and_settle(
    client: httpx.AsyncClient, run: Run, card: str, rng: random.Random, settled: list[str]
) -> None:
    body = {
        "card_uuid": card,
        "amount": rng.randint(1, 2000) / 100,
        "currency": "USD",
        "merchant_name": "Run",
    }
    response = await _post(client, run, "/sandbox/authorizations", body)
    if response is None or response.status_code != 201:
        return
    txn = response.json()["data"]
    if txn["status"] == "pending":
        settle = await _post(client, run, f"/sandbox/transactions/{txn['uuid']}/settle")
        if settle is not None and settle.status_code == 201:
            settled.append(txn["uuid"])


async def _window(run: Run, what: str, disrupt: Callable[[], None]) -> None:
    """Run `disrupt` (blocking: stop and start a part) in a thread inside an open window."""
    start = time.monotonic()
    await asyncio.to_thread(disrupt)
    await asyncio.to_thread(_wait_ready)
    run.windows.append((start, time.monotonic() + GRACE))
    run.restarts.append(f"{what} back in {time.monotonic() - start:.1f} s")


def _wait_ready() -> None:
    """Until every instance answers /ready (the database is back for all of them)."""
    for port in fleet.INSTANCE_PORTS:
        fleet._wait(lambda p=port: fleet._ready(f"http://127.0.0.1:{p}"), f"instance {port}")


async def _killer(run: Run, deadline: float, seed: int) -> None:
    # two generators: drawn in turn from one, seed 7 never picks the middle instance
    pause, victim = random.Random(seed), random.Random(seed * 7919)
    while True:
        await asyncio.sleep(pause.uniform(3.0, 6.0))
        if time.monotonic() >= deadline - 2:
            return
        port = victim.choice(fleet.INSTANCE_PORTS)

        def crash(port: int = port) -> None:
            fleet.kill_instance(port)
            fleet.start_instance(port)

        await _window(run, f"instance {port} (SIGKILL)", crash)
        run.kills += 1


async def _restarts(run: Run, seconds: float) -> None:
    """Redis at 30 % of the run, the PostgreSQL primary at 60 %."""

    def redis() -> None:
        fleet.stop_redis()
        fleet.start_redis()

    def primary() -> None:
        fleet.restart_leader()

    await asyncio.sleep(seconds * 0.3)
    await _window(run, "Redis", redis)
    await asyncio.sleep(seconds * 0.3)
    await _window(run, "PostgreSQL leader (patronictl restart)", primary)


async def _standby_lag() -> int:
    """Bytes of WAL the standbys have still to replay (the most behind), after waiting up to
    30 s for them."""
    await asyncio.to_thread(fleet.wait_healthy)
    leader = fleet.leader()
    primary = await asyncpg.connect(fleet.DSN)
    standbys = [
        await asyncpg.connect(f"postgresql://postgres@127.0.0.1:{fleet.pg_port(node)}/postgres")
        for node in fleet.NODES
        if node != leader
    ]
    try:
        target = await primary.fetchval("SELECT pg_current_wal_lsn()")
        behind = 0
        for _ in range(300):
            behind = max(
                [
                    int(
                        await standby.fetchval(
                            "SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn())", target
                        )
                    )
                    for standby in standbys
                ]
            )
            if behind <= 0:
                return 0
            await asyncio.sleep(0.1)
        return behind
    finally:
        await primary.close()
        for standby in standbys:
            await standby.close()


# The approved authorizations of the run's user: each must have its created event delivered.
_APPROVED_EVENTS = """
SELECT e.uuid FROM events e JOIN transactions t ON t.uuid = e.object_uuid
JOIN users u ON u.uuid = t.user_uuid
WHERE u.email = $1 AND e.type = 'transaction.created' AND t.type = 'card_purchase'
  AND t.status <> 'declined'"""


async def _undelivered(receiver: Receiver, email: str, seconds: float = 90) -> tuple[int, int]:
    """(approved authorizations' created events, how many never reached the receiver)."""
    connection = await asyncpg.connect(fleet.DSN)
    try:
        deadline = time.monotonic() + seconds
        while True:
            wanted = {str(r["uuid"]) for r in await connection.fetch(_APPROVED_EVENTS, email)}
            missing = wanted - set(receiver.ids())
            if not missing or time.monotonic() > deadline:
                return len(wanted), len(missing)
            await asyncio.sleep(0.5)
    finally:
        await connection.close()


ISO_CONNECTIONS = 4
# what the stand-in advices left cardholders owing (every currency: each balances alone)
_OWED = (
    "SELECT -COALESCE(SUM(amount), 0) FROM postings WHERE system_book = 'cardholder_receivables'"
)


async def _iso_traffic(seconds: float, seed: int) -> dict[str, Any]:
    """`cardservice network run` through HAProxy's ISO 8583 frontend; its findings (JSON,
    printed on stdout when every check held, in the error line on stderr when one failed)."""
    process = await asyncio.create_subprocess_exec(
        *fleet.cardservice(), "network", "run", "--host", "127.0.0.1",
        "--port", str(fleet.ISO8583_PORT), "--seed", str(seed), "--seconds", str(seconds),
        "--faults", "all", "--connections", str(ISO_CONNECTIONS),
        env=fleet.instance_env(), stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await process.communicate()
    if process.returncode == 0:
        found: dict[str, Any] = json.loads(out)
        return found
    failed = [line for line in err.decode().splitlines() if "error: {" in line]
    if not failed:
        return {"ok": False, "failed": f"network run exited {process.returncode}: {err[-800:]!r}"}
    found = json.loads(failed[-1].split("error: ", 1)[1])
    return found


async def _owed() -> int:
    connection = await asyncpg.connect(fleet.DSN)
    try:
        return int(await connection.fetchval(_OWED))
    finally:
        await connection.close()


async def chaos(seconds: float, seed: int) -> tuple[Run, dict[str, Any], int]:
    run = Run()
    email = f"chaos-{uuid.uuid4().hex[:8]}@example.com"
    headers, accounts, cards = await _setup(fleet.DSN, Proxy(), email)  # type: ignore[arg-type]
    receiver = Receiver()
    await receiver.start()
    try:
        async with httpx.AsyncClient(base_url=fleet.PROXY, headers=headers, timeout=30) as client:
            hook = await client.post("/webhook-endpoints", json={"url": receiver.url})
            assert hook.status_code == 201, hook.text
        deadline = time.monotonic() + seconds
        iso = asyncio.create_task(_iso_traffic(seconds, seed))
        await asyncio.gather(
            _killer(run, deadline, seed),
            _restarts(run, seconds),
            *(_client(headers, accounts, cards, run, deadline, seed + i) for i in range(CLIENTS)),
        )
        run.iso = await iso
        await asyncio.to_thread(_wait_ready)
        run.events, run.undelivered = await _undelivered(receiver, email)
    finally:
        await receiver.close()
    books: dict[str, Any] = await _books(fleet.DSN)
    books["owed"] = await _owed()
    return run, books, await _standby_lag()


def report(run: Run, books: dict[str, Any], lag: int) -> int:
    """Print the findings and the last line; 0 when every check holds."""
    lost = (
        books["deposits"] - books["fees"] - books["spent"] + books["refunded"] - books["held"]
        + books["owed"]
    )  # fmt: skip
    by_external_id: dict[str, int] = books["cards_by_external_id"]  # type: ignore[assignment]
    twice = sum(1 for eid, n in run.purchases.items() if by_external_id.get(eid, 0) > n)
    missing = sum(1 for eid, n in run.purchases.items() if by_external_id.get(eid, 0) < n)
    statuses = sorted({status for _s, _a, status, _r in run.errors})
    no_retry_after = sum(1 for _s, _a, status, retry in run.errors if status == 503 and not retry)
    outside = run.outside_windows()
    print(
        f"ok={run.ok} refused={run.refused} interrupted={run.interrupted} "
        f"5xx={len(run.errors)} (statuses {statuses}, 503 without Retry-After {no_retry_after})"
    )
    print("restarts: " + "; ".join(run.restarts))
    if 500 in statuses:
        print(f"WARNING: {sum(1 for e in run.errors if e[2] == 500)} answers were 500 (see logs)")
    print(
        f"ledger sum={books['ledger_sum']} drifted balances={books['drifted']} "
        f"negative={books['negative']} purchases ok={len(run.purchases)} missing={missing} "
        f"standby behind={lag} bytes"
    )
    print(
        f"webhooks: {run.events - run.undelivered} of {run.events} authorization events delivered"
    )
    iso = run.iso
    print(
        f"iso8583 via :{fleet.ISO8583_PORT}: {iso.get('requests', 0)} requests, answers "
        f"{iso.get('answers')}, retransmitted {iso.get('retransmitted')}, unanswered "
        f"{iso.get('unanswered')}, slowest {iso.get('slowest_answer_s')} s, stand-ins "
        f"{iso.get('stand_in_advices')} (owed {iso.get('owed_by_cardholders')}), "
        f"{iso.get('cents_lost')} cents lost, {iso.get('applied_twice')} applied twice, "
        f"{iso.get('approved_without_purchase')} approved without a purchase, owed off by "
        f"{iso.get('owed_off_by')}, repeats answered differently "
        f"{iso.get('repeats_answered_differently')}"
        + (f" — {iso['failed']}" if "failed" in iso else "")
    )
    for disagreement in iso.get("answered_otherwise_than_recorded") or ():
        print(f"  iso8583 answered otherwise than recorded: {disagreement}")
    print(
        f"fleet chaos: {run.attempted} operations, {run.kills} kills, {lost} cents lost, "
        f"{twice} applied twice, {outside} 5xx outside restarts"
    )
    checks = {
        "cents lost": lost, "applied twice": twice, "purchases missing": missing,
        "5xx outside restarts": outside, "503 without Retry-After": no_retry_after,
        "standby behind": lag, "webhooks undelivered": run.undelivered,
        "no authorization events": not run.events, "iso8583 checks": not run.iso.get("ok"),
        "500 answered": 500 in statuses, "ledger sum": books["ledger_sum"],
        "drifted balances": books["drifted"], "negative balances": books["negative"],
    }  # fmt: skip
    failed = [name for name, value in checks.items() if value]
    if failed:
        print(f"FAILED: {', '.join(failed)}")
    if "iso8583 checks" in failed:
        print(f"iso8583 findings: {json.dumps(run.iso)}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    run, books, lag = asyncio.run(chaos(args.seconds, args.seed))
    return report(run, books, lag)


if __name__ == "__main__":
    raise SystemExit(main())

"""Failover under traffic: the leader killed again and again, nothing acknowledged lost.

    python -m scripts.fleet.failover --kills 5      # make fleet-failover (the fleet is up)

Traffic through HAProxy for the whole run: HTTP clients (purchases with an `external_id`,
sandbox authorizations, operator credits with an `external_id`) and ISO 8583 connections
(0100 authorizations, then for some an 0400 reversal or an 0220 capture). A keyed request
whose answer is not definite (a cut connection, a 5xx, ISO `91`/`96` or no answer in 3 s) is
sent again with its key (the same `external_id`, the repeat MTI 0101/0401/0221) until it is;
an unkeyed one (a sandbox authorization) is not, and its outcome is left unknown. Every
acknowledged write (HTTP 2xx, ISO `00`) is recorded with its key and the time its last send
left and its answer came.

`--kills` times: wait until Patroni shows three members, a leader and a synchronous standby;
SIGKILL the leader's postmaster (the kill numbered `--full-kill` also SIGKILLs that node's
Patroni and etcd member, as if the machine died); wait for another node to lead; start the
killed daemons again, so the old node rejoins (pg_rewind) as a standby; a member that does
not stream again within 90 s is cloned anew (`patronictl reinit`), and the kill line says
so. Per kill: seconds from the kill to the first write acknowledged whose last send left
after the kill.

The ledger's sealer (docs/ledger.md, "The hash chain") runs in every instance's background
loop; its advisory lock lives on the leader, so after each failover one of the instances'
loops takes it on the new leader. Through the run the seal lag is scraped from the
instances' `/metrics` every `LAG_EVERY` seconds (the most seen, and the most from each kill
until the cluster is whole again); once the traffic stops, the instances' sealers must seal
every entry within `SEAL_WAIT` seconds (each instance's `/metrics` answers a lag of 0).

Then, on the leader: every acknowledged write is there (lost), no key was booked twice
(applied twice), every entry has its place once (N entries, places 1..N, the head at N), and
`cardservice ledger verify --no-seal` passes (the chain the fleet's sealers made, verify
seals nothing itself). The last line (one line):

    failover: kills K, acknowledged N, lost 0, applied twice 0,
      failover s min/median/max A/B/C, seal lag max L s, sealed in S s,
      entries E sealed once, ledger verify ok

Bounded: the run stops itself after `--max-seconds` (a leader that never comes back fails it).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import httpx

from cardservice import runtime
from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.acquirer.simulator import SimCard, make_cards
from cardservice.config import Settings
from cardservice.security import CardCipher
from scripts.fleet import fleet
from scripts.fleet.chaos import Proxy
from tests.stress.bank_run import _setup

HTTP_CLIENTS = 6
ISO_CONNECTIONS = 3
ISO_WAIT = 3.0  # seconds an ISO request waits for its answer before it is repeated
LATE = 1.0  # an ISO answer later than this (or none) counts as unanswered in time
PAUSE = 0.2  # seconds between two sends of a keyed request
SETTLE = 6.0  # seconds of traffic on a whole cluster before each kill
REJOIN = 90.0  # seconds a node may take to stream again before it is cloned anew
LAG_EVERY = 1.0  # seconds between two scrapes of the seal lag
SEAL_WAIT = 30.0  # seconds the fleet's sealers may take to seal all once the traffic stops
NOT_TAKEN = ("91", "96")  # the host took nothing it could say: the acquirer repeats


@dataclass(frozen=True)
class Ack:
    """An acknowledged write: what it was, its key, when its last send left, when answered."""

    kind: str  # purchase, authorization, credit, iso-0100, iso-0400, iso-0220
    key: str
    sent: float
    acked: float
    detail: Any = None  # purchase: cards bought; authorization: its transaction uuid


@dataclass
class Kill:
    node: int
    at: float
    full: bool
    new_leader: int = 0
    leader_after: float = 0.0  # seconds to a new leader (Patroni's word)
    healed_after: float = 0.0  # seconds to three members with a synchronous standby again
    reinitialised: list[str] = field(default_factory=list)  # members cloned anew to rejoin


@dataclass
class Run:
    acks: list[Ack] = field(default_factory=list)
    kills: list[Kill] = field(default_factory=list)
    unknown: int = 0  # unkeyed HTTP writes whose answer never came (not retried)
    refused: int = 0  # definite refusals (4xx, ISO declines): nothing acknowledged
    retries: int = 0  # sends of a keyed request after its first
    iso_sends: int = 0
    iso_91: int = 0  # answers `91`: no leader, or the answer deadline passed (then repeated)
    iso_slowest: float = 0.0  # the slowest ISO answer that came
    released_late: int = 0  # approvals committed after their `91`, released by the host
    # (sent, took or inf, what was sent and answered: `0100 → 00`)
    iso_late: list[tuple[float, float, str]] = field(default_factory=list)
    # (when, the seal lag an instance's /metrics answered; -1: it could not read the database)
    seal_lags: list[tuple[float, float]] = field(default_factory=list)
    stop: bool = False

    def ack(self, kind: str, key: str, sent: float, detail: Any = None) -> None:
        self.acks.append(Ack(kind, key, sent, time.monotonic(), detail))


# --- HTTP -----------------------------------------------------------------------------


async def _send(
    client: httpx.AsyncClient, run: Run, path: str, body: object, headers: dict[str, str]
) -> tuple[httpx.Response | None, float]:
    sent = time.monotonic()
    try:
        return await client.post(path, json=body, headers=headers), sent
    except httpx.TransportError:
        return None, sent


async def _keyed(
    client: httpx.AsyncClient, run: Run, path: str, body: object, headers: dict[str, str]
) -> tuple[httpx.Response, float] | None:
    """Sent again (same body, same external_id) until the answer is definite (not a cut
    connection, not a 5xx); None if the run ended first."""
    first = True
    while not run.stop:
        if not first:
            run.retries += 1
        first = False
        response, sent = await _send(client, run, path, body, headers)
        if response is not None and response.status_code < 500:
            return response, sent
        retry_after = response.headers.get("retry-after") if response is not None else None
        await asyncio.sleep(min(float(retry_after or PAUSE), 0.5))
    return None


async def _http_client(
    run: Run, seed: int, headers: dict[str, str], accounts: list[str], cards: list[str]
) -> None:
    rng = random.Random(seed)
    holder = {"Authorization": headers["Authorization"]}
    operator = {"Authorization": f"Bearer {headers['operator']}"}
    async with httpx.AsyncClient(base_url=fleet.PROXY, timeout=30) as client:
        while not run.stop:
            op = rng.choice(("purchase", "authorization", "authorization", "credit"))
            account = rng.choice(accounts)
            key = f"failover-{uuid.uuid4().hex}"
            if op == "purchase":
                count = rng.randint(1, 2)
                body = {
                    "account_uuid": account, "bin_uuid": headers["bin"], "cards_count": count,
                    "start_balance": rng.randint(0, 2), "external_id": key,
                }  # fmt: skip
                done = await _keyed(client, run, "/card/buy", body, holder)
                if done is not None and done[0].status_code == 201:
                    run.ack("purchase", key, done[1], count)
                elif done is not None:
                    run.refused += 1
            elif op == "credit":
                body = {"amount": rng.randint(5, 50), "external_id": key, "description": "failover"}
                path = f"/operator/accounts/{account}/credits"
                done = await _keyed(client, run, path, body, operator)
                if done is not None and done[0].status_code in (200, 201):
                    run.ack("credit", key, done[1], done[0].json()["data"]["uuid"])
                elif done is not None:
                    run.refused += 1
            else:
                body = {
                    "card_uuid": rng.choice(cards), "amount": rng.randint(1, 500) / 100,
                    "currency": "USD", "merchant_name": "Failover",
                }  # fmt: skip
                response, sent = await _send(client, run, "/sandbox/authorizations", body, holder)
                if response is None or response.status_code >= 500:
                    run.unknown += 1  # no key to ask again with: its outcome stays unknown
                    await asyncio.sleep(PAUSE)
                elif response.status_code == 201 and response.json()["data"]["status"] == "pending":
                    uuid_ = response.json()["data"]["uuid"]
                    run.ack("authorization", uuid_, sent, uuid_)
                else:
                    run.refused += 1


# --- ISO 8583 -------------------------------------------------------------------------


class IsoLine:
    """One acquirer connection through HAProxy, made again when it drops."""

    def __init__(self) -> None:
        self.client: NetworkClient | None = None

    async def request(self, run: Run, mti: str, fields: dict[int, str]) -> dict[int, str] | None:
        """One send: the answer's fields, or None (no answer within ISO_WAIT, line cut)."""
        run.iso_sends += 1
        started = time.monotonic()
        try:
            if self.client is None or self.client.closed:
                self.client = await NetworkClient.connect("127.0.0.1", fleet.ISO8583_PORT)
            answer = (await self.client.request(mti, fields, wait=ISO_WAIT)).fields
        except (OSError, TimeoutError):
            if self.client is not None:
                await self.client.close()
            self.client = None
            run.iso_late.append((started, float("inf"), f"{mti} → no answer"))
            return None
        took = time.monotonic() - started
        run.iso_91 += answer.get(39) == "91"
        run.iso_slowest = max(run.iso_slowest, took)
        if took > LATE:
            run.iso_late.append((started, took, f"{mti} → {answer.get(39)}"))
        return answer

    async def definite(
        self, run: Run, mti: str, repeat: str, fields: dict[int, str]
    ) -> tuple[dict[int, str], float] | None:
        """Sent, then repeated (`repeat` MTI, same key) until an answer other than 91/96."""
        sending = mti
        while not run.stop:
            sent = time.monotonic()
            answer = await self.request(run, sending, fields)
            if answer is not None and answer[39] not in NOT_TAKEN:
                return answer, sent
            run.retries += 1
            sending = repeat
            await asyncio.sleep(PAUSE)
        return None


def iso_key(fields: dict[int, str], mti_class: str) -> str:
    return f"{fields[32].rjust(11, '0')}/{fields[11]}/{fields[7]}/{mti_class}"


async def _iso_connection(run: Run, seed: int, cards: list[SimCard]) -> None:
    rng = random.Random(seed)
    numbers = stans(seed * 100_000 % 900_000 + 1)
    line = IsoLine()
    try:
        while not run.stop:
            card = rng.choice(cards)
            fields = messages.authorization(
                card.pan, card.expiry, rng.randint(100, 2_000), next(numbers), transmitted_now()
            )
            done = await line.definite(run, "0100", "0101", fields)
            if done is None:
                return
            answer, sent = done
            if answer[39] != "00":
                run.refused += 1
                continue
            run.ack("iso-0100", iso_key(fields, "010"), sent)
            roll = rng.random()
            if roll < 0.2:
                reversal = messages.reversal_request(fields, next(numbers), transmitted_now())
                follow = await line.definite(run, "0400", "0401", reversal)
                kind, key = "iso-0400", iso_key(reversal, "040")
            elif roll < 0.5:
                amount = rng.randint(int(fields[4]) // 2, int(fields[4]))
                capture = messages.capture_advice(fields, amount, next(numbers), transmitted_now())
                follow = await line.definite(run, "0220", "0221", capture)
                kind, key = "iso-0220", iso_key(capture, "022")
            else:
                continue
            if follow is not None and follow[0][39] == "00":
                run.ack(kind, key, follow[1])
            elif follow is not None:
                run.refused += 1
    finally:
        if line.client is not None:
            await line.client.close()


# --- the kills ------------------------------------------------------------------------


async def _until(check: Callable[[], Any], what: str, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = await asyncio.to_thread(check)
        if found:
            return found
        await asyncio.sleep(0.1)
    raise SystemExit(f"failover: {what} not within {seconds:.0f} s")


async def _killer(run: Run, kills: int, full_kill: int) -> None:
    for number in range(1, kills + 1):
        await _until(fleet.healthy, "a whole cluster", 180)
        await asyncio.sleep(SETTLE)
        node = await _until(fleet.leader, "a leader", 60)
        full = number == full_kill
        at = time.monotonic()
        fleet.kill_postmaster(node)
        if full:  # the machine died: its Patroni and its etcd member with it
            fleet.kill_patroni(node)
            fleet.kill_etcd(node)
        kill = Kill(node, at, full)
        run.kills.append(kill)
        kill.new_leader = await _until(
            lambda node=node: (leader := fleet.leader()) not in (None, node) and leader,
            "a new leader",
            60,
        )
        kill.leader_after = time.monotonic() - at
        if full:  # the machine is back: its daemons start, the node rejoins as a standby
            fleet.start_etcd(node)
            fleet.start_patroni(node)
        try:
            await _until(fleet.healthy, "the cluster whole again", REJOIN)
        except SystemExit:  # a node that cannot stream again is cloned anew (operations.md)
            kill.reinitialised = await asyncio.to_thread(fleet.reinit_stragglers)
            await _until(fleet.healthy, "the cluster whole again after reinit", 180)
        kill.healed_after = time.monotonic() - at
        print(
            f"kill {number}: node pg{node} postmaster"
            + (", Patroni and etcd member" if full else "")
            + f" SIGKILLed; pg{kill.new_leader} leads after {kill.leader_after:.1f} s; "
            f"first acknowledged write after {_failover(run, kill):.1f} s; "
            f"pg{node} back as a standby after {kill.healed_after:.1f} s"
            + (f" (cloned anew: {', '.join(kill.reinitialised)})" if kill.reinitialised else ""),
            flush=True,
        )
    await asyncio.sleep(SETTLE)


def _failover(run: Run, kill: Kill) -> float:
    """Seconds from the kill to the first write acknowledged after it whose last send left
    after it (a write sent before could have been committed by the dead leader)."""
    after = [ack.acked for ack in run.acks if ack.sent >= kill.at]
    return (min(after) - kill.at) if after else float("inf")


# --- the seal lag ---------------------------------------------------------------------


def _lag_of(text: str) -> float:
    """`cardservice_ledger_seal_lag_seconds` of a Prometheus text."""
    for line in text.splitlines():
        if line.startswith("cardservice_ledger_seal_lag_seconds "):
            return float(line.split()[1])
    raise ValueError("no seal lag on /metrics")


async def _seal_lags(client: httpx.AsyncClient) -> list[float]:
    """The seal lag each instance's `/metrics` answers now (HAProxy refuses `/metrics`)."""
    lags = []
    for port in fleet.INSTANCE_PORTS:
        response = await client.get(f"http://127.0.0.1:{port}/metrics")
        lags.append(_lag_of(response.text))
    return lags


async def _lag_sampler(run: Run) -> None:
    """The seal lag through the run, from one instance a scrape in turn."""
    async with httpx.AsyncClient(timeout=5) as client:
        turn = 0
        while not run.stop:
            port = fleet.INSTANCE_PORTS[turn % len(fleet.INSTANCE_PORTS)]
            turn += 1
            try:
                response = await client.get(f"http://127.0.0.1:{port}/metrics")
                run.seal_lags.append((time.monotonic(), _lag_of(response.text)))
            except (httpx.HTTPError, ValueError):
                run.seal_lags.append((time.monotonic(), -1.0))
            await asyncio.sleep(LAG_EVERY)


async def _until_sealed() -> float | None:
    """Seconds until every instance's `/metrics` answers a seal lag of 0 (the fleet's own
    sealers sealed every entry), or None if not within SEAL_WAIT."""
    started = time.monotonic()
    async with httpx.AsyncClient(timeout=5) as client:
        while time.monotonic() - started < SEAL_WAIT:
            if all(lag == 0 for lag in await _seal_lags(client)):
                return time.monotonic() - started
            await asyncio.sleep(0.2)
    return None


async def _places() -> tuple[int, bool]:
    """(entries, whether each has its own place: places 1..N once each, the head at N)."""
    connection = await asyncpg.connect(fleet.DSN)
    try:
        row = await connection.fetchrow(
            "SELECT count(*) AS entries, count(chain_seq) AS sealed, "
            "count(DISTINCT chain_seq) AS places, coalesce(max(chain_seq), 0) AS last, "
            "(SELECT seq FROM ledger_chain_head WHERE id = 1) AS head FROM journal_entries"
        )
    finally:
        await connection.close()
    assert row is not None
    entries = int(row["entries"])
    once = row["sealed"] == row["places"] == row["last"] == row["head"] == entries
    return entries, once


def _kill_lag(run: Run, kill: Kill) -> float:
    """The most seal lag scraped from the kill until the cluster was whole again."""
    until = kill.at + kill.healed_after
    return max((lag for at, lag in run.seal_lags if kill.at <= at <= until), default=-1.0)


# --- the checks -----------------------------------------------------------------------


async def _verify(run: Run, iso_user: uuid.UUID) -> tuple[int, int, list[str]]:
    """(lost, applied twice, what was lost or doubled) on the leader."""
    connection = await asyncpg.connect(fleet.DSN)
    problems: list[str] = []
    try:
        lost = 0
        purchases = {a.key: a.detail for a in run.acks if a.kind == "purchase"}
        rows = await connection.fetch(
            "SELECT external_id, count(*) AS n FROM cards WHERE external_id = ANY($1::text[]) "
            "GROUP BY external_id",
            list(purchases),
        )
        bought = {r["external_id"]: r["n"] for r in rows}
        twice = sum(1 for key, n in purchases.items() if bought.get(key, 0) > n)
        for key, n in purchases.items():
            if bought.get(key, 0) < n:
                lost += 1
                problems.append(f"purchase {key}: {bought.get(key, 0)} of {n} cards")
        authorizations = [uuid.UUID(a.key) for a in run.acks if a.kind == "authorization"]
        found = await connection.fetchval(
            "SELECT count(*) FROM transactions WHERE uuid = ANY($1::uuid[])", authorizations
        )
        if found != len(authorizations):
            lost += len(authorizations) - found
            problems.append(f"authorizations: {found} of {len(authorizations)} found")
        credits = {a.key: uuid.UUID(a.detail) for a in run.acks if a.kind == "credit"}
        rows = await connection.fetch(
            "SELECT external_id, transaction_uuid FROM operator_requests "
            "WHERE external_id = ANY($1::text[])",
            list(credits),
        )
        remembered = {r["external_id"]: r["transaction_uuid"] for r in rows}
        for key, transaction in credits.items():
            if remembered.get(key) != transaction:
                lost += 1
                problems.append(f"credit {key}: {remembered.get(key)} not {transaction}")
        # every failover credit is one deposit remembered under its external_id
        deposits = await connection.fetchval(
            "SELECT count(*) FROM transactions WHERE type = 'deposit' AND description = "
            "'failover' AND uuid NOT IN (SELECT transaction_uuid FROM operator_requests)"
        )
        twice += int(deposits)
        iso = [a for a in run.acks if a.kind.startswith("iso-")]
        rows = await connection.fetch(
            "SELECT acquirer_id || '/' || stan || '/' || transmitted || '/' || mti_class AS key,"
            " response_code FROM network_messages WHERE (acquirer_id || '/' || stan || '/' ||"
            " transmitted || '/' || mti_class) = ANY($1::text[])",
            [a.key for a in iso],
        )
        answered = {r["key"]: r["response_code"] for r in rows}
        for ack in iso:
            if answered.get(ack.key) != "00":
                lost += 1
                problems.append(f"{ack.kind} {ack.key}: recorded {answered.get(ack.key)}")
        # each ISO purchase of the run's cards is the purchase of one approved 0100 key, but
        # for the late ones: answered 91 at the deadline, committed after it, then released
        # with their key forgotten (network/authorizations.py `_release_late`): nothing stands
        booked = await connection.fetchval(
            "SELECT count(*) FROM transactions t WHERE user_uuid = $1 AND channel = 'iso8583' "
            "AND type = 'card_purchase' AND status <> 'declined' AND (status <> 'reversed' OR "
            "EXISTS (SELECT 1 FROM network_messages m WHERE m.transaction_uuid = t.uuid))",
            iso_user,
        )
        run.released_late = int(
            await connection.fetchval(
                "SELECT count(*) FROM transactions t WHERE user_uuid = $1 AND channel = "
                "'iso8583' AND type = 'card_purchase' AND status = 'reversed' AND NOT EXISTS "
                "(SELECT 1 FROM network_messages m WHERE m.transaction_uuid = t.uuid)",
                iso_user,
            )
        )
        keyed = await connection.fetchval(
            "SELECT count(DISTINCT m.transaction_uuid) FROM network_messages m JOIN "
            "transactions t ON t.uuid = m.transaction_uuid WHERE t.user_uuid = $1 AND "
            "m.mti_class = '010' AND t.status <> 'declined'",
            iso_user,
        )
        if booked != keyed:
            twice += abs(int(booked) - int(keyed))
            problems.append(f"ISO purchases {booked}, approved 0100 keys {keyed}")
        return lost, twice, problems
    finally:
        await connection.close()


def _ledger_verify() -> tuple[bool, list[str]]:
    """`cardservice ledger verify --no-seal`: the chain the fleet's sealers made, walked."""
    result = subprocess.run(
        [*fleet.cardservice(), "ledger", "verify", "--no-seal"],
        env=fleet.instance_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    lines = (result.stdout + result.stderr).strip().splitlines()
    return result.returncode == 0 and lines[:1] != [] and lines[0].startswith("ok "), lines


# --- the run --------------------------------------------------------------------------


async def _iso_cards() -> tuple[uuid.UUID, list[SimCard]]:
    settings = Settings()  # the fleet's environment (main puts it in this process's)
    db = runtime.database(settings)
    try:
        account, cards = await make_cards(db, CardCipher.from_settings(settings), 4)
        user = await db.reader.value("SELECT user_uuid FROM accounts WHERE uuid = $1", account)
        return user, cards
    finally:
        await db.dispose()


async def failover(kills: int, full_kill: int, max_seconds: float) -> int:
    run = Run()
    started = time.monotonic()
    email = f"failover-{uuid.uuid4().hex[:8]}@example.com"
    headers, accounts, cards = await _setup(fleet.DSN, Proxy(), email)  # type: ignore[arg-type]
    iso_user, iso_cards = await _iso_cards()
    traffic: list[Awaitable[None]] = [
        *(_http_client(run, i, headers, accounts, cards) for i in range(HTTP_CLIENTS)),
        *(_iso_connection(run, i + 1, iso_cards) for i in range(ISO_CONNECTIONS)),
    ]
    tasks = [asyncio.ensure_future(t) for t in (*traffic, _lag_sampler(run))]
    try:
        await asyncio.wait_for(_killer(run, kills, full_kill), max_seconds)
    finally:
        run.stop = True
        await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 60)
    sealed_after = await _until_sealed()
    entries, sealed_once = await _places()
    lost, twice, problems = await _verify(run, iso_user)
    verified, verify_lines = _ledger_verify()
    times = [_failover(run, kill) for kill in run.kills]
    late_in_gaps = sum(1 for sent, _took, _what in run.iso_late if _in_gap(run, sent))
    by_kind: dict[str, int] = {}
    for ack in run.acks:
        by_kind[ack.kind] = by_kind.get(ack.kind, 0) + 1
    print(
        f"acknowledged {by_kind}; refused {run.refused}; keyed resends {run.retries}; "
        f"unkeyed HTTP writes left unknown {run.unknown}"
    )
    print(
        f"iso8583: {run.iso_sends} sends, unanswered within {LATE:.0f} s: {len(run.iso_late)} "
        f"({late_in_gaps} during the gaps); slowest answer {run.iso_slowest:.2f} s; answered 91 "
        f"{run.iso_91}; approvals committed after their 91, released {run.released_late}"
    )
    for sent, took, what in run.iso_late:
        kill = max((k for k in run.kills if k.at <= sent), key=lambda k: k.at, default=None)
        since = f"{sent - kill.at:.1f} s after kill {run.kills.index(kill) + 1}" if kill else "-"
        late = "no answer" if took == float("inf") else f"{took:.2f} s"
        print(f"  iso8583 send {since}: {what}, {late}")
    lags = [lag for _at, lag in run.seal_lags]
    print(
        f"seal lag: {len(lags)} scrapes, max {max(lags, default=-1):.2f} s, unanswered "
        f"{lags.count(-1.0)}; per kill (to the cluster whole again) "
        + ", ".join(f"{_kill_lag(run, kill):.2f} s" for kill in run.kills)
    )
    sealed_text = "not" if sealed_after is None else f"{sealed_after:.1f} s"
    print(
        f"sealed after the traffic: {sealed_text} (bound {SEAL_WAIT:.0f} s); entries {entries}, "
        f"{'each with its own place' if sealed_once else 'NOT each sealed once'}"
    )
    print(f"ledger verify --no-seal: {' / '.join(verify_lines)}")
    print(f"run took {time.monotonic() - started:.0f} s")
    for problem in problems[:20]:
        print(f"  {problem}")
    span = "/".join(f"{x:.1f}" for x in (min(times), statistics.median(times), max(times)))
    print(
        f"failover: kills {len(run.kills)}, acknowledged {len(run.acks)}, lost {lost}, "
        f"applied twice {twice}, failover s min/median/max {span}, "
        f"seal lag max {max(lags, default=-1):.1f} s, sealed in {sealed_text}, "
        f"entries {entries} {'sealed once' if sealed_once else 'NOT sealed once'}, "
        f"ledger verify {'ok' if verified else 'FAILED'}"
    )
    sealed = sealed_after is not None and sealed_once
    return 0 if not lost and not twice and sealed and verified and len(run.kills) == kills else 1


def _in_gap(run: Run, sent: float) -> bool:
    """Whether `sent` fell between a kill and the first acknowledged write after it."""
    return any(kill.at <= sent <= kill.at + _failover(run, kill) for kill in run.kills)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=5)
    parser.add_argument("--full-kill", type=int, default=3, help="this kill takes the node")
    parser.add_argument("--max-seconds", type=float, default=900)
    args = parser.parse_args()
    os.environ.update(fleet.instance_env())
    return asyncio.run(failover(args.kills, args.full_kill, args.max_seconds))


if __name__ == "__main__":
    raise SystemExit(main())

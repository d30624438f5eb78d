"""Race run: the operations that used to deadlock, hammered at once on one card and one
account, on PostgreSQL behind `cardservice serve --workers 2` (real processes).

    python -m tests.stress.race_run --seconds 120      # make stress
    (a 20-second run is part of make test: tests/stress/test_race_run.py)

Authorizations on one card race settle, reverse and refund of that card's purchases;
purchases of cards on the same account race those refunds, and deposits race both. Every
answer must be 2xx or a 4xx refusal (an invalid transition, a spent hold): not one 5xx. Then
the books are checked to the cent (`bank_run.verify`) and the counters the database keeps
(transaction counts, spend per day, tag popularity) against the rows they count, and the
ledger's hash chain is walked (`ledger verify`): one linear chain, every balance matching.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg
import httpx

from cardservice import runtime
from cardservice.config import Settings
from cardservice.ledger.verify import ChainCheck
from cardservice.ledger.verify import verify as verify_chain
from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.stress.bank_run import ADMIN_DSN, Figures, Server, _books, _setup, verify

TAGS = ("netflix", "amazon", "spotify", "uber")


@dataclass
class Race:
    """What the clients share: purchases waiting to settle or reverse, settled ones to refund."""

    pending: list[str] = field(default_factory=list)
    completed: list[str] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    figures: Figures = field(default_factory=Figures)

    def count(self, response: httpx.Response) -> None:
        self.statuses[response.status_code] += 1
        self.figures.attempted += 1
        if response.status_code < 300:
            self.figures.ok += 1
        else:
            self.figures.refused += 1


async def _authorizer(client: httpx.AsyncClient, card: str, race: Race, deadline: float) -> None:
    rng = random.Random()
    while time.monotonic() < deadline:
        body = {
            "card_uuid": card,
            "amount": rng.randint(1, 300) / 100,
            "currency": "USD",
            "merchant_name": "Race Shop",
            "tag": rng.choice(TAGS),
        }
        response = await client.post("/sandbox/authorizations", json=body)
        race.count(response)
        if response.status_code == 201 and response.json()["data"]["status"] == "pending":
            race.pending.append(response.json()["data"]["uuid"])


async def _lifecycle(client: httpx.AsyncClient, race: Race, deadline: float) -> None:
    rng = random.Random()
    while time.monotonic() < deadline:
        if race.completed and rng.random() < 0.4:
            purchase = rng.choice(race.completed)
            url = f"/sandbox/transactions/{purchase}/refund"
            response = await client.post(url, json={"amount": 0.01})
        elif race.pending:
            purchase = race.pending.pop(rng.randrange(len(race.pending)))
            step = "settle" if rng.random() < 0.7 else "reverse"
            response = await client.post(f"/sandbox/transactions/{purchase}/{step}")
            if step == "settle" and response.status_code == 201:
                race.completed.append(purchase)
        else:
            await asyncio.sleep(0.01)
            continue
        race.count(response)


async def _buyer(
    client: httpx.AsyncClient, account: str, bin_uuid: str, race: Race, deadline: float
) -> None:
    while time.monotonic() < deadline:
        external_id = f"run-{uuid.uuid4().hex[:12]}"
        body = {"account_uuid": account, "bin_uuid": bin_uuid, "external_id": external_id}
        response = await client.post("/card/buy", json={**body, "start_balance": 1})
        race.count(response)
        if response.status_code == 201:
            race.figures.purchases[external_id] = 1
        await client.post("/sandbox/deposits", json={"account_uuid": account, "amount": 10})


async def _counters(url: str) -> list[str]:
    """Every counter the database keeps that differs from the rows it counts."""
    connection = await asyncpg.connect(url)
    try:
        wrong = await connection.fetch("""
            SELECT 'count ' || u.uuid FROM users u
            LEFT JOIN transaction_counts c ON c.user_uuid = u.uuid
            WHERE coalesce(c.transactions, 0) <> (SELECT count(*) FROM transactions t
                                                  WHERE t.user_uuid = u.uuid)
            UNION ALL
            SELECT 'tag ' || g.slug FROM transaction_tags g
            WHERE g.transactions_count + (SELECT count(*) FROM tag_counts_waiting w
                                          WHERE w.tag_slug = g.slug)
                  <> (SELECT count(*) FROM transactions t WHERE t.tag_slug = g.slug)
            UNION ALL
            SELECT 'spend ' || d.spent_on FROM daily_spend d
            WHERE d.amount <> (SELECT coalesce(sum(t.amount), 0) FROM transactions t
                               WHERE t.user_uuid = d.user_uuid AND t.currency = d.currency
                                 AND t.type = 'card_purchase'
                                 AND t.status IN ('pending', 'completed')
                                 AND (t.created_at AT TIME ZONE 'UTC')::date = d.spent_on)
            UNION ALL
            SELECT 'card spend ' || s.card_uuid || ' ' || s.spent_on FROM card_spend s
            WHERE s.amount <> (SELECT coalesce(sum(t.amount - t.refunded_amount), 0)
                               FROM transactions t
                               WHERE t.card_uuid = s.card_uuid AND t.type = 'card_purchase'
                                 AND t.status IN ('pending', 'completed', 'refunded')
                                 AND (t.created_at AT TIME ZONE 'UTC')::date = s.spent_on)
        """)
    finally:
        await connection.close()
    return [row[0] for row in wrong]


async def _chain(url: str) -> ChainCheck:
    db = runtime.database(Settings(database_url=url))
    try:
        return await verify_chain(db)
    finally:
        await db.dispose()


async def race_run(seconds: float) -> tuple[Race, dict[str, int], list[str], ChainCheck]:
    """Run the race on a fresh PostgreSQL database; the figures, the books, wrong counters,
    the hash chain's verdict."""
    url = await create_migrated_database(ADMIN_DSN, "cs_race")
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()
    server = Server(url, workdir, workers=2)
    try:
        await server.start()
        headers, accounts, cards = await _setup(url, server)
        race, deadline = Race(), time.monotonic() + seconds
        async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=60) as client:
            await client.post(
                "/sandbox/deposits", json={"account_uuid": accounts[0], "amount": 10**6}
            )
            bins = (await client.get("/dictionary/bins")).json()["data"]
            bin_uuid = next(
                b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
            )
            await asyncio.gather(
                *(_authorizer(client, cards[0], race, deadline) for _ in range(6)),
                *(_lifecycle(client, race, deadline) for _ in range(6)),
                *(_buyer(client, accounts[0], bin_uuid, race, deadline) for _ in range(3)),
            )
        server.kill()
        return race, await _books(url), await _counters(url), await _chain(url)
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
        await drop_database(ADMIN_DSN, url)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=120)
    args = parser.parse_args()
    race, books, wrong, chain = asyncio.run(race_run(args.seconds))
    lost = verify(race.figures, books)
    errors = sum(n for status, n in race.statuses.items() if status >= 500)
    print(f"race run: {race.figures.attempted} requests, statuses {dict(race.statuses)}")
    print(f"race run: {errors} answered 5xx, {lost} cents lost, counters wrong: {wrong}")
    print(f"race run: ledger verify: {chain.problem or f'ok {chain.entries} entries'}")
    return 1 if errors or wrong or not chain.ok else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The docs/operations.md#running-a-program races between processes: `cardservice serve --workers 2`
on PostgreSQL, the requests spread over both workers, the books checked in the database
afterwards."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx
import pytest

from tests.fresh_database import create_migrated_database, database_name, drop_database
from tests.stress.bank_run import ADMIN_DSN, Server

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="row locks across two server processes: PostgreSQL",
)

BOOKS = """
SELECT (SELECT coalesce(sum(amount), 0) FROM postings) AS ledger_sum,
  (SELECT count(*) FROM (SELECT entry_id FROM postings GROUP BY entry_id, currency
     HAVING sum(amount) <> 0) x) AS unbalanced,
  (SELECT count(*) FROM accounts WHERE balance < 0)
    + (SELECT count(*) FROM cards WHERE balance < 0) AS negative,
  (SELECT count(*) FROM (SELECT a.uuid FROM accounts a
     LEFT JOIN postings p ON p.account_uuid = a.uuid
     GROUP BY a.uuid, a.balance HAVING a.balance <> coalesce(sum(p.amount), 0)) x)
  + (SELECT count(*) FROM (SELECT c.uuid FROM cards c LEFT JOIN postings p ON p.card_uuid = c.uuid
     GROUP BY c.uuid, c.balance HAVING c.balance <> coalesce(sum(p.amount), 0)) x) AS drifted,
  (SELECT coalesce(sum(amount), 0) FROM postings WHERE system_book = 'holds') AS holds_book,
  (SELECT coalesce(sum(amount - captured_amount), 0) FROM transactions
     WHERE type = 'card_purchase' AND status = 'pending') AS pending_held
"""


@dataclass
class Live:
    server: Server
    url: str
    key: str

    def cli(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "cardservice", *args],
            env=self.server.env, check=True, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        return done.stdout.strip()

    def client(self, secret: str) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {secret}"}
        return httpx.AsyncClient(base_url=self.server.base, headers=headers, timeout=60)

    async def books(self) -> asyncpg.Record:
        connection = await asyncpg.connect(self.url)
        try:
            row = await connection.fetchrow(BOOKS)
        finally:
            await connection.close()
        assert row["ledger_sum"] == 0 and row["unbalanced"] == 0, dict(row)
        assert row["negative"] == 0 and row["drifted"] == 0, dict(row)
        assert row["holds_book"] == row["pending_held"], dict(row)
        return row

    async def holder(self, operator: httpx.AsyncClient, funds: int) -> tuple[str, str]:
        """A user with a funded USD account through the operator API: (token, account)."""
        email = f"race-{uuid.uuid4().hex[:8]}@example.com"
        user = (await operator.post("/operator/users", json={"email": email, "name": "R"})).json()
        user_uuid = user["data"]["uuid"]
        body = {"user_uuid": user_uuid, "name": "Main", "currency": "USD"}
        account = (await operator.post("/operator/accounts", json=body)).json()["data"]["uuid"]
        credit = {"amount": funds, "external_id": f"fund-{account}"}
        assert (
            await operator.post(f"/operator/accounts/{account}/credits", json=credit)
        ).status_code == 201
        token = (await operator.post(f"/operator/users/{user_uuid}/tokens", json={})).json()
        return token["data"]["token"], account


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """One database and one two-worker server for the module's races."""
    url = asyncio.run(create_migrated_database(ADMIN_DSN, "cs_ops"))
    workdir = Path("/tmp", database_name(url))
    workdir.mkdir()
    server = Server(url, workdir, workers=2)
    try:
        asyncio.run(server.start())
        probe = Live(server, url, "")
        key = probe.cli("operator-keys", "create", "--name", "race", "--scopes", "users,funding")
        yield Live(server, url, key)
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
        asyncio.run(drop_database(ADMIN_DSN, url))


async def _bin(client: httpx.AsyncClient) -> str:
    bins = (await client.get("/dictionary/bins")).json()["data"]
    return next(b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available")


async def test_twenty_concurrent_identical_credits_make_one_deposit(live: Live) -> None:
    async with live.client(live.key) as operator:
        _token, account = await live.holder(operator, 1)
        body = {"amount": 250, "external_id": f"wire-{account}"}
        path = f"/operator/accounts/{account}/credits"
        answers = await asyncio.gather(*(operator.post(path, json=body) for _ in range(20)))
    assert sorted(a.status_code for a in answers) == [200] * 19 + [201], [a.text for a in answers]
    assert len({a.json()["data"]["uuid"] for a in answers}) == 1
    connection = await asyncpg.connect(live.url)
    try:
        count = await connection.fetchval(
            "SELECT count(*) FROM transactions WHERE account_uuid = $1 AND type = 'deposit'",
            uuid.UUID(account),
        )
        balance = await connection.fetchval(
            "SELECT balance FROM accounts WHERE uuid = $1", uuid.UUID(account)
        )
    finally:
        await connection.close()
    assert count == 2 and balance == 100 + 25000  # the funding credit and this one
    await live.books()


async def test_a_debit_racing_card_purchases_never_takes_the_account_negative(live: Live) -> None:
    async with live.client(live.key) as operator:
        token, account = await live.holder(operator, 1000)
        async with live.client(token) as holder:
            bin_uuid = await _bin(holder)
            buy = {"account_uuid": account, "bin_uuid": bin_uuid, "start_balance": 100}
            debit = {"amount": 600, "external_id": f"out-{account}"}
            answers = await asyncio.gather(
                *(holder.post("/card/buy", json=buy) for _ in range(6)),
                operator.post(f"/operator/accounts/{account}/debits", json=debit),
                *(holder.post("/card/buy", json=buy) for _ in range(6)),
            )
            final = (await holder.get(f"/account/{account}")).json()["data"]["balance"]
    assert {a.status_code for a in answers} <= {201, 422}, [a.text for a in answers]
    refused = [a.json()["code"] for a in answers if a.status_code == 422]
    assert set(refused) <= {"insufficient_funds"}
    bought = [a for a in answers[:6] + answers[7:] if a.status_code == 201]
    spent = sum(float(a.json()["data"]["charge"]["total"]) for a in bought)
    debited = 600 if answers[6].status_code == 201 else 0
    assert final >= 0 and abs(final - (1000 - spent - debited)) < 0.005
    await live.books()


async def test_a_topup_confirmed_twice_at_once_credits_once(live: Live) -> None:
    async with live.client(live.key) as operator:
        token, account = await live.holder(operator, 1)
        async with live.client(token) as holder:
            ask = {
                "account_uuid": account,
                "method": "bank-transfer",
                "currency": "USD",
                "amount": 400,
            }
            topup = (await holder.post("/topups", json=ask)).json()["data"]
            path = f"/operator/topups/{topup['uuid']}/confirm"
            answers = await asyncio.gather(
                *(operator.post(path, json={"received_amount": 400}) for _ in range(10))
            )
            final = (await holder.get(f"/account/{account}")).json()["data"]["balance"]
    assert sorted(a.status_code for a in answers) == [200] + [409] * 9, [a.text for a in answers]
    assert final == 1 + 398  # 400 less the method's 0.50 %
    await live.books()


async def test_a_replacement_racing_authorizations_leaves_the_money_on_one_card(live: Live) -> None:
    async with live.client(live.key) as operator:
        token, account = await live.holder(operator, 500)
    async with live.client(token) as holder:
        buy = {"account_uuid": account, "bin_uuid": await _bin(holder), "start_balance": 200}
        card = (await holder.post("/card/buy", json=buy)).json()["data"]["cards"][0]["uuid"]
        auth = {"card_uuid": card, "amount": 9, "currency": "USD", "merchant_name": "Shop"}
        answers = await asyncio.gather(
            *(holder.post("/sandbox/authorizations", json=auth) for _ in range(8)),
            holder.post(f"/card/{card}/replace", json={"reason": "lost"}),
            *(holder.post("/sandbox/authorizations", json=auth) for _ in range(8)),
        )
        replaced = answers[8]
        assert replaced.status_code == 201, replaced.text
        new = replaced.json()["data"]
        old = (await holder.get(f"/card/{card}")).json()["data"]
        new = (await holder.get(f"/card/{new['uuid']}")).json()["data"]
        approved = [
            a.json()["data"] for a in answers if a.json()["data"].get("status") == "pending"
        ]
        declined = [
            a.json()["data"] for a in answers if a.json()["data"].get("status") == "declined"
        ]
        for purchase in approved:  # holds taken before the replacement release to the new card
            reversed_ = await holder.post(f"/sandbox/transactions/{purchase['uuid']}/reverse")
            assert reversed_.status_code == 201, reversed_.text
        after = (await holder.get(f"/card/{new['uuid']}")).json()["data"]
    assert len(approved) + len(declined) == 16
    assert {d["error"] for d in declined} <= {"card_closed"}
    assert old["status"] == "closed" and old["balance"] == 0 and old["replaced_by"] == new["uuid"]
    held = sum(a["amount"] + a["fee"] for a in approved)
    assert abs(new["balance"] + held - 200) < 0.005, (new["balance"], held)
    assert after["balance"] == 200
    await live.books()

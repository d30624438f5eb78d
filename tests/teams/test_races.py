"""The team budget under concurrency between processes: `cardservice serve --workers 2` on
PostgreSQL, one member's authorizations spread over two of their cards (on two accounts, so
only the budget's own lock puts them in line)."""

from __future__ import annotations

import asyncio
import os
import uuid

import asyncpg
import httpx
import pytest

from tests.operator.test_races import Live, live  # noqa: F401 - the two-worker server

pytestmark = pytest.mark.skipif(
    "postgresql" not in os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql"),
    reason="row locks across two server processes: PostgreSQL",
)


async def _team_user(operator: httpx.AsyncClient, team: str, role: str) -> tuple[str, str]:
    """A user of the team through the operator API: (uuid, token)."""
    email = f"team-{uuid.uuid4().hex[:8]}@example.com"
    body = {"email": email, "name": role.title(), "team": team, "role": role}
    user = (await operator.post("/operator/users", json=body)).json()["data"]["uuid"]
    token = (await operator.post(f"/operator/users/{user}/tokens", json={})).json()
    return user, token["data"]["token"]


async def _funded_card(operator: httpx.AsyncClient, holder: httpx.AsyncClient, user: str) -> str:
    body = {"user_uuid": user, "name": "Main", "currency": "USD"}
    account = (await operator.post("/operator/accounts", json=body)).json()["data"]["uuid"]
    credit = {"amount": 500, "external_id": f"fund-{account}"}
    assert (
        await operator.post(f"/operator/accounts/{account}/credits", json=credit)
    ).status_code == 201
    bins = (await holder.get("/dictionary/bins")).json()["data"]
    bin_uuid = next(
        b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
    )
    buy = {"account_uuid": account, "bin_uuid": bin_uuid, "start_balance": 300}
    bought = await holder.post("/card/buy", json=buy)
    assert bought.status_code == 201, bought.text
    card: str = bought.json()["data"]["cards"][0]["uuid"]
    return card


async def test_thirty_authorizations_on_two_cards_never_pass_the_budget(live: Live) -> None:  # noqa: F811
    team = f"race-{uuid.uuid4().hex[:8]}"
    async with live.client(live.key) as operator:
        _owner, owner_token = await _team_user(operator, team, "owner")
        member, member_token = await _team_user(operator, team, "member")
        async with live.client(member_token) as holder, live.client(owner_token) as owner:
            cards = [await _funded_card(operator, holder, member) for _ in range(2)]
            budget = {"amount": 100, "currency": "USD"}
            assert (
                await owner.put(f"/team/members/{member}/budget", json=budget)
            ).status_code == 200
            answers = await asyncio.gather(
                *(
                    holder.post(
                        "/sandbox/authorizations",
                        json={"card_uuid": cards[i % 2], "amount": 10, "currency": "USD",
                              "merchant_name": "Shop"},
                    )
                    for i in range(30)
                )
            )  # fmt: skip
            budgets = (await owner.get("/team/budgets")).json()["data"]
    outcomes = [a.json()["data"] for a in answers]
    assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
    assert sum(o["status"] == "pending" for o in outcomes) == 10
    assert sum(o["error"] == "budget_exceeded" for o in outcomes) == 20
    assert {o["card_uuid"] for o in outcomes if o["status"] == "pending"} <= set(cards)
    assert (budgets[0]["spent"], budgets[0]["remaining"]) == (100, 0)
    connection = await asyncpg.connect(live.url)
    try:
        spent = await connection.fetchval(
            "SELECT sum(amount) FROM transactions WHERE user_uuid = $1 AND type = 'card_purchase'"
            " AND status = 'pending'",
            uuid.UUID(member),
        )
    finally:
        await connection.close()
    assert spent == 10_000
    await live.books()

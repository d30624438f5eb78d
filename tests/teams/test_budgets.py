"""Team budgets (docs/teams.md#teams-budgets-requests-receipts): who sets and reads them, what
`spent` counts, the decline `budget_exceeded` on every channel with no money moved, and the bad
input refused."""

from __future__ import annotations

import random
import uuid
from datetime import UTC, datetime
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from tests.factories import Caller, assert_ledger_consistent, authorize, balances, make_user
from tests.network.conftest import Network, issue_card
from tests.teams.team import call, make_team, member_card, rows, set_budget

BUDGET_ROWS = "SELECT user_uuid, currency, amount FROM team_budgets"


def month() -> str:
    return datetime.now(UTC).strftime("%Y-%m")


async def budgets(client: httpx.AsyncClient, user: Caller) -> list[dict[str, object]]:
    response = await call(client, user, "GET", "/team/budgets")
    assert response.status_code == 200, response.text
    found: list[dict[str, object]] = response.json()["data"]
    return found


async def test_the_owner_sets_a_budget_and_each_reads_what_concerns_them(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app, members=2)
    first, second = team.members
    await member_card(app, client, first)
    await member_card(app, client, second)
    answer = await set_budget(client, team, first, 300)
    assert answer.status_code == 200, answer.text
    assert answer.json()["data"] == {
        "member": {"uuid": str(first.uuid), "name": "Test User"},
        "currency": "USD",
        "amount": 300,
        "monthly_amount": 300,
        "spent": 0,
        "remaining": 300,
        "month": month(),
    }
    assert (await set_budget(client, team, second, 50.5)).status_code == 200
    assert {b["member"]["uuid"] for b in await budgets(client, team.owner)} == {  # type: ignore[index]
        str(first.uuid),
        str(second.uuid),
    }
    assert [b["member"]["uuid"] for b in await budgets(client, first)] == [str(first.uuid)]  # type: ignore[index]
    outsider = await make_user(app)
    assert (await call(client, outsider, "GET", "/team/budgets")).status_code == 404
    assert (await rows(app, BUDGET_ROWS)) and len(await rows(app, BUDGET_ROWS)) == 2


async def test_only_the_owner_manages_budgets_and_only_of_their_members(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, other = await make_team(app, members=2), await make_team(app)
    first, second = team.members
    await member_card(app, client, first)
    path = f"/team/members/{first.uuid}/budget"
    body = {"amount": 100, "currency": "USD"}
    assert (await call(client, second, "PUT", path, body)).status_code == 404  # a member
    assert (await call(client, first, "PUT", path, body)).status_code == 404  # themselves
    assert (await call(client, other.owner, "PUT", path, body)).status_code == 404
    assert (await set_budget(client, team, other.members[0], 100)).status_code == 404
    assert (await call(client, other.owner, "DELETE", path)).status_code == 404
    assert await rows(app, BUDGET_ROWS) == []


async def test_bad_budgets_are_refused_and_nothing_is_written(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    await member_card(app, client, member)
    for amount in (-5, 0, Decimal("10.005"), "10"):
        answer = await set_budget(client, team, member, amount)
        assert answer.status_code == 422, (amount, answer.text)
        assert answer.json()["code"] == "validation_error"
        assert "amount" in answer.json()["errors"]
    euros = await set_budget(client, team, member, 100, "EUR")  # no EUR account
    assert euros.status_code == 422 and "currency" in euros.json()["errors"], euros.text
    assert (await set_budget(client, team, member, 100, "usd")).status_code == 422
    assert await rows(app, BUDGET_ROWS) == []


async def test_an_authorization_past_the_budget_is_declined_and_moves_no_money(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    cards = [await member_card(app, client, member) for _ in range(2)]
    assert (await set_budget(client, team, member, 100)).status_code == 200
    first = (await authorize(client, member, cards[0], "60")).json()["data"]
    assert first["status"] == "pending"
    before = await rows(app, "SELECT uuid, balance FROM cards ORDER BY uuid")
    refused = (await authorize(client, member, cards[1], "40.01")).json()["data"]
    assert (refused["status"], refused["error"], refused["fee"]) == (
        "declined",
        "budget_exceeded",
        0,
    )
    assert await rows(app, "SELECT uuid, balance FROM cards ORDER BY uuid") == before
    fits = (await authorize(client, member, cards[1], "40")).json()["data"]
    assert fits["status"] == "pending"
    [budget] = await budgets(client, member)
    assert (budget["spent"], budget["remaining"]) == (100, 0)
    await assert_ledger_consistent(app)


async def test_spent_counts_approvals_less_releases_and_refunds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    assert (await set_budget(client, team, member, 100)).status_code == 200
    held = (await authorize(client, member, card, "30")).json()["data"]["uuid"]
    released = (await authorize(client, member, card, "20")).json()["data"]["uuid"]
    refunded = (await authorize(client, member, card, "25")).json()["data"]["uuid"]
    await call(client, member, "POST", f"/sandbox/transactions/{released}/reverse")
    await call(client, member, "POST", f"/sandbox/transactions/{refunded}/settle")
    await call(client, member, "POST", f"/sandbox/transactions/{refunded}/refund", {"amount": 10})
    [budget] = await budgets(client, team.owner)
    assert (budget["spent"], budget["remaining"]) == (45, 55)
    assert held


async def test_spent_is_the_sum_of_the_members_purchases_after_a_random_run(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    cards = [await member_card(app, client, member, start="2000") for _ in range(2)]
    assert (await set_budget(client, team, member, 400)).status_code == 200
    chance = random.Random(44)
    pending: list[str] = []
    completed: list[str] = []
    for _ in range(40):
        step = chance.choice(("authorize", "authorize", "settle", "reverse", "refund"))
        if step == "authorize":
            amount = f"{chance.randint(1, 9000) / 100:.2f}"
            data = (await authorize(client, member, chance.choice(cards), amount)).json()["data"]
            if data["status"] == "pending":
                pending.append(data["uuid"])
        elif step in ("settle", "reverse") and pending:
            done = pending.pop(chance.randrange(len(pending)))
            await call(client, member, "POST", f"/sandbox/transactions/{done}/{step}")
            if step == "settle":
                completed.append(done)
        elif step == "refund" and completed:
            part = {"amount": Decimal(chance.randint(1, 500)) / 100}
            await call(client, member, "POST", f"/sandbox/transactions/{completed[0]}/refund", part)
    [(purchases,)] = await rows(
        app,
        "SELECT coalesce(sum(amount - refunded_amount), 0) FROM transactions"
        " WHERE user_uuid = $1 AND type = 'card_purchase'"
        " AND status IN ('pending', 'completed', 'refunded')",
        member.uuid,
    )
    [budget] = await budgets(client, member)
    assert Decimal(str(budget["spent"])) == Decimal(purchases) / 100
    assert Decimal(str(budget["spent"])) <= 400
    await assert_ledger_consistent(app)


async def test_an_iso_8583_authorization_past_the_budget_answers_61(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    team = await make_team(app)
    member = team.members[0]
    _user, card = await issue_card(app, client, member)
    assert (await set_budget(client, team, member, 20)).status_code == 200
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 2_001, *network.key())
    )
    assert answer.fields[39] == "61"
    _account, [balance] = await balances(app, card.account)
    assert balance == 10_000  # no hold, no decline fee
    approved = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 2_000, *network.key())
    )
    assert approved.fields[39] == "00"
    [budget] = await budgets(client, member)
    assert budget["spent"] == 20


async def test_a_stand_in_advice_past_the_budget_is_booked_and_counted(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    team = await make_team(app)
    member = team.members[0]
    _user, card = await issue_card(app, client, member)
    assert (await set_budget(client, team, member, 20)).status_code == 200
    advice = await network.client.request(
        "0120", messages.authorization(card.pan, card.expiry, 3_000, *network.key())
    )
    assert advice.fields[39] == "00"
    [budget] = await budgets(client, member)
    assert (budget["spent"], budget["remaining"]) == (30, -10)
    refused = (await authorize(client, member, card.uuid, "0.01")).json()["data"]
    assert refused["error"] == "budget_exceeded"


async def test_deleting_a_budget_lifts_it(app: FastAPI, client: httpx.AsyncClient) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    assert (await set_budget(client, team, member, 10)).status_code == 200
    assert (await authorize(client, member, card, "11")).json()["data"][
        "error"
    ] == "budget_exceeded"
    path = f"/team/members/{member.uuid}/budget"
    assert (await call(client, team.owner, "DELETE", path)).status_code == 200
    assert (await call(client, team.owner, "DELETE", path)).status_code == 404
    assert await rows(app, BUDGET_ROWS) == []
    assert (await authorize(client, member, card, "11")).json()["data"]["status"] == "pending"
    assert uuid.UUID(card)

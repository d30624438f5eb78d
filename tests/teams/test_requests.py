"""Team requests (docs/teams.md#teams-budgets-requests-receipts): a member asks, the owner decides;
an approval carries the request out in the decision's unit, a decided request is final (also under a
race), nobody decides their own request, and bad requests change nothing."""

from __future__ import annotations

import asyncio
import uuid
from decimal import Decimal

import httpx
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent, balances, bin_uuid, make_user
from tests.teams.team import (
    call,
    events_of,
    make_team,
    member_account,
    member_card,
    rows,
    set_budget,
)

REQUESTS = "SELECT status FROM team_requests"


async def card_request(
    app: FastAPI, client: httpx.AsyncClient, member: object, account: uuid.UUID, start: str = "25"
) -> httpx.Response:
    body = {
        "kind": "card",
        "account_uuid": str(account),
        "bin_uuid": await bin_uuid(app),
        "start_balance": Decimal(start),
        "description": "Travel",
    }
    return await call(client, member, "POST", "/team/requests", body)  # type: ignore[arg-type]


async def test_an_approved_card_request_buys_the_card_as_card_buy_does(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    account = await member_account(app, member, funds="100")
    asked = await card_request(app, client, member, account)
    assert asked.status_code == 201, asked.text
    request = asked.json()["data"]
    assert (request["kind"], request["status"], request["requested_by"]["uuid"]) == (
        "card",
        "pending",
        str(member.uuid),
    )
    assert request["details"]["start_balance"] == 25
    approved = await call(client, team.owner, "POST", f"/team/requests/{request['uuid']}/approve")
    assert approved.status_code == 200, approved.text
    data = approved.json()["data"]
    assert data["status"] == "approved" and data["decided_by"]["uuid"] == str(team.owner.uuid)
    [card_uuid] = data["result"]["card_uuids"]
    # the price of POST /card/buy: 2.00 issue fee + 25 + 1.5 % of 25 (0.375 → 0.38)
    assert data["result"]["charge"]["total"] == 27.38
    balance, cards = await balances(app, account)
    assert (balance, cards) == (10_000 - 2_738, [2_500])
    card = (await call(client, member, "GET", f"/card/{card_uuid}")).json()["data"]
    assert (card["account_uuid"], card["description"]) == (str(account), "Travel")
    for user in (member, team.owner):
        created = await events_of(client, user, "team.request.created")
        approved_events = await events_of(client, user, "team.request.approved")
        assert [e["data"]["uuid"] for e in created] == [request["uuid"]]
        assert [e["data"]["status"] for e in approved_events] == ["approved"]
    await assert_ledger_consistent(app)


async def test_an_approval_the_account_cannot_pay_leaves_the_request_pending(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    account = await member_account(app, member, funds="10")
    request = (await card_request(app, client, member, account)).json()["data"]
    refused = await call(client, team.owner, "POST", f"/team/requests/{request['uuid']}/approve")
    assert refused.status_code == 422 and refused.json()["code"] == "insufficient_funds"
    assert await rows(app, REQUESTS) == [("pending",)]
    assert await rows(app, "SELECT uuid FROM cards") == []
    assert (await balances(app, account)) == (1_000, [])


async def test_an_approved_budget_increase_raises_this_months_budget(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    await member_card(app, client, member)
    assert (await set_budget(client, team, member, 100)).status_code == 200
    body = {"kind": "budget_increase", "amount": 50.5, "currency": "USD", "reason": "Trip"}
    request = (await call(client, member, "POST", "/team/requests", body)).json()["data"]
    assert request["details"] == {"amount": 50.5, "currency": "USD", "reason": "Trip"}
    path = f"/team/requests/{request['uuid']}/approve"
    approved = (await call(client, team.owner, "POST", path)).json()["data"]
    assert approved["result"]["amount"] == 150.5
    [budget] = (await call(client, member, "GET", "/team/budgets")).json()["data"]
    assert (budget["amount"], budget["monthly_amount"], budget["remaining"]) == (150.5, 100, 150.5)


async def test_a_decided_request_cannot_be_decided_again(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    account = await member_account(app, member)
    request = (await card_request(app, client, member, account)).json()["data"]
    base = f"/team/requests/{request['uuid']}"
    declined = await call(client, team.owner, "POST", f"{base}/decline", {"reason": "Not now"})
    assert declined.status_code == 200
    assert declined.json()["data"]["decision_reason"] == "Not now"
    for action, body in (("approve", None), ("decline", {})):
        again = await call(client, team.owner, "POST", f"{base}/{action}", body)
        assert again.status_code == 409 and again.json()["code"] == "request_decided"
    assert await rows(app, "SELECT uuid FROM cards") == []
    events = await events_of(client, member, "team.request.declined")
    assert [e["data"]["decision_reason"] for e in events] == ["Not now"]


async def test_two_owners_approving_at_once_buy_one_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    second_owner = await make_user(app, team=team.name, role="owner")
    member = team.members[0]
    account = await member_account(app, member, funds="500")
    request = (await card_request(app, client, member, account)).json()["data"]
    path = f"/team/requests/{request['uuid']}/approve"
    answers = await asyncio.gather(
        *(call(client, owner, "POST", path) for owner in (team.owner, second_owner) * 3)
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 5, [a.text for a in answers]
    assert len(await rows(app, "SELECT uuid FROM cards")) == 1
    assert (await balances(app, account))[0] == 50_000 - 2_738
    await assert_ledger_consistent(app)


async def test_nobody_decides_their_own_request_or_another_teams(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team, other = await make_team(app, members=2), await make_team(app)
    member, teammate = team.members
    account = await member_account(app, member)
    request = (await card_request(app, client, member, account)).json()["data"]
    path = f"/team/requests/{request['uuid']}/approve"
    for user in (member, teammate, other.owner):
        assert (await call(client, user, "POST", path)).status_code == 404
    assert (
        await call(client, teammate, "GET", f"/team/requests/{request['uuid']}")
    ).status_code == 404
    mine = (await call(client, teammate, "GET", "/team/requests")).json()
    assert (mine["data"], mine["meta"]["total"]) == ([], 0)
    listed = (
        await call(client, team.owner, "GET", "/team/requests?filters[status]=pending")
    ).json()
    assert [r["uuid"] for r in listed["data"]] == [request["uuid"]]
    assert await rows(app, REQUESTS) == [("pending",)]


async def test_bad_requests_are_refused_and_nothing_is_written(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    stranger = await make_user(app)
    foreign = await member_account(app, stranger)
    assert (await card_request(app, client, member, foreign)).status_code == 404
    assert (await card_request(app, client, team.owner, foreign)).status_code == 404  # an owner
    own = await member_account(app, member)
    bad = [
        {"kind": "card", "account_uuid": str(own)},  # no bin
        {"kind": "budget_increase", "amount": 10},  # no currency
        {"kind": "budget_increase", "amount": -1, "currency": "USD"},
        {"kind": "budget_increase", "amount": 0, "currency": "USD"},
        {"kind": "budget_increase", "amount": Decimal("1.001"), "currency": "USD"},
        {"kind": "budget_increase", "amount": 5, "currency": "USD", "account_uuid": str(own)},
        {"kind": "loan", "amount": 5},
    ]
    for body in bad:
        answer = await call(client, member, "POST", "/team/requests", body)
        assert answer.status_code == 422 and answer.json()["code"] == "validation_error", body
    no_budget = {"kind": "budget_increase", "amount": 5, "currency": "USD"}
    answer = await call(client, member, "POST", "/team/requests", no_budget)
    assert answer.status_code == 422 and answer.json()["code"] == "no_budget"
    assert await rows(app, REQUESTS) == []

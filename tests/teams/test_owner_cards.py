"""A team's owner acts on the members' cards and sets the card policy
(docs/teams.md#a-team-owner-and-the-members-cards, docs/teams.md#the-card-policy): through the
member's own PATCH use case, audited with the owner as actor; everybody else's card stays 404,
bad values are 422 and change nothing."""

from __future__ import annotations

import uuid
from decimal import Decimal

import httpx
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent, bin_uuid, make_card, make_user
from tests.teams.team import call, make_team, member_account, member_card, rows

CARD = "SELECT status, frozen_reason, description FROM cards WHERE uuid = $1"
AUDIT = "SELECT actor_type, actor_id, action, details FROM audit_log WHERE object_uuid = $1"


async def _card(app: FastAPI, card: str) -> tuple[object, ...]:
    [row] = await rows(app, CARD, uuid.UUID(card))
    return row


async def test_an_owner_freezes_a_members_card_and_only_an_owner_unfreezes_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    frozen = await call(client, team.owner, "PATCH", f"/card/{card}", {"status": "frozen"})
    assert frozen.status_code == 200, frozen.text
    assert (frozen.json()["data"]["status"], frozen.json()["data"]["frozen_reason"]) == (
        "frozen",
        "owner",
    )
    for status in ("active", "frozen"):  # the holder neither lifts nor overwrites it
        refused = await call(client, member, "PATCH", f"/card/{card}", {"status": status})
        assert (refused.status_code, refused.json()["code"]) == (422, "frozen_by_owner")
    assert await _card(app, card) == ("frozen", "owner", None)
    lifted = await call(client, team.owner, "PATCH", f"/card/{card}", {"status": "active"})
    assert lifted.status_code == 200 and lifted.json()["data"]["status"] == "active"
    audit = await rows(app, AUDIT + " ORDER BY created_at", uuid.UUID(card))
    assert [(a[0], a[1], a[2]) for a in audit] == [
        ("user", str(team.owner.uuid), "card.frozen"),
        ("user", str(team.owner.uuid), "card.unfrozen"),
    ]
    assert str(member.uuid) in audit[0][3]


async def test_an_owner_reads_a_members_card_as_its_holder_does(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member, start="40")
    held = await call(client, member, "GET", f"/card/{card}")
    read = await call(client, team.owner, "GET", f"/card/{card}")
    assert read.status_code == 200, read.text
    assert read.json() == held.json()
    data = read.json()["data"]
    assert data["uuid"] == card and Decimal(str(data["balance"])) == 40
    assert await rows(app, "SELECT 1 FROM audit_log") == []  # a read is not audited


async def test_an_owner_does_not_lift_the_holders_own_freeze(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member)
    assert (await call(client, member, "PATCH", f"/card/{card}", {"status": "frozen"})).is_success
    refused = await call(client, team.owner, "PATCH", f"/card/{card}", {"status": "active"})
    assert (refused.status_code, refused.json()["code"]) == (422, "frozen_by_holder")
    assert await _card(app, card) == ("frozen", None, None)


async def test_an_owner_sets_controls_and_description_and_closes_a_members_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    card = await member_card(app, client, member, start="40")
    body = {"description": "Travel only", "spending_controls": {"per_authorization": 25}}
    changed = await call(client, team.owner, "PATCH", f"/card/{card}", body)
    assert changed.status_code == 200, changed.text
    data = changed.json()["data"]
    assert data["description"] == "Travel only"
    assert Decimal(str(data["spending_controls"]["per_authorization"])) == 25
    closed = await call(client, team.owner, "PATCH", f"/card/{card}", {"status": "closed"})
    assert closed.status_code == 200 and closed.json()["data"]["status"] == "closed"
    assert closed.json()["data"]["balance"] == 0
    actions = [a[2] for a in await rows(app, AUDIT + " ORDER BY created_at", uuid.UUID(card))]
    assert actions == ["card.updated", "card.closed"]
    await assert_ledger_consistent(app)


async def test_an_owner_changes_no_other_field_of_a_members_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    card = await member_card(app, client, team.members[0])
    body = {"status": "frozen", "holder_name": "Somebody Else"}
    refused = await call(client, team.owner, "PATCH", f"/card/{card}", body)
    assert refused.status_code == 422 and "holder_name" in refused.json()["errors"]
    assert await _card(app, card) == ("active", None, None)


async def test_everybody_else_gets_404_and_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app, members=2)
    first, second = team.members
    card = await member_card(app, client, first)
    _account, owners = await make_card(app, client, team.owner)
    other_team = await make_team(app)
    co_owner = await make_user(app, team=team.name, role="owner")
    outsider = await make_user(app)
    attempts = [
        (second, card),  # a member on another member's card
        (first, owners),  # a member on the owner's card
        (other_team.owner, card),  # an owner of another team
        (co_owner, owners),  # an owner on another owner's card
        (outsider, card),
    ]
    for caller, target in attempts:
        refused = await call(client, caller, "PATCH", f"/card/{target}", {"status": "frozen"})
        assert (refused.status_code, refused.json()["code"]) == (404, "not_found")
        unread = await call(client, caller, "GET", f"/card/{target}")
        assert (unread.status_code, unread.json()["code"]) == (404, "not_found")
    assert await _card(app, card) == ("active", None, None)
    assert await _card(app, owners) == ("active", None, None)
    assert await rows(app, "SELECT 1 FROM audit_log") == []


async def test_with_the_request_policy_a_member_asks_instead_of_buying(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    member = team.members[0]
    policy = await call(client, member, "GET", "/team/card-policy")
    assert policy.json()["data"] == {"member_cards": "direct"}
    assert (
        await call(client, member, "PUT", "/team/card-policy", {"member_cards": "request"})
    ).status_code == 404
    put = await call(client, team.owner, "PUT", "/team/card-policy", {"member_cards": "request"})
    assert put.status_code == 200 and put.json()["data"] == {"member_cards": "request"}
    account = await member_account(app, member)
    body = {"account_uuid": str(account), "bin_uuid": await bin_uuid(app), "start_balance": 10}
    refused = await call(client, member, "POST", "/card/buy", body)
    assert (refused.status_code, refused.json()["code"]) == (403, "request_required")
    assert await rows(app, "SELECT 1 FROM cards") == []
    asked = await call(client, member, "POST", "/team/requests", {"kind": "card", **body})
    assert asked.status_code == 201, asked.text
    approved = await call(
        client, team.owner, "POST", f"/team/requests/{asked.json()['data']['uuid']}/approve"
    )
    assert approved.status_code == 200 and approved.json()["data"]["status"] == "approved"
    await make_card(app, client, team.owner)  # the owner still buys
    assert len(await rows(app, "SELECT 1 FROM cards")) == 2
    direct = await call(client, team.owner, "PUT", "/team/card-policy", {"member_cards": "direct"})
    assert direct.json()["data"] == {"member_cards": "direct"}
    assert (await call(client, member, "POST", "/card/buy", body)).status_code == 201


async def test_a_bad_policy_is_422_and_strangers_get_404(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = await make_team(app)
    for bad in (
        {"member_cards": "ask"},
        {"member_cards": None},
        {},
        {"member_cards": "direct", "x": 1},
    ):
        refused = await call(client, team.owner, "PUT", "/team/card-policy", bad)
        assert (refused.status_code, refused.json()["code"]) == (422, "validation_error"), bad
    assert (await call(client, team.owner, "GET", "/team/card-policy")).json()["data"] == {
        "member_cards": "direct"
    }
    outsider = await make_user(app)
    assert (await call(client, outsider, "GET", "/team/card-policy")).status_code == 404
    put = await call(client, outsider, "PUT", "/team/card-policy", {"member_cards": "request"})
    assert put.status_code == 404


async def _buy(client: httpx.AsyncClient, app: FastAPI, user: object, account: object) -> str:
    body = {"account_uuid": str(account), "bin_uuid": await bin_uuid(app), "start_balance": 5}
    bought = await call(client, user, "POST", "/card/buy", body)  # type: ignore[arg-type]
    assert bought.status_code == 201, bought.text
    return str(bought.json()["data"]["cards"][0]["uuid"])


async def test_the_owner_lists_every_card_of_each_member_and_nobody_elses(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """`GET /team/cards` (docs/teams.md#a-team-owner-and-the-members-cards): every card of
    each member, several on one account and on two accounts, with its holder; not a closed
    card, not an owner's (the caller's or a co-owner's); a member and a stranger: 404."""
    team = await make_team(app, members=2)
    ada, bob = team.members
    co_owner = await make_user(app, team=team.name, role="owner")
    account = await member_account(app, ada)
    ada_cards = [await _buy(client, app, ada, account) for _ in range(2)]
    ada_cards.append(await member_card(app, client, ada))  # on a second account
    bob_card, closed = await member_card(app, client, bob), await member_card(app, client, bob)
    shut = await call(client, bob, "PATCH", f"/card/{closed}", {"status": "closed"})
    assert shut.status_code == 200, shut.text
    await member_card(app, client, team.owner)
    await member_card(app, client, co_owner)
    for owner in (team.owner, co_owner):
        listed = await call(client, owner, "GET", "/team/cards?per_page=500")
        assert listed.status_code == 200, listed.text
        cards = listed.json()["data"]["cards"]
        holders = {str(ada.uuid): sorted(ada_cards), str(bob.uuid): [bob_card]}
        found: dict[str, list[str]] = {}
        for card in cards:
            found.setdefault(card["holder"]["uuid"], []).append(card["uuid"])
            assert card["holder"]["name"] == "Test User" and "number" not in card
        assert {k: sorted(v) for k, v in found.items()} == holders
        assert listed.json()["meta"]["total"] == 4
    paged = await call(client, team.owner, "GET", "/team/cards?per_page=3&page=2")
    assert [c["uuid"] for c in paged.json()["data"]["cards"]] == [cards[3]["uuid"]]
    for nobody in (ada, await make_user(app)):
        refused = await call(client, nobody, "GET", "/team/cards")
        assert (refused.status_code, refused.json()["success"]) == (404, False)

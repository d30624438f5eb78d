"""The cards pages change a card only through `PATCH /card/{cardUuid}`: freeze and unfreeze,
close after a confirmation (the balance back to the account), spending controls with the
API's refusals shown by their fields; a team owner manages a member's card on its own page."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.transactions import Authorization, authorize_card
from tests.dashboard.session import post_form, sign_in
from tests.factories import Caller, authorize, bin_uuid, make_card, make_user


async def _card(client: httpx.AsyncClient, user: Caller, card: str) -> dict[str, Any]:
    response = await client.get(f"/card/{card}", headers=user.headers)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()["data"]
    return found


async def _signed_in_with_a_card(
    app: FastAPI, client: httpx.AsyncClient, **extra: str
) -> tuple[Caller, uuid.UUID, str]:
    """A new user with one card, signed in to the dashboard: (user, account, card)."""
    user = await make_user(app)
    account, card = await make_card(app, client, user, **extra)
    await sign_in(client, user)
    return user, account, card


async def test_freeze_and_unfreeze_from_the_list(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, _account, card = await _signed_in_with_a_card(app, client)
    listed = (await client.get("/app/cards")).text
    assert f'action="/app/cards/{card}/freeze"' in listed
    frozen = await post_form(client, f"/app/cards/{card}/freeze", back="list")
    assert frozen.status_code == 303 and frozen.headers["location"] == "/app/cards"
    assert (await _card(client, user, card))["status"] == "frozen"
    declined = (await authorize(client, user, card, "1")).json()["data"]
    assert declined["status"] == "declined" and declined["error"] == "card_frozen"
    listed = (await client.get("/app/cards")).text
    assert f'action="/app/cards/{card}/unfreeze"' in listed
    active = await post_form(client, f"/app/cards/{card}/unfreeze")
    assert active.headers["location"] == f"/app/cards/{card}?done=active#notice"
    assert (await _card(client, user, card))["status"] == "active"
    assert "The card is active again." in (await client.get(active.headers["location"])).text


async def test_a_change_without_the_forms_csrf_token_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, _account, card = await _signed_in_with_a_card(app, client)
    forged = await client.post(f"/app/cards/{card}/freeze", data={"csrf_token": "forged"})
    assert forged.status_code == 403 and "form expired" in forged.text
    assert (await _card(client, user, card))["status"] == "active"


async def test_closing_asks_first_and_returns_the_balance_to_the_account(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, card = await _signed_in_with_a_card(app, client, start_balance="100")
    confirm = await client.get(f"/app/cards/{card}/close")
    assert confirm.status_code == 200 and "Closing is final" in confirm.text
    assert "100.00 USD" in confirm.text and (await _card(client, user, card))["status"] == "active"
    before = (await client.get(f"/account/{account}", headers=user.headers)).json()["data"]
    closed = await post_form(client, f"/app/cards/{card}/close")
    assert closed.headers["location"] == f"/app/cards/{card}?done=closed#notice"
    after = (await client.get(f"/account/{account}", headers=user.headers)).json()["data"]
    assert Decimal(str(after["balance"])) == Decimal(str(before["balance"])) + 100
    assert (await _card(client, user, card))["balance"] == 0
    page = (await client.get(closed.headers["location"])).text
    assert "its balance went back to its account" in page and "/freeze" not in page
    again = await post_form(client, f"/app/cards/{card}/freeze")
    assert again.status_code == 422 and "closed card cannot be changed" in again.text


async def test_controls_are_saved_and_refusals_shown_by_their_fields(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, _account, card = await _signed_in_with_a_card(app, client)
    path = f"/app/cards/{card}/controls"
    bad = await post_form(
        client, path, daily="60", per_authorization="12.345", lifetime="lots", blocked_tags=""
    )
    assert bad.status_code == 422
    assert 'id="f-per_authorization-error"' in bad.text and 'id="f-lifetime-error"' in bad.text
    assert 'id="f-daily-error"' not in bad.text and 'value="12.345"' in bad.text
    assert (await _card(client, user, card))["spending_controls"] is None  # nothing written
    unknown = await post_form(client, path, blocked_tags="no-such-tag")
    assert unknown.status_code == 422 and "unknown tags: no-such-tag" in unknown.text

    saved = await post_form(client, path, daily="60", blocked_tags="uber", blocked_countries="de")
    assert saved.headers["location"] == f"/app/cards/{card}?done=controls#notice"
    controls = (await _card(client, user, card))["spending_controls"]
    assert controls["daily"] == 60 and controls["per_authorization"] is None
    assert controls["blocked_tags"] == ["uber"] and controls["blocked_countries"] == ["DE"]
    assert controls["allowed_tags"] is None and controls["allowed_countries"] is None
    page = (await client.get(saved.headers["location"])).text
    assert 'name="daily" type="text" value="60.00"' in page and "controls are saved" in page
    over = (await authorize(client, user, card, "61")).json()["data"]
    assert over["error"] == "limit_exceeded"

    removed = await post_form(client, path, remove="all")
    assert removed.headers["location"] == f"/app/cards/{card}?done=removed#notice"
    assert (await _card(client, user, card))["spending_controls"] is None


async def test_a_team_owner_manages_a_members_card_on_its_own_page(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """The owner's list links each member's card to its page (docs/teams.md#a-team-owner-and-the-
    members-cards): the holder named, this month's spend and the spend against a limit read
    from the team's spend, no number, no payments; freeze, controls and description act as
    the API's owner; another member's page of the card is 404."""
    owner = await make_user(app, team="Crew", role="owner")
    member = await make_user(app, team="Crew", role="member")
    teammate = await make_user(app, team="Crew", role="member")
    _account, members_card = await make_card(app, client, member)
    assert (await authorize(client, member, members_card, "12.50")).status_code == 201
    state = app.state  # and cash at an ATM: the month counts it, the purchase windows do not
    cash = Authorization(uuid.UUID(members_card), 4_00, "USD", "ATM", type="atm_withdrawal")
    row = await authorize_card(
        state.db, state.outbound, state.cipher, member.uuid, cash, allow_private=True
    )
    assert (row["type"], row["status"]) == ("atm_withdrawal", "pending")
    mask = (await _card(client, member, members_card))["mask"]
    await sign_in(client, owner)
    listed = (await client.get("/app/cards")).text
    assert "Team members' cards" in listed and f'href="/app/cards/{members_card}"' in listed
    assert f'action="/app/cards/{members_card}/freeze"' in listed
    controls = await post_form(client, f"/app/cards/{members_card}/controls", daily="100")
    assert controls.status_code == 303, controls.text
    limits = {"spending_controls": {"daily": 100, "atm_per_day": 20}}
    headers = {**owner.headers, "Content-Type": "application/json"}
    patched = await client.patch(f"/card/{members_card}", json=limits, headers=headers)
    assert patched.status_code == 200, patched.text
    page = await client.get(f"/app/cards/{members_card}?done=controls")
    assert page.status_code == 200, page.text
    assert "Held by <strong" in page.text and mask in page.text
    assert "16.50 USD spent with this card in" in page.text
    assert "12.50 USD of 100.00 USD spent, 87.50 USD left" in page.text  # the daily limit
    assert "4.00 USD of 20.00 USD spent, 16.00 USD left" in page.text  # atm_per_day
    assert "Show details" not in page.text and "Recent transactions" not in page.text
    assert "auto_replenish" not in page.text  # an owner changes no more than the description
    described = await post_form(
        client,
        f"/app/cards/{members_card}/settings",
        description="Travel only",
        fields="description",
    )
    assert described.headers["location"].endswith("?done=description#notice")
    frozen = await post_form(client, f"/app/cards/{members_card}/freeze")
    assert frozen.status_code == 303, frozen.text
    card = await _card(client, member, members_card)
    assert (card["status"], card["frozen_reason"], card["description"]) == (
        "frozen",
        "owner",
        "Travel only",
    )
    assert Decimal(str(card["spending_controls"]["daily"])) == 100
    refused = await post_form(client, f"/app/cards/{members_card}/controls", daily="-5")
    assert refused.status_code == 422 and 'aria-invalid="true"' in refused.text
    assert "Held by" in refused.text  # the owner's page again, with the refusal by its field
    await sign_in(client, teammate)
    assert (await client.get(f"/app/cards/{members_card}")).status_code == 404


async def test_the_owners_list_shows_every_card_of_each_member_and_no_co_owners_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Every card of each member (two on one account, one on another), each linked to a page
    the owner may open; a co-owner's card is not listed — an owner does not manage another
    owner's card, its page is 404 (docs/teams.md#a-team-owner-and-the-members-cards)."""
    owner = await make_user(app, team="Pair", role="owner")
    co_owner = await make_user(app, team="Pair", role="owner")
    member = await make_user(app, team="Pair", role="member")
    account, first = await make_card(app, client, member)
    bought = await client.post(
        "/card/buy",
        json={"account_uuid": str(account), "bin_uuid": await bin_uuid(app), "start_balance": 5},
        headers=member.headers,
    )
    assert bought.status_code == 201, bought.text
    second = bought.json()["data"]["cards"][0]["uuid"]
    _other_account, third = await make_card(app, client, member)
    _co_account, co_owners = await make_card(app, client, co_owner)
    await sign_in(client, owner)
    listed = (await client.get("/app/cards")).text
    team_part = listed[listed.index("Team members' cards") :]
    for card in (first, second, third):
        assert f'href="/app/cards/{card}"' in team_part
        assert (await client.get(f"/app/cards/{card}")).status_code == 200
    assert co_owners not in listed
    assert (await client.get(f"/app/cards/{co_owners}")).status_code == 404

"""The holder's view of a card's wallet tokens, their events, and what the card's life does
to them (docs/network.md#wallet-tokens)."""

from __future__ import annotations

import httpx
import orjson
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent, balances, make_user
from tests.network.conftest import Network, issue_card
from tests.teams.team import make_team
from tests.tokens.conftest import pay, provision, token_row, tokens_of


async def _token_events(app: FastAPI) -> list[tuple[str, dict[str, object]]]:
    rows = await app.state.db.reader.rows(
        "SELECT type, data FROM events WHERE object_type = 'card_token' ORDER BY id"
    )
    return [(kind, orjson.loads(data or "null")) for kind, data in rows]


async def test_the_holder_suspends_resumes_and_deletes_a_token(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    base = f"/card/{card.uuid}/tokens/{wallet.uuid}"
    suspended = await client.post(f"{base}/suspend", headers=user.headers)
    assert suspended.status_code == 200 and suspended.json()["data"]["status"] == "suspended"
    again = await client.post(f"{base}/suspend", headers=user.headers)
    assert again.status_code == 200 and again.json()["data"]["status"] == "suspended"
    resumed = await client.post(f"{base}/resume", headers=user.headers)
    assert resumed.json()["data"]["status"] == "active"
    deleted = await client.post(f"{base}/delete", headers=user.headers)
    assert deleted.json()["data"]["status"] == "deleted"
    refused = await client.post(f"{base}/resume", headers=user.headers)
    assert refused.status_code == 422 and refused.json()["code"] == "token_deleted"
    assert await token_row(app, wallet.reference) == "deleted"
    [listed] = await tokens_of(client, user.headers, card.uuid)
    assert listed["status"] == "deleted" and listed["uuid"] == wallet.uuid
    events = await _token_events(app)
    assert [kind for kind, _ in events] == ["card.token.created"] + ["card.token.updated"] * 3
    assert [data["status"] for _, data in events] == [
        "active", "suspended", "active", "deleted"
    ]  # fmt: skip
    assert all(wallet.dpan not in orjson.dumps(data).decode() for _, data in events)
    assert events[0][1]["last4"] == wallet.dpan[-4:]


async def test_another_users_card_or_token_is_404_and_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    owner, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    stranger, stranger_card = await issue_card(app, client)
    listing = await client.get(f"/card/{card.uuid}/tokens", headers=stranger.headers)
    assert listing.status_code == 404 and listing.json()["code"] == "not_found"
    for action in ("suspend", "resume", "delete"):
        response = await client.post(
            f"/card/{card.uuid}/tokens/{wallet.uuid}/{action}", headers=stranger.headers
        )
        assert response.status_code == 404 and response.json()["code"] == "not_found"
        on_own_card = await client.post(
            f"/card/{stranger_card.uuid}/tokens/{wallet.uuid}/{action}", headers=stranger.headers
        )
        assert on_own_card.status_code == 404  # the token is not that card's
    assert await token_row(app, wallet.reference) == "active"
    assert await tokens_of(client, stranger.headers, stranger_card.uuid) == []
    anonymous = await client.get(f"/card/{card.uuid}/tokens")
    assert anonymous.status_code == 401
    malformed = await client.get("/card/not-a-uuid/tokens", headers=owner.headers)
    assert malformed.status_code == 404
    nobody = await make_user(app)
    assert (
        await client.get(f"/card/{card.uuid}/tokens", headers=nobody.headers)
    ).status_code == 404


async def test_a_closed_cards_tokens_are_deleted(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    closed = await client.patch(
        f"/card/{card.uuid}", headers=user.headers, json={"status": "closed"}
    )
    assert closed.status_code == 200
    assert await token_row(app, wallet.reference) == "deleted"
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "14"
    events = await _token_events(app)
    assert events[-1][0] == "card.token.updated" and events[-1][1]["status"] == "deleted"


async def test_a_replaced_cards_tokens_move_and_pay_from_the_new_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    replaced = await client.post(
        f"/card/{card.uuid}/replace", headers=user.headers, json={"reason": "lost"}
    )
    assert replaced.status_code == 201, replaced.text
    new_card = replaced.json()["data"]["uuid"]
    assert await tokens_of(client, user.headers, card.uuid) == []
    [moved] = await tokens_of(client, user.headers, new_card)
    assert moved["uuid"] == wallet.uuid and moved["status"] == "active"
    assert moved["card_uuid"] == new_card
    _, before = await balances(app, card.account)
    answer = await pay(network, wallet.dpan, wallet.expiry, 1000)
    assert answer[39] == "00"
    _, after = await balances(app, card.account)
    assert sorted(before) != sorted(after)
    report = (await client.get("/transaction/report", headers=user.headers)).json()["data"]
    paid = next(r for r in report if r["type"] == "card_purchase" and r["amount"] == 10)
    assert paid["card_uuid"] == new_card and paid["token"]["uuid"] == wallet.uuid
    assert (await pay(network, card.pan, card.expiry, 100))[39] == "41"  # the lost card
    events = await _token_events(app)
    assert events[-1][0] == "card.token.updated" and events[-1][1]["card_uuid"] == new_card
    await assert_ledger_consistent(app)


async def test_a_team_owner_reads_a_members_card_tokens_and_acts_on_none(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    team, other_team = await make_team(app, members=2), await make_team(app)
    member, teammate = team.members
    _, card = await issue_card(app, client, member)
    _, owner_card = await issue_card(app, client, team.owner)
    _, teammate_card = await issue_card(app, client, teammate)
    wallet = await provision(app, network, card)
    await provision(app, network, owner_card)
    await provision(app, network, teammate_card)
    seen = await tokens_of(client, member.headers, card.uuid)
    assert [token["uuid"] for token in seen] == [wallet.uuid]
    assert await tokens_of(client, team.owner.headers, card.uuid) == seen
    assert len(await tokens_of(client, team.owner.headers, teammate_card.uuid)) == 1
    refused = [
        (other_team.owner, card.uuid),  # the owner of another team
        (other_team.members[0], card.uuid),
        (member, owner_card.uuid),  # a member reads neither the owner's card
        (member, teammate_card.uuid),  # nor a teammate's
    ]
    for caller, card_uuid in refused:
        listing = await client.get(f"/card/{card_uuid}/tokens", headers=caller.headers)
        assert listing.status_code == 404 and listing.json()["code"] == "not_found"
    for action in ("suspend", "delete", "resume"):
        response = await client.post(
            f"/card/{card.uuid}/tokens/{wallet.uuid}/{action}", headers=team.owner.headers
        )
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert await tokens_of(client, member.headers, card.uuid) == seen  # status, updated_at
    updates = await app.state.db.reader.value(
        "SELECT count(*) FROM events WHERE type = 'card.token.updated'"
    )
    assert updates == 0
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "00"

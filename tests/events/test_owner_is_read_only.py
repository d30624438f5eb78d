"""A team owner reads the members' objects but acts on none of them (issue 28, item 3):
`POST /events/{uuid}/redeliver` of a member's event was 202 and queued a new attempt to
the member's endpoint. Every write that takes an id answers the owner 404 for a member's
object and changes nothing; the member's own redelivery still works. (The one write an owner
does make on a member's object, `PATCH /card/{uuid}`, is
docs/teams.md#a-team-owner-and-the-members-cards, tested in tests/teams/test_owner_cards.py.)"""

from __future__ import annotations

import base64
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.webhooks.queue import publish_committed
from tests.factories import Caller, authorize, bin_uuid, make_card, make_user
from tests.snapshot import database_rows
from tests.webhooks.drive import PDF, post


async def _members_objects(
    app: FastAPI, client: httpx.AsyncClient, member: Caller
) -> dict[str, str]:
    account, card = await make_card(app, client, member)
    pending = (await authorize(client, member, card, "5")).json()["data"]["uuid"]
    settled = (await authorize(client, member, card, "7")).json()["data"]["uuid"]
    done = await client.post(f"/sandbox/transactions/{settled}/settle", headers=member.headers)
    assert done.status_code in (200, 201), done.text
    upload = await post(
        client, member, "/attachment", {"type": "receipt", "file": base64.b64encode(PDF).decode()}
    )
    dispute = await post(
        client, member, "/disputes", {"transaction_uuid": settled, "reason": "other"}
    )
    assert dispute.status_code == 201, dispute.text
    hook = await post(client, member, "/webhook-endpoints", {"url": "http://127.0.0.1:9/hook"})
    assert hook.status_code == 201, hook.text
    await publish_committed(app.state.db)
    events = (await client.get("/events", headers=member.headers)).json()["data"]
    return {
        "account": str(account),
        "card": card,
        "pending": pending,
        "settled": settled,
        "attachment": upload.json()["data"]["uuid"],
        "dispute": dispute.json()["data"]["uuid"],
        "endpoint": hook.json()["data"]["uuid"],
        "event": events[0]["uuid"],
    }


def _writes(ids: dict[str, str], bin_id: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    card, hook = ids["card"], f"/webhook-endpoints/{ids['endpoint']}"
    pending, settled = ids["pending"], ids["settled"]
    buy = {"account_uuid": ids["account"], "bin_uuid": bin_id}
    charge = {"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "X"}
    return [
        ("POST", f"/events/{ids['event']}/redeliver", None),
        ("POST", "/card/buy", buy),
        ("POST", "/card/favorite", {"card_uuids": [card], "is_favorite": True}),
        ("POST", "/card/sort", {"card_uuids": [card]}),
        ("POST", "/disputes", {"transaction_uuid": settled, "reason": "fraudulent",
                               "evidence_attachment_uuids": [ids["attachment"]]}),
        ("PATCH", hook, {"enabled": False}),
        ("DELETE", hook, None),
        ("POST", f"{hook}/rotate-secret", None),
        ("POST", f"{hook}/replay", {"since": "2020-01-01T00:00:00Z"}),
        ("POST", "/sandbox/deposits", {"account_uuid": ids["account"], "amount": 10}),
        ("POST", "/sandbox/authorizations", charge),
        ("POST", "/sandbox/3ds", {**charge, "merchant_name": "X"}),
        ("POST", f"/sandbox/transactions/{pending}/settle", None),
        ("POST", f"/sandbox/transactions/{pending}/increment", {"amount": 1}),
        ("POST", f"/sandbox/transactions/{pending}/reverse", None),
        ("POST", f"/sandbox/transactions/{settled}/refund", {"amount": 1}),
        ("POST", f"/sandbox/disputes/{ids['dispute']}/resolve", {"outcome": "won"}),
    ]  # fmt: skip


async def test_a_team_owner_cannot_act_on_a_members_objects(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app, team="Acme", role="owner")
    member = await make_user(app, team="Acme", role="member")
    ids = await _members_objects(app, client, member)
    seen = await client.get(f"/events/{ids['event']}", headers=owner.headers)
    assert seen.status_code == 200  # the owner reads the member's events
    before = await database_rows(app)
    wrong: list[str] = []
    for method, path, body in _writes(ids, await bin_uuid(app)):
        response = await client.request(method, path, json=body, headers=owner.headers)
        if response.status_code != 404 or response.json()["code"] != "not_found":
            wrong.append(f"{method} {path}: {response.status_code} {response.text[:120]}")
    assert wrong == []
    assert await database_rows(app) == before
    again = await client.post(f"/events/{ids['event']}/redeliver", headers=member.headers)
    assert again.status_code == 202 and again.json()["data"] == {"queued": 1}

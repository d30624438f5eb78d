"""The operator acting on cards (docs/operations.md, "Acting on cards"; scope `cards`): freeze,
unfreeze and replace through the holder's own use cases — the same rules, events and ledger
— each audited with the operator key as the actor."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import Tx, text_uuid
from cardservice.models.base import utcnow
from cardservice.transactions import card_testing
from cardservice.transactions.card_testing import Merchant
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)
from tests.operator.helpers import operator_key, send

JSON = {"Content-Type": "application/json"}


async def _holders_card(client: httpx.AsyncClient, user: Caller, card: str) -> dict[str, Any]:
    answer = await client.get(f"/card/{card}", headers=user.headers)
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()["data"]
    return record


async def _holder_sets(
    client: httpx.AsyncClient, user: Caller, card: str, body: dict[str, Any]
) -> httpx.Response:
    return await client.patch(f"/card/{card}", json=body, headers=user.headers)


async def _audit(app: FastAPI) -> list[tuple[str, str, str, str]]:
    rows = await app.state.db.reader.rows(
        "SELECT action, actor_type, actor_id, object_uuid FROM audit_log"
        " WHERE object_type = 'card' ORDER BY id"
    )
    return [(r[0], r[1], r[2], str(text_uuid(r[3]))) for r in rows]


async def _card_events(app: FastAPI, card: str) -> list[tuple[str, str]]:
    rows = await app.state.db.reader.rows(
        "SELECT type, user_uuid FROM events WHERE object_uuid = $1 ORDER BY id", uuid.UUID(card)
    )
    return [(r[0], str(text_uuid(r[1]))) for r in rows]


async def _key_uuid(app: FastAPI, name: str) -> str:
    found = await app.state.db.reader.value("SELECT uuid FROM operator_keys WHERE name = $1", name)
    return str(text_uuid(found))


async def test_an_operator_freeze_holds_until_the_operator_unfreezes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    key = await operator_key(app, "cards", name="desk")
    before = await _card_events(app, card)
    frozen = await send(client, "POST", f"/operator/cards/{card}/freeze", key)
    assert frozen.status_code == 200, frozen.text
    assert frozen.json()["data"] == await _holders_card(client, user, card)
    assert (frozen.json()["data"]["status"], frozen.json()["data"]["frozen_reason"]) == (
        "frozen",
        "operator",
    )
    assert (await _card_events(app, card))[len(before) :] == [("card.updated", str(user.uuid))]
    declined = await authorize(client, user, card, "1")
    assert declined.json()["data"]["error"] == "card_frozen"
    for status in ("active", "frozen", "closed"):
        refused = await _holder_sets(client, user, card, {"status": status})
        assert refused.status_code == 422 and refused.json()["code"] == "frozen_by_operator"
    replaced = await client.post(
        f"/card/{card}/replace", json={"reason": "lost"}, headers=user.headers
    )
    assert replaced.status_code == 422 and replaced.json()["code"] == "frozen_by_operator"
    labelled = await _holder_sets(client, user, card, {"description": "Ads"})
    assert labelled.status_code == 200 and labelled.json()["data"]["frozen_reason"] == "operator"
    unfrozen = await send(client, "POST", f"/operator/cards/{card}/unfreeze", key)
    assert unfrozen.status_code == 200, unfrozen.text
    assert (unfrozen.json()["data"]["status"], unfrozen.json()["data"]["frozen_reason"]) == (
        "active",
        None,
    )
    assert (await authorize(client, user, card, "1")).json()["data"]["status"] == "pending"
    desk = await _key_uuid(app, "desk")
    assert await _audit(app) == [
        ("card.frozen", "operator_key", desk, card),
        ("card.unfrozen", "operator_key", desk, card),
    ]


async def test_the_operators_freeze_makes_the_holders_events(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, by_holder = await make_card(app, client, user)
    _other, by_operator = await make_card(app, client, user)
    key = await operator_key(app, "cards")
    holder_before = await _card_events(app, by_holder)
    operator_before = await _card_events(app, by_operator)
    assert (await _holder_sets(client, user, by_holder, {"status": "frozen"})).status_code == 200
    assert (await send(client, "POST", f"/operator/cards/{by_operator}/freeze", key)).is_success
    holder_made = (await _card_events(app, by_holder))[len(holder_before) :]
    operator_made = (await _card_events(app, by_operator))[len(operator_before) :]
    assert holder_made == operator_made == [("card.updated", str(user.uuid))]


async def test_the_operator_may_not_unfreeze_the_holders_freeze(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    key = await operator_key(app, "cards")
    assert (await _holder_sets(client, user, card, {"status": "frozen"})).status_code == 200
    refused = await send(client, "POST", f"/operator/cards/{card}/unfreeze", key)
    assert refused.status_code == 422, refused.text
    assert refused.json() == {
        "success": False,
        "message": "The card's holder froze it; only the holder can unfreeze it.",
        "code": "frozen_by_holder",
    }
    card_now = await _holders_card(client, user, card)
    assert (card_now["status"], card_now["frozen_reason"]) == ("frozen", None)
    assert await _audit(app) == []
    # the operator's own freeze on top takes the card over: then the holder cannot lift it
    assert (await send(client, "POST", f"/operator/cards/{card}/freeze", key)).is_success
    assert (await _holders_card(client, user, card))["frozen_reason"] == "operator"


async def test_the_operator_unfreezes_the_card_testing_guards_freeze(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    wallet = Merchant("00000000042", "WALLET")

    async def failure(tx: Tx) -> str | None:
        return await card_testing.checked_card(
            tx, uuid.UUID(card), "invalid_cvv2", wallet, utcnow()
        )

    for _ in range(5):
        await app.state.db.transact(failure)
    assert (await _holders_card(client, user, card))["frozen_reason"] == "suspected_fraud"
    key = await operator_key(app, "cards")
    unfrozen = await send(client, "POST", f"/operator/cards/{card}/unfreeze", key)
    assert unfrozen.status_code == 200, unfrozen.text
    assert (unfrozen.json()["data"]["status"], unfrozen.json()["data"]["frozen_reason"]) == (
        "active",
        None,
    )
    failures = await app.state.db.reader.value(
        "SELECT verification_failures FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    assert failures is None  # 5 more tries, as when the holder unfreezes it


async def test_the_receipt_policys_freeze_is_lifted_by_receipts_only(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)

    async def policy_freeze(tx: Tx) -> None:  # the state teams/receipts.py leaves
        await tx.execute(
            "UPDATE cards SET status = 'frozen', frozen_reason = 'receipt_missing' WHERE uuid = $1",
            uuid.UUID(card),
        )

    await app.state.db.transact(policy_freeze)
    key = await operator_key(app, "cards")
    refused = await send(client, "POST", f"/operator/cards/{card}/unfreeze", key)
    assert refused.status_code == 422 and refused.json()["code"] == "receipt_missing"
    assert (await _holders_card(client, user, card))["frozen_reason"] == "receipt_missing"


async def test_the_operator_replaces_a_card_as_its_holder_would(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="80", description="Ads")
    key = await operator_key(app, "cards", name="desk")
    assert (await send(client, "POST", f"/operator/cards/{card}/freeze", key)).is_success
    answer = await send(
        client, "POST", f"/operator/cards/{card}/replace", key, {"reason": "stolen"}
    )
    assert answer.status_code == 201, answer.text
    new = answer.json()["data"]
    assert new == await _holders_card(client, user, new["uuid"])
    assert new["replaces"] == card and new["status"] == "active" and new["balance"] == 80
    assert new["description"] == "Ads" and new["frozen_reason"] is None
    old = await _holders_card(client, user, card)
    assert (old["status"], old["closed_reason"], old["replaced_by"]) == (
        "closed",
        "stolen",
        new["uuid"],
    )
    assert (await balances(app, account))[1] == [0, 8000]
    desk = await _key_uuid(app, "desk")
    assert (await _audit(app))[-1] == ("card.replaced", "operator_key", desk, card)
    details = await app.state.db.reader.value(
        "SELECT details FROM audit_log WHERE action = 'card.replaced'"
    )
    assert new["uuid"] in details and '"stolen"' in details
    again = await send(client, "POST", f"/operator/cards/{card}/replace", key, {"reason": "lost"})
    assert again.status_code == 422 and again.json()["code"] == "card_closed"
    for action in ("freeze", "unfreeze"):
        closed = await send(client, "POST", f"/operator/cards/{card}/{action}", key)
        assert closed.status_code == 422 and closed.json()["code"] == "card_closed"
    await assert_ledger_consistent(app)


@pytest.mark.parametrize("action", ["freeze", "unfreeze", "replace"])
async def test_an_unknown_card_is_404_and_nothing_is_written(
    app: FastAPI, client: httpx.AsyncClient, action: str
) -> None:
    key = await operator_key(app, "cards")
    body = {"reason": "lost"} if action == "replace" else None
    for card in (str(uuid.uuid4()), "not-a-uuid"):
        answer = await send(client, "POST", f"/operator/cards/{card}/{action}", key, body)
        assert answer.status_code == 404, answer.text
        assert answer.json()["success"] is False and answer.json()["code"] == "not_found"
    assert await _audit(app) == []


async def test_card_actions_need_the_cards_scope_and_a_good_body(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    reports = await operator_key(app, "reports", "users", "funding", "network")
    for action in ("freeze", "unfreeze", "replace"):
        path = f"/operator/cards/{card}/{action}"
        refused = await send(client, "POST", path, reports, {"reason": "lost"})
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
        assert (await client.post(path, headers=user.headers)).status_code == 403
        assert (await client.post(path)).status_code == 401
    key = await operator_key(app, "cards")
    path = f"/operator/cards/{card}/replace"
    for body in ({"reason": "bored"}, {}, {"reason": "lost", "extra": 1}):
        bad = await send(client, "POST", path, key, body)
        assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
    assert (await _holders_card(client, user, card))["status"] == "active"
    assert await _audit(app) == []
    count = await app.state.db.reader.value("SELECT count(*) FROM cards")
    assert count == 1

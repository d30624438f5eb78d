"""Replacing a card (docs/operations.md#running-a-program): new number and expiry, settings carried
over, the balance moved in one entry, holds still capturing and releasing to the new card."""

from __future__ import annotations

import asyncio
import uuid
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.encoding import dumps
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)

JSON = {"Content-Type": "application/json"}


async def _replace(
    client: httpx.AsyncClient, user: Caller, card: str, reason: str = "lost"
) -> httpx.Response:
    return await client.post(
        f"/card/{card}/replace", content=dumps({"reason": reason}), headers={**user.headers, **JSON}
    )


async def _card(client: httpx.AsyncClient, user: Caller, card: str) -> dict[str, object]:
    data: dict[str, object] = (await client.get(f"/card/{card}", headers=user.headers)).json()[
        "data"
    ]
    return data


async def test_the_new_card_carries_the_settings_and_the_balance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="80", description="Ads")
    controls = {"spending_controls": {"daily": 50, "blocked_tags": ["uber"]}}
    await client.patch(f"/card/{card}", content=dumps(controls), headers={**user.headers, **JSON})
    await client.post(
        "/card/favorite",
        content=dumps({"card_uuids": [card], "is_favorite": True}),
        headers={**user.headers, **JSON},
    )
    old = await _card(client, user, card)
    response = await _replace(client, user, card, "stolen")
    assert response.status_code == 201, response.text
    new = response.json()["data"]
    assert new["uuid"] != card and new["replaces"] == card and new["replaced_by"] is None
    for field in ("account_uuid", "bin", "currency", "description", "spending_controls",
                  "is_favorite", "sort_order", "holder_name"):  # fmt: skip
        assert new[field] == old[field], field
    assert new["status"] == "active" and new["balance"] == 80
    closed = await _card(client, user, card)
    assert closed["status"] == "closed" and closed["closed_reason"] == "stolen"
    assert closed["replaced_by"] == new["uuid"] and closed["balance"] == 0
    reader = app.state.db.reader
    numbers = [
        row["pan_fingerprint"] for row in await reader.rows("SELECT pan_fingerprint FROM cards")
    ]
    assert len(set(numbers)) == 2
    transfers = "SELECT count(*) FROM journal_entries WHERE kind = 'card_transfer'"
    assert await reader.value(transfers) == 1
    report = await client.get(
        "/transaction/report?filters[type]=card_transfer", headers=user.headers
    )
    assert {(t["card_uuid"], t["direction"]) for t in report.json()["data"]} == {
        (card, "debit"),
        (new["uuid"], "credit"),
    }
    assert (await balances(app, account))[1] == [0, 8000]
    await assert_ledger_consistent(app)


async def test_a_closed_card_or_anothers_card_cannot_be_replaced(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user)
    assert (await _replace(client, other, card)).status_code == 404
    bad = await client.post(
        f"/card/{card}/replace",
        content=dumps({"reason": "bored"}),
        headers={**user.headers, **JSON},
    )
    assert bad.status_code == 422
    assert (await _replace(client, user, card)).status_code == 201
    again = await _replace(client, user, card)
    assert again.status_code == 422 and again.json()["code"] == "card_closed"
    declined = await authorize(client, user, card, "1")
    assert declined.json()["data"]["error"] == "card_closed"


async def test_holds_of_the_old_card_capture_and_release_to_the_new_one(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    first = (await authorize(client, user, card, "30")).json()["data"]
    second = (await authorize(client, user, card, "20")).json()["data"]
    new = (await _replace(client, user, card, "damaged")).json()["data"]
    fee = Decimal(str(first["fee"]))
    assert Decimal(str(new["balance"])) == 100 - 30 - 20 - 2 * fee
    settle = await client.post(
        f"/sandbox/transactions/{first['uuid']}/settle",
        content=dumps({"amount": 25}),
        headers={**user.headers, **JSON},
    )
    assert settle.status_code == 201, settle.text
    reverse = await client.post(
        f"/sandbox/transactions/{second['uuid']}/reverse", headers=user.headers
    )
    assert reverse.status_code == 201, reverse.text
    # the 5 the capture released, the 20 and its fee the reversal released: to the new card
    refund = await client.post(
        f"/sandbox/transactions/{first['uuid']}/refund",
        content=dumps({"amount": 10}),
        headers={**user.headers, **JSON},
    )
    assert refund.status_code == 201, refund.text
    expected = 100 - 25 - fee + 10  # and the refund of the captured purchase
    assert Decimal(str((await _card(client, user, new["uuid"]))["balance"])) == expected
    assert (await _card(client, user, card))["balance"] == 0
    _account_balance, cards = await balances(app, account)
    assert sorted(cards) == [0, int(expected * 100)]
    await assert_ledger_consistent(app)


async def test_a_replacement_racing_authorizations_leaves_money_on_one_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    answers = await asyncio.gather(
        *(authorize(client, user, card, "7") for _ in range(5)),
        _replace(client, user, card),
        *(authorize(client, user, card, "7") for _ in range(5)),
    )
    replaced = answers[5]
    assert replaced.status_code == 201, replaced.text
    approved = [a.json()["data"] for a in answers if a.json()["data"].get("status") == "pending"]
    declined = [a.json()["data"] for a in answers if a.json()["data"].get("status") == "declined"]
    assert all(d["error"] == "card_closed" for d in declined)
    assert len(approved) + len(declined) == 10
    _balance, cards = await balances(app, account)
    assert cards.count(0) >= 1 and len([c for c in cards if c]) <= 1
    reader = app.state.db.reader
    on_old = await reader.value("SELECT balance FROM cards WHERE uuid = $1", uuid.UUID(card))
    assert on_old == 0
    posted = await reader.rows("SELECT amount FROM postings WHERE system_book = 'holds'")
    assert sum(row["amount"] for row in posted) == sum(
        int(Decimal(str(a["amount"])) * 100) for a in approved
    )
    await assert_ledger_consistent(app)


async def _win_dispute(client: httpx.AsyncClient, user: Caller, purchase: str) -> dict[str, object]:
    body = {"transaction_uuid": purchase, "reason": "fraudulent"}
    opened = await client.post("/disputes", headers=user.headers, json=body)
    assert opened.status_code == 201, opened.text
    won = await client.post(
        f"/sandbox/disputes/{opened.json()['data']['uuid']}/resolve",
        headers=user.headers,
        json={"outcome": "won"},
    )
    assert won.status_code == 201, won.text
    credit: dict[str, object] = (
        await client.get(
            f"/transaction/{won.json()['data']['credit_transaction_uuid']}", headers=user.headers
        )
    ).json()["data"]
    return credit


async def test_a_dispute_won_after_a_replacement_credits_the_new_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchases = []
    for _ in range(2):
        purchase = (await authorize(client, user, card, "30")).json()["data"]
        settled = await client.post(
            f"/sandbox/transactions/{purchase['uuid']}/settle", headers=user.headers
        )
        assert settled.status_code == 201, settled.text
        purchases.append(purchase["uuid"])
    fee = Decimal(str(purchase["fee"]))
    new = (await _replace(client, user, card, "stolen")).json()["data"]
    left = 100 - 60 - 2 * fee
    assert Decimal(str(new["balance"])) == left
    credit = await _win_dispute(client, user, purchases[0])
    assert credit["card_uuid"] == new["uuid"] and credit["type"] == "dispute_credit"
    assert Decimal(str((await _card(client, user, new["uuid"]))["balance"])) == left + 30
    assert (await _card(client, user, card))["balance"] == 0
    # the replacement closed in turn (not replaced): what a dispute returns goes to the account
    before, _cards = await balances(app, account)
    closed = await client.patch(
        f"/card/{new['uuid']}",
        content=dumps({"status": "closed"}),
        headers={**user.headers, **JSON},
    )
    assert closed.status_code == 200, closed.text
    await _win_dispute(client, user, purchases[1])
    account_balance, cards = await balances(app, account)
    assert cards == [0, 0]
    assert account_balance - before == int((left + 30 + 30) * 100)  # the card's and the credit
    await assert_ledger_consistent(app)


async def test_money_back_after_the_replacement_was_closed_goes_to_the_account(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    held = (await authorize(client, user, card, "30")).json()["data"]
    bought = (await authorize(client, user, card, "20")).json()["data"]
    settled = await client.post(
        f"/sandbox/transactions/{bought['uuid']}/settle", headers=user.headers
    )
    assert settled.status_code == 201, settled.text
    new = (await _replace(client, user, card)).json()["data"]
    closed = await client.patch(
        f"/card/{new['uuid']}",
        content=dumps({"status": "closed"}),
        headers={**user.headers, **JSON},
    )
    assert closed.status_code == 200, closed.text
    before, _cards = await balances(app, account)
    reversed_ = await client.post(
        f"/sandbox/transactions/{held['uuid']}/reverse", headers=user.headers
    )
    assert reversed_.status_code == 201, reversed_.text
    refunded = await client.post(
        f"/sandbox/transactions/{bought['uuid']}/refund",
        content=dumps({"amount": 5}),
        headers={**user.headers, **JSON},
    )
    assert refunded.status_code == 201, refunded.text
    after, cards = await balances(app, account)
    fee = Decimal(str(held["fee"]))
    assert cards == [0, 0]  # nothing stranded on a closed card
    assert after - before == int((30 + fee + 5) * 100)  # the hold, its fee and the refund
    await assert_ledger_consistent(app)

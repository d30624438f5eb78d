"""Physical cards (docs/cards.md#physical-cards): ordering with shipping and the
`card_physical` fee, the fulfilment steps in order only (operator feed and sandbox), and
activation with the last four digits; on both databases."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.http.router import dumps
from tests.cards.test_reveal import reveal_with_fresh_code
from tests.factories import Caller, authorize, bin_uuid, make_account, make_card, make_user
from tests.operator.helpers import operator_key, send

SHIPPING = {
    "name": "Ada Lovelace",
    "line1": "12 St James's Square",
    "city": "London",
    "postal_code": "SW1Y 4JH",
    "country": "GB",
}


async def post(
    client: httpx.AsyncClient, user: Caller, path: str, body: dict[str, Any]
) -> httpx.Response:
    return await client.post(
        path, content=dumps(body), headers={**user.headers, "Content-Type": "application/json"}
    )


async def patch(client: httpx.AsyncClient, user: Caller, card: str, body: Any) -> httpx.Response:
    return await client.patch(
        f"/card/{card}",
        content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )


async def buy(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, **extra: Any
) -> tuple[uuid.UUID, httpx.Response]:
    account = await make_account(app, user, currency="USD", funds="1000")
    body = {
        "account_uuid": str(account),
        "bin_uuid": await bin_uuid(app, currency="USD"),
        "start_balance": Decimal("10"),
        **extra,
    }
    return account, await post(client, user, "/card/buy", body)


async def physical_card(app: FastAPI, client: httpx.AsyncClient, user: Caller) -> dict[str, Any]:
    _account, response = await buy(app, client, user, form="physical", shipping=SHIPPING)
    assert response.status_code == 201, response.text
    card: dict[str, Any] = response.json()["data"]["cards"][0]
    return card


async def step(
    client: httpx.AsyncClient, user: Caller, card: str, status: str, **extra: str
) -> httpx.Response:
    path = f"/sandbox/cards/{card}/fulfilment"
    return await post(client, user, path, {"status": status, **extra})


async def card_events(app: FastAPI, card: str) -> list[str]:
    rows = await app.state.db.reader.rows(
        "SELECT type FROM events WHERE object_uuid = $1 ORDER BY id", uuid.UUID(card)
    )
    return [row["type"] for row in rows]


async def stored_card(app: FastAPI, card: str) -> dict[str, Any]:
    row = await app.state.db.reader.row(
        "SELECT status, form, fulfilment_status, fulfilment_carrier, fulfilment_tracking,"
        " pin_pvv, pin_blocked FROM cards WHERE uuid = $1",
        uuid.UUID(card),
    )
    return dict(row)


async def test_a_physical_card_costs_the_fee_and_starts_inactive_and_ordered(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    fees = (await client.get("/dictionary/fees", headers=user.headers)).json()["data"]
    physical_fee = next(f for f in fees if f["slug"] == "card_physical")
    assert physical_fee["kind"] == "fixed" and Decimal(str(physical_fee["amount"])) == Decimal(5)
    _account, virtual = await buy(app, client, user, cards_count=2)
    account, response = await buy(
        app, client, user, form="physical", shipping=SHIPPING, cards_count=2
    )
    assert response.status_code == 201, response.text
    data = response.json()["data"]
    # the same purchase, virtual: each physical card costs 5.00 more, in the one entry
    virtual_total = Decimal(str(virtual.json()["data"]["charge"]["total"]))
    assert Decimal(str(data["charge"]["total"])) == virtual_total + 2 * Decimal(5)
    assert Decimal(str(data["account"]["balance"])) == 1000 - virtual_total - 10
    entries = await app.state.db.reader.rows(
        "SELECT entry_id, sum(amount) AS total FROM postings WHERE entry_id IN"
        " (SELECT entry_id FROM postings WHERE account_uuid = $1) GROUP BY entry_id",
        account,
    )
    assert [row["total"] for row in entries] == [0, 0]  # the funding and the purchase
    for card in data["cards"]:
        assert card["form"] == "physical" and card["status"] == "inactive"
        assert card["shipping"] == {**SHIPPING, "line2": None}
        assert card["fulfilment"]["status"] == "ordered"
        assert card["fulfilment"]["carrier"] is None and card["fulfilment"]["tracking"] is None
        assert card["pin_set"] is False and card["pin_blocked"] is False
        read = (await client.get(f"/card/{card['uuid']}", headers=user.headers)).json()["data"]
        assert read == card
    plain = virtual.json()["data"]["cards"][0]
    assert plain["form"] == "virtual" and plain["status"] == "active"
    assert plain["fulfilment"] is None and plain["shipping"] is None
    # its number, expiry and CVV2 exist from the start: the holder can reveal them
    first = data["cards"][0]
    shown = await reveal_with_fresh_code(app, client, user, first["uuid"])
    assert shown.status_code == 200, shown.text
    details = shown.json()["data"]
    assert details["pan"].endswith(first["last4"]) and len(details["cvv2"]) == 3
    assert (details["expiry_month"], details["expiry_year"]) == (
        first["expiry_month"], first["expiry_year"],
    )  # fmt: skip


async def test_physical_needs_a_real_shipping_address_and_writes_nothing_without_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    before = await app.state.db.reader.value("SELECT count(*) FROM cards")
    bad = [
        {"form": "physical"},
        {"form": "physical", "shipping": {**SHIPPING, "country": "ZZ"}},
        {"form": "physical", "shipping": {**SHIPPING, "country": "gb"}},
        {"form": "physical", "shipping": {k: v for k, v in SHIPPING.items() if k != "city"}},
        {"form": "physical", "shipping": {**SHIPPING, "name": ""}},
        {"form": "virtual", "shipping": SHIPPING},
        {"form": "plastic"},
    ]
    for extra in bad:
        _account, response = await buy(app, client, user, **extra)
        assert response.status_code == 422, (extra, response.text)
        assert response.json()["code"] == "validation_error"
    assert await app.state.db.reader.value("SELECT count(*) FROM cards") == before


async def test_fulfilment_moves_in_order_with_an_event_each_and_refuses_the_rest(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    refused = await step(client, user, card, "shipped")
    assert (refused.status_code, refused.json()["code"]) == (409, "fulfilment_out_of_order")
    assert (await step(client, user, card, "printed")).json()["data"]["fulfilment"]["status"] == (
        "printed"
    )
    shipped = await step(client, user, card, "shipped", carrier="DHL", tracking="JD0123")
    assert shipped.status_code == 200, shipped.text
    assert shipped.json()["data"]["fulfilment"]["carrier"] == "DHL"
    for out_of_order in ("ordered", "printed", "shipped"):
        refused = await step(client, user, card, out_of_order)
        assert (refused.status_code, refused.json()["code"]) == (409, "fulfilment_out_of_order")
    delivered = (await step(client, user, card, "delivered")).json()["data"]["fulfilment"]
    assert delivered["status"] == "delivered"
    assert (delivered["carrier"], delivered["tracking"]) == ("DHL", "JD0123")  # kept
    refused = await step(client, user, card, "returned")
    assert refused.status_code == 409
    assert await card_events(app, card) == ["card.created"] + ["card.updated"] * 3
    stored = await stored_card(app, card)
    assert stored["fulfilment_status"] == "delivered" and stored["status"] == "inactive"


async def test_the_operator_feed_moves_any_holders_card_and_a_virtual_card_has_no_steps(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    key = await operator_key(app, "cards")
    path = f"/operator/cards/{card}/fulfilment"
    response = await send(client, "POST", path, key, {"status": "printed"})
    assert response.status_code == 200, response.text
    assert response.json()["data"]["fulfilment"]["status"] == "printed"
    audit = await app.state.db.reader.value(
        "SELECT count(*) FROM audit_log WHERE action = 'card.fulfilment'"
    )
    assert audit == 1
    no_scope = await operator_key(app, "users")
    assert (await send(client, "POST", path, no_scope, {"status": "shipped"})).status_code == 403
    # the sandbox moves only the caller's own cards
    assert (await step(client, stranger, card, "shipped")).status_code == 404
    _account, virtual = await make_card(app, client, user)
    refused = await step(client, user, virtual, "printed")
    assert (refused.status_code, refused.json()["code"]) == (422, "card_not_physical")
    assert (await stored_card(app, card))["fulfilment_status"] == "printed"


async def test_activation_needs_shipping_and_the_right_last_four(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    record = await physical_card(app, client, user)
    card, last4 = record["uuid"], record["last4"]
    wrong = f"{(int(last4) + 1) % 10000:04d}"

    async def activate(digits: str, caller: Caller = user) -> httpx.Response:
        return await post(client, caller, f"/card/{card}/activate", {"last4": digits})

    early = await activate(last4)
    assert (early.status_code, early.json()["code"]) == (409, "card_not_shipped")
    await step(client, user, card, "printed")
    await step(client, user, card, "shipped")
    refused = await activate(wrong)
    assert (refused.status_code, refused.json()["code"]) == (422, "invalid_card_details")
    assert (await activate("12a4")).status_code == 422
    assert (await activate(last4, stranger)).status_code == 404
    frozen = await patch(client, user, card, {"status": "active"})
    assert (frozen.status_code, frozen.json()["code"]) == (409, "card_inactive")
    assert (await stored_card(app, card))["status"] == "inactive"
    done = await activate(last4)
    assert done.status_code == 200, done.text
    assert done.json()["data"]["status"] == "active"
    again = await activate(last4)
    assert (again.status_code, again.json()["code"]) == (409, "card_already_active")
    assert (await card_events(app, card))[-1] == "card.updated"
    assert (await stored_card(app, card))["status"] == "active"


async def test_a_returned_card_cannot_be_activated_and_an_inactive_one_can_be_closed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    record = await physical_card(app, client, user)
    card = record["uuid"]
    for status in ("printed", "shipped", "returned"):
        assert (await step(client, user, card, status)).status_code == 200
    refused = await post(client, user, f"/card/{card}/activate", {"last4": record["last4"]})
    assert (refused.status_code, refused.json()["code"]) == (409, "card_not_shipped")
    closed = await patch(client, user, card, {"status": "closed"})
    assert closed.status_code == 200, closed.text
    assert closed.json()["data"]["status"] == "closed"


async def test_a_physical_cards_replacement_is_a_new_physical_card_to_the_same_address(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    response = await post(client, user, f"/card/{card}/replace", {"reason": "damaged"})
    assert response.status_code == 201, response.text
    new = response.json()["data"]
    assert new["form"] == "physical" and new["status"] == "inactive"
    assert new["shipping"] == {**SHIPPING, "line2": None}
    assert new["fulfilment"]["status"] == "ordered" and new["pin_set"] is False


async def test_an_inactive_card_declines_every_authorization(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    response = await authorize(client, user, card, "1")
    assert response.status_code == 201, response.text
    assert response.json()["data"]["status"] == "declined"


async def test_wrong_activation_digits_are_counted_and_the_fifth_freezes_the_card(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    record = await physical_card(app, client, user)
    card, last4 = record["uuid"], record["last4"]
    wrong = f"{(int(last4) + 1) % 10000:04d}"
    await step(client, user, card, "printed")
    await step(client, user, card, "shipped")

    async def activate(digits: str) -> httpx.Response:
        return await post(client, user, f"/card/{card}/activate", {"last4": digits})

    for _ in range(4):
        refused = await activate(wrong)
        assert (refused.status_code, refused.json()["code"]) == (422, "invalid_card_details")
    assert (await stored_card(app, card))["status"] == "inactive"
    fifth = await activate(wrong)
    assert (fifth.status_code, fifth.json()["code"]) == (422, "invalid_card_details")
    frozen = await client.get(f"/card/{card}", headers=user.headers)
    assert frozen.json()["data"]["status"] == "frozen"
    assert frozen.json()["data"]["frozen_reason"] == "suspected_fraud"
    assert (await card_events(app, card))[-1] == "card.updated"
    held = await activate(last4)  # the right digits too, until its holder lifts the freeze
    assert (held.status_code, held.json()["code"]) == (409, "card_frozen")
    unfrozen = await patch(client, user, card, {"status": "active"})
    assert unfrozen.status_code == 200, unfrozen.text
    assert unfrozen.json()["data"]["status"] == "inactive"  # never active without its digits
    assert unfrozen.json()["data"]["frozen_reason"] is None
    done = await activate(last4)
    assert done.status_code == 200, done.text
    assert done.json()["data"]["status"] == "active"
    frozen_again = await patch(client, user, card, {"status": "frozen"})
    assert frozen_again.json()["data"]["status"] == "frozen"
    thawed = await patch(client, user, card, {"status": "active"})
    assert thawed.json()["data"]["status"] == "active"  # activated once: a freeze is a freeze

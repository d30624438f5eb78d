"""Foreign-currency authorizations (API.md §12): the rate table, the `card_fx` fee, captures
at another rate, increments in the merchant's currency, currencies the table lacks."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent, authorize, balances, make_card, make_user
from tests.transactions.test_holds import book, entries_of, purchase, step


async def test_the_rate_table_is_published(client: httpx.AsyncClient) -> None:
    rates = (await client.get("/dictionary/fx-rates")).json()["data"]
    eur_usd = next(r for r in rates if (r["base"], r["quote"]) == ("EUR", "USD"))
    assert eur_usd == {"base": "EUR", "quote": "USD", "rate": 1.085, "date": "2026-11-20"}
    raw = (await client.get("/dictionary/fx-rates")).content
    assert b'"rate":1.0850' in raw  # the decimal as set, never through a float


async def test_a_foreign_authorization_is_converted_with_the_fx_fee(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="200")
    record = await purchase(client, user, card, "100", currency="EUR")
    assert (record["amount"], record["currency"]) == (108.5, "USD")
    assert (record["merchant_amount"], record["merchant_currency"], record["rate"]) == (
        100,
        "EUR",
        1.085,
    )
    assert record["fee"] == 2.27  # 0.10 + 2 % of 108.50 (2.17)
    assert (await balances(app, account))[1] == [20000 - 10850 - 227]
    domestic = await purchase(client, user, card, "1")
    assert domestic["merchant_amount"] is None and domestic["rate"] is None
    assert domestic["fee"] == 0.1
    await assert_ledger_consistent(app)


async def test_a_capture_at_another_rate_moves_the_difference(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="500")
    up = (await purchase(client, user, card, "100", currency="EUR"))["uuid"]
    down = (await purchase(client, user, card, "100", currency="EUR"))["uuid"]
    before = (await balances(app, account))[1][0]
    higher = (await step(client, user, up, "settle", rate=1.1)).json()["data"]
    assert (higher["status"], higher["captured_amount"], higher["rate"]) == ("completed", 110, 1.1)
    lower = (await step(client, user, down, "settle", amount=90, rate=1.07)).json()["data"]
    assert (lower["captured_amount"], lower["amount"], lower["rate"]) == (96.3, 96.3, 1.07)
    # 1.50 more taken for the first, 12.20 released from the second (108.50 − 96.30)
    assert (await balances(app, account))[1] == [before - 150 + 1220]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 11000 + 9630)
    assert await entries_of(app, up) == ["card_purchase_pending", "card_purchase_captured"]
    await assert_ledger_consistent(app)


async def test_foreign_capture_rules(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="500")
    foreign = (await purchase(client, user, card, "10", currency="GBP"))["uuid"]
    domestic = (await purchase(client, user, card, "10"))["uuid"]
    for txn, body in (
        (domestic, {"rate": 1.2}),
        (foreign, {"amount": 5, "final": False}),
        (foreign, {"rate": 0}),
        (foreign, {"rate": "1.2"}),
    ):
        refused = await step(client, user, txn, "settle", **body)
        assert refused.status_code == 422 and refused.json()["code"] == "validation_error", body
    too_dear = await step(client, user, foreign, "settle", rate=1.6)  # 16.00 > 12.65 × 1.2
    assert too_dear.json()["code"] == "capture_exceeds_authorization"
    assert (await step(client, user, foreign, "settle")).json()["data"]["captured_amount"] == 12.65
    await assert_ledger_consistent(app)


async def test_an_increment_of_a_foreign_purchase_is_in_the_merchants_currency(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="500")
    txn = (await purchase(client, user, card, "100", currency="EUR", tag="hilton"))["uuid"]
    raised = (await step(client, user, txn, "increment", amount=20)).json()["data"]
    assert (raised["amount"], raised["merchant_amount"], raised["fee"]) == (130.2, 120, 2.27)
    assert (await balances(app, account))[1] == [50000 - 13020 - 227]
    await assert_ledger_consistent(app)


async def test_a_currency_the_table_lacks_is_still_refused(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="50")
    response = await authorize(client, user, card, "5", currency="JPY")
    data = response.json()["data"]
    assert (data["status"], data["error"], data["fee"]) == ("declined", "currency_not_supported", 0)
    assert (await balances(app, account))[1] == [5000]

"""Foreign-currency authorizations (docs/transactions.md#foreign-currency): the rate table, the
`card_fx` fee, captures at another rate, increments in the merchant's currency, currencies the table
lacks."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI

from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)
from tests.transactions.test_holds import book, entries_of, purchase, step


async def test_the_rate_table_is_published(client: httpx.AsyncClient) -> None:
    rates = (await client.get("/dictionary/fx-rates")).json()["data"]
    eur_usd = next(r for r in rates if (r["base"], r["quote"]) == ("EUR", "USD"))
    assert eur_usd == {
        "base": "EUR", "quote": "USD", "rate": 1.085, "date": "2026-11-20",
        "effective_at": "2026-11-20T00:00:00Z",
    }  # fmt: skip
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


async def _record(client: httpx.AsyncClient, user: Caller, txn: str) -> dict[str, Any]:
    data: dict[str, Any] = (await client.get(f"/transaction/{txn}", headers=user.headers)).json()[
        "data"
    ]
    return data


def _money(record: dict[str, Any]) -> tuple[object, ...]:
    return tuple(
        record[k]
        for k in (
            "status",
            "amount",
            "captured_amount",
            "merchant_amount",
            "merchant_captured_amount",
            "rate",
        )
    )


async def test_a_foreign_purchase_captured_in_parts_at_two_rates(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """docs/transactions.md, "Foreign currency in parts": 100 EUR held at 1.085 (108.50 USD);
    40 EUR kept-rest at 1.085, 30 EUR kept-rest at 1.10, then 25 EUR final (at 1.10, the
    purchase's rate by then); what a capture converts to against its share of the hold."""
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="115")
    held = await purchase(client, user, card, "100", currency="EUR")
    txn = held["uuid"]
    assert held["merchant_captured_amount"] == 0
    card_balance = 11500 - 10850 - 227
    assert (await balances(app, account))[1] == [card_balance]

    first = await step(client, user, txn, "settle", amount=40, final=False)
    assert first.status_code == 201, first.text
    # 40 EUR × 1.085 = 43.40 USD, its share of the hold 108.50 × 40/100 = 43.40: no difference
    assert _money(first.json()["data"]) == ("pending", 108.5, 43.4, 100, 40, 1.085)
    assert (await balances(app, account))[1] == [card_balance]
    assert (await book(app, "holds"), await book(app, "merchants")) == (6510, 4340)

    second = await step(client, user, txn, "settle", amount=30, final=False, rate=1.1)
    assert second.status_code == 201, second.text
    # 30 EUR × 1.10 = 33.00 USD; share of the hold 65.10 × 30/60 = 32.55: the card pays 0.45
    assert _money(second.json()["data"]) == ("pending", 108.95, 76.4, 100, 70, 1.1)
    card_balance -= 45
    assert (await balances(app, account))[1] == [card_balance]
    assert (await book(app, "holds"), await book(app, "merchants")) == (3255, 7640)

    # what is left cannot be over-captured beyond 120 % of 108.50 (130.20): 76.40 captured,
    # so 53.80 at most; 50 EUR × 1.10 = 55.00 is refused, and nothing changes
    before = (await _record(client, user, txn), await entries_of(app, txn))
    too_much = await step(client, user, txn, "settle", amount=50)
    assert too_much.status_code == 422, too_much.text
    assert too_much.json()["code"] == "capture_exceeds_authorization"
    # 40 EUR × 1.10 = 44.00 is within it, but takes 44.00 − 32.55 = 11.45 from a card of 3.78
    too_dear = await step(client, user, txn, "settle", amount=40, final=False)
    assert too_dear.status_code == 422, too_dear.text
    assert too_dear.json()["code"] == "insufficient_funds"
    assert (await _record(client, user, txn), await entries_of(app, txn)) == before
    assert (await balances(app, account))[1] == [card_balance]
    assert (await book(app, "holds"), await book(app, "merchants")) == (3255, 7640)

    last = await step(client, user, txn, "settle", amount=25)
    assert last.status_code == 201, last.text
    # 25 EUR × 1.10 = 27.50; share 32.55 × 25/30 = 27.125 → 27.12, the other 5.43 released:
    # the card gets 5.43 + 27.12 − 27.50 = 5.05 back
    assert _money(last.json()["data"]) == ("completed", 103.9, 103.9, 95, 95, 1.1)
    card_balance += 505
    assert (await balances(app, account))[1] == [card_balance]
    assert card_balance == 11500 - 10390 - 227  # the card paid its captures and the fee
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 10390)
    assert await entries_of(app, txn) == ["card_purchase_pending"] + ["card_purchase_captured"] * 3
    assert (await step(client, user, txn, "settle")).json()["code"] == "invalid_transition"
    await assert_ledger_consistent(app)


async def test_a_foreign_capture_without_amount_takes_what_the_merchant_still_holds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="500")
    txn = (await purchase(client, user, card, "10", currency="GBP"))["uuid"]  # 12.65 USD
    part = (await step(client, user, txn, "settle", amount=3.33, final=False)).json()["data"]
    # 3.33 GBP × 1.265 = 4.21245 → 4.21; share 12.65 × 3.33/10 = 4.21245 → 4.21
    assert _money(part) == ("pending", 12.65, 4.21, 10, 3.33, 1.265)
    rest = (await step(client, user, txn, "settle", rate=1.3)).json()["data"]
    # 6.67 GBP × 1.30 = 8.671 → 8.67 against the 8.44 still held: 0.23 more from the card
    assert _money(rest) == ("completed", 12.88, 12.88, 10, 10, 1.3)
    assert (await balances(app, account))[1] == [50000 - 1288 - (10 + 25)]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 1288)
    await assert_ledger_consistent(app)


async def test_a_release_after_foreign_partial_captures_keeps_what_was_captured(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="500")
    txn = (await purchase(client, user, card, "100", currency="EUR"))["uuid"]
    await step(client, user, txn, "settle", amount=40, final=False, rate=1.09)  # 43.60
    released = (await step(client, user, txn, "reverse")).json()["data"]
    # the share 43.40 of the hold was captured as 43.60 (0.20 from the card); 65.10 back
    assert _money(released) == ("completed", 43.6, 43.6, 40, 40, 1.09)
    assert (await balances(app, account))[1] == [50000 - 4360 - 227]
    assert (await book(app, "holds"), await book(app, "merchants")) == (0, 4360)
    await assert_ledger_consistent(app)

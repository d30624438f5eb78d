"""What a new cardholder meets in the dashboard (issue 33): HTML 404 pages and `/` → `/app`,
transactions as a person reads them (declined amounts not shown as debits, fee, reason,
type names, card, a page per transaction), a card page with its transactions, spend against
its limits and its settings, buying cards, errors as sentences, and disputes that know
what is still disputable. Every value checked against the API's own answer."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.encoding import dumps
from cardservice.transactions import Authorization, authorize_card
from tests.dashboard.session import post_form, sign_in
from tests.factories import Caller, authorize, bin_uuid, make_card, make_user


async def _api(client: httpx.AsyncClient, user: Caller, path: str) -> Any:
    response = await client.get(path, headers=user.headers)
    assert response.status_code == 200, response.text
    return response.json()["data"]


async def _send(client: httpx.AsyncClient, user: Caller, path: str, body: dict[str, Any]) -> Any:
    headers = {**user.headers, "Content-Type": "application/json"}
    response = await client.post(path, content=dumps(body), headers=headers)
    assert response.status_code in (200, 201), response.text
    return response.json()


async def _settled(client: httpx.AsyncClient, user: Caller, card: str, amount: str) -> str:
    purchase = (await authorize(client, user, card, amount)).json()["data"]["uuid"]
    await client.post(f"/sandbox/transactions/{purchase}/settle", headers=user.headers)
    return str(purchase)


async def test_a_browser_at_the_root_lands_on_the_dashboard_and_missing_pages_are_html(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    browser = await client.get("/", headers={"Accept": "text/html,application/xhtml+xml"})
    assert browser.status_code == 303 and browser.headers["location"] == "/app"
    api = await client.get("/", headers={"Accept": "application/json"})
    assert api.status_code == 404 and api.json()["code"] == "not_found"
    user = await make_user(app)
    await sign_in(client, user)
    for path in (
        "/app/nope",
        "/app/cards/not-a-card",
        f"/app/cards/{uuid.uuid4()}",
        f"/app/transactions/{uuid.uuid4()}",
    ):
        page = await client.get(path)
        assert page.status_code == 404, path
        assert page.headers["content-type"].startswith("text/html"), path
        assert "Page not found" in page.text and "Something was refused" not in page.text
        assert '"code"' not in page.text
    assert (
        (await client.get("/app/static/nope.css"))
        .headers["content-type"]
        .startswith("application/json")
    )


async def test_declined_rows_show_what_left_the_card_with_the_reason(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    declined = (await authorize(client, user, card, "600")).json()["data"]
    assert declined["status"] == "declined" and declined["error"] == "insufficient_funds"
    paid = await _settled(client, user, card, "12")
    reasons = {e["slug"]: e for e in await _api(client, user, "/dictionary/transaction-errors")}
    mask = (await _api(client, user, f"/card/{card}"))["mask"]
    await sign_in(client, user)
    page = (await client.get("/app/transactions")).text
    row = page[page.index(f'data-transaction="{declined["uuid"]}"') :]
    row = row[: row.index("</tr>")]
    assert "<s" in row and "600.00 USD" in row and "−600.00" not in row
    assert reasons["insufficient_funds"]["description"] in row
    assert f"−{Decimal(declined['fee']):,.2f} USD" in row or Decimal(declined["fee"]) == 0
    assert "Card payment" in row and "card_purchase" not in row.split(">", 1)[1]
    assert f"•• {mask[-4:]}" in row
    assert f'href="/app/transactions/{declined["uuid"]}"' in row
    paid_row = page[page.index(f'data-transaction="{paid}"') :]
    assert "−12.00 USD" in paid_row[: paid_row.index("</tr>")]
    detail = await client.get(f"/app/transactions/{declined['uuid']}")
    assert detail.status_code == 200
    assert reasons["insufficient_funds"]["description"] in detail.text
    assert "Netflix" in detail.text and "Status history" in detail.text
    assert "not charged" in detail.text and f"/app/receipt/{declined['uuid']}" in detail.text
    filtered = (await client.get("/app/transactions", params={"status": "declined"})).text
    assert declined["uuid"] in filtered and paid not in filtered
    assert ">Declined<" in filtered  # the status filter's names, not slugs


async def test_a_disputed_payment_is_not_offered_again_and_the_form_claims_what_is_left(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    purchase = await _settled(client, user, card, "12.50")
    await _send(client, user, f"/sandbox/transactions/{purchase}/refund", {"amount": Decimal(2)})
    await sign_in(client, user)
    form = (await client.get("/app/disputes/new", params={"transaction": purchase})).text
    assert 'data-testid="disputable">10.50 USD' in form and 'value="10.50"' in form
    too_much = await post_form(
        client, "/app/disputes", transaction_uuid=purchase, reason="other", amount="11"
    )
    assert (
        too_much.status_code == 422 and "At most 10.50 USD can still be disputed." in too_much.text
    )
    assert 'aria-invalid="true"' in too_much.text or 'id="form-error"' in too_much.text
    sent = await post_form(
        client, "/app/disputes", transaction_uuid=purchase, reason="other", amount="10.50"
    )
    assert sent.status_code == 303
    disputes = await _api(client, user, "/disputes")
    assert [Decimal(d["amount"]) for d in disputes] == [Decimal("10.50")]
    listing = (await client.get("/app/transactions")).text
    row = listing[listing.index(f'data-transaction="{purchase}"') :]
    row = row[: row.index("</tr>")]
    assert "Disputed" in row and "/app/disputes/new" not in row
    again = await post_form(client, "/app/disputes", transaction_uuid=purchase, reason="other")
    assert again.status_code == 422
    assert "already has an open dispute" in again.text
    assert 'data-testid="already-disputed"' in again.text
    shown = (await client.get("/app/disputes/new", params={"transaction": purchase})).text
    assert 'data-testid="already-disputed"' in shown


async def test_a_card_page_shows_its_transactions_spend_against_limits_and_settings(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    headers = {**user.headers, "Content-Type": "application/json"}
    limits = {"daily": Decimal(50), "lifetime": Decimal(400), "atm_per_day": Decimal(30)}
    controls = {"spending_controls": limits}
    changed = await client.patch(f"/card/{card}", content=dumps(controls), headers=headers)
    assert changed.status_code == 200, changed.text
    paid = await _settled(client, user, card, "12")
    await authorize(client, user, card, "3")  # pending, counted
    reversed_one = (await authorize(client, user, card, "5")).json()["data"]["uuid"]
    await client.post(f"/sandbox/transactions/{reversed_one}/reverse", headers=user.headers)
    state = app.state  # cash at an ATM: `atm_per_day` counts it, the purchase windows do not
    cash = Authorization(uuid.UUID(card), 7_00, "USD", "ATM", type="atm_withdrawal")
    row = await authorize_card(
        state.db, state.outbound, state.cipher, user.uuid, cash, allow_private=True
    )
    assert (row["type"], row["status"]) == ("atm_withdrawal", "pending")
    await sign_in(client, user)
    page = (await client.get(f"/app/cards/{card}")).text
    assert f'href="/app/transactions/{paid}"' in page
    assert "15.00 USD of 50.00 USD spent, 35.00 USD left" in page
    assert "15.00 USD of 400.00 USD spent, 385.00 USD left" in page
    assert "ATM withdrawals per day</strong>: 7.00 USD of 30.00 USD spent, 23.00 USD left" in page
    saved = await post_form(
        client,
        f"/app/cards/{card}/settings",
        description="Groceries",
        auto_replenish="on",
        auto_replenish_amount="25",
        auto_replenish_min_balance="10",
    )
    assert saved.status_code == 303 and saved.headers["location"].endswith("done=settings#notice")
    found = await _api(client, user, f"/card/{card}")
    assert found["description"] == "Groceries"
    assert found["auto_replenish"]["enabled"] is True
    assert Decimal(found["auto_replenish"]["amount"]) == 25
    assert Decimal(found["auto_replenish"]["min_balance"]) == 10
    refused = await post_form(
        client,
        f"/app/cards/{card}/settings",
        description="x",
        auto_replenish="on",
        auto_replenish_amount="lots",
        auto_replenish_min_balance="10",
    )
    assert refused.status_code == 422 and "Enter a number" in refused.text
    assert "Input should be" not in refused.text
    off = await post_form(client, f"/app/cards/{card}/settings", description="")
    assert off.status_code == 303
    assert (await _api(client, user, f"/card/{card}"))["auto_replenish"]["enabled"] is False


async def test_form_errors_are_sentences_by_their_fields_never_patterns(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await sign_in(client, user)
    refused = await post_form(
        client, f"/app/cards/{card}/controls", allowed_countries="Germany", daily="-5"
    )
    assert refused.status_code == 422
    assert "pattern" not in refused.text and "^[A-Z]" not in refused.text
    assert "Use a two-letter country code, such as DE or FR." in refused.text
    assert 'id="f-allowed_countries-error"' in refused.text


async def test_cards_are_bought_from_the_dashboard(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, _card = await make_card(app, client, user)
    bin_id = await bin_uuid(app)
    await sign_in(client, user)
    form = (await client.get("/app/cards/new")).text
    assert f'value="{account}"' in form and f'value="{bin_id}"' in form
    assert 'name="csrf_token"' in form and 'value="single_use"' in form
    before = len((await _api(client, user, "/card"))["cards"])
    fields = {
        "account_uuid": str(account),
        "bin_uuid": bin_id,
        "cards_count": "2",
        "start_balance": "5",
        "card_type": "single_use",
        "auto_replenish": "on",
        "auto_replenish_amount": "10",
        "auto_replenish_min_balance": "2",
    }
    forged = await client.post("/app/cards/new", data={**fields, "csrf_token": "forged"})
    assert forged.status_code == 403
    assert len((await _api(client, user, "/card"))["cards"]) == before
    wrong = await post_form(client, "/app/cards/new", **{**fields, "start_balance": "five"})
    assert wrong.status_code == 422 and 'id="f-start_balance-error"' in wrong.text
    assert "Enter a number" in wrong.text and "Input should be" not in wrong.text
    too_many = await post_form(client, "/app/cards/new", **{**fields, "cards_count": "101"})
    assert too_many.status_code == 422 and "Enter 100 or less." in too_many.text
    assert len((await _api(client, user, "/card"))["cards"]) == before
    bought = await post_form(client, "/app/cards/new", **fields)
    assert bought.status_code == 303
    assert bought.headers["location"] == "/app/cards?done=bought#notice"
    cards = (await _api(client, user, "/card"))["cards"]
    new = [c for c in cards if c["card_type"] == "single_use"]
    assert len(cards) == before + 2 and len(new) == 2
    assert all(Decimal(c["balance"]) == 5 and c["auto_replenish"]["enabled"] for c in new)
    assert "Your new cards are ready." in (await client.get(bought.headers["location"])).text


async def test_the_transactions_page_searches_by_merchant(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    netflix = (await authorize(client, user, card, "3")).json()["data"]["uuid"]
    amazon = (await authorize(client, user, card, "4", merchant_name="Amazon")).json()["data"]
    await sign_in(client, user)
    page = (await client.get("/app/transactions", params={"search": "netf"})).text
    assert f'data-transaction="{netflix}"' in page and amazon["uuid"] not in page
    assert 'value="netf"' in page  # the box keeps what was searched
    assert "search=netf" in page  # and the CSV link exports the same rows

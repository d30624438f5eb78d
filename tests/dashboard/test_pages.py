"""Dashboard pages read only what the API gives the signed-in user; the spend chart sums what
the user summary counts as spend."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import httpx
from fastapi import FastAPI

from cardservice.dashboard.charts import HEIGHT, bars, spend_per_day
from tests.dashboard.session import sign_in as _sign_in
from tests.factories import Caller, authorize, make_card, make_user

PAGES = ("/app", "/app/accounts", "/app/cards", "/app/transactions", "/app/three-ds")


async def _mask(client: httpx.AsyncClient, user: Caller, card: str) -> str:
    response = await client.get(f"/card/{card}", headers=user.headers)
    return str(response.json()["data"]["mask"])


async def test_pages_without_a_session_send_to_sign_in(client: httpx.AsyncClient) -> None:
    for path in PAGES:
        response = await client.get(path)
        assert response.status_code == 303 and response.headers["location"] == "/app/login"


async def test_a_polled_fragment_without_a_session_moves_the_page_to_sign_in(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/app/three-ds", headers={"HX-Request": "true"})
    assert response.status_code == 204 and response.headers["hx-redirect"] == "/app/login"


async def test_a_new_user_sees_every_page_empty(app: FastAPI, client: httpx.AsyncClient) -> None:
    await _sign_in(client, await make_user(app))
    for path in PAGES:
        response = await client.get(path)
        assert response.status_code == 200, path
    assert "No cards yet." in (await client.get("/app/cards")).text
    assert "No 3DS code is waiting." in (await client.get("/app/three-ds")).text


async def test_pages_show_the_users_own_data_and_never_anothers(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner, other = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, owner, start_balance="25.5")
    _other_account, other_card = await make_card(app, client, other)
    spent = await authorize(client, other, other_card, "7")
    others_transaction = spent.json()["data"]["uuid"]
    await _sign_in(client, owner)
    cards = (await client.get("/app/cards")).text
    assert await _mask(client, owner, card) in cards and "25.50 USD" in cards
    assert await _mask(client, other, other_card) not in cards
    transactions = (await client.get("/app/transactions")).text
    assert others_transaction not in transactions and "card_issue" in transactions
    refused = await client.get(f"/app/receipt/{others_transaction}")
    assert refused.status_code == 404 and "Transaction not found" in refused.text


async def test_a_receipt_downloads_as_an_attachment(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    spent = (await authorize(client, user, card, "3")).json()["data"]["uuid"]
    await _sign_in(client, user)
    response = await client.get(f"/app/receipt/{spent}")
    assert response.status_code == 200 and response.content[:3] == b"\xff\xd8\xff"
    assert response.headers["content-disposition"] == f'attachment; filename="receipt-{spent}.jpg"'


async def test_the_filtered_transactions_download_as_csv(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user)
    spent = (await authorize(client, user, card, "4")).json()["data"]["uuid"]
    _other_account, other_card = await make_card(app, client, other)
    others = (await authorize(client, other, other_card, "5")).json()["data"]["uuid"]
    await _sign_in(client, user)
    page = await client.get("/app/transactions", params={"type": "card_purchase"})
    assert 'href="/app/transactions.csv?type=card_purchase"' in page.text
    response = await client.get("/app/transactions.csv", params={"type": "card_purchase"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/csv")
    assert response.headers["content-disposition"] == 'attachment; filename="transactions.csv"'
    lines = response.text.strip().splitlines()
    assert len(lines) == 2 and spent in lines[1] and others not in response.text


async def test_transaction_filters_reach_the_report(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await authorize(client, user, card, "4")
    await _sign_in(client, user)
    purchases = await client.get("/app/transactions", params={"type": "card_purchase"})
    assert "1 transaction:" in purchases.text and "Netflix" in purchases.text
    assert "out −4.10 USD, in 0.00 USD" in purchases.text  # the filter's totals, fee with it
    bad = await client.get("/app/transactions", params={"status": "lost"})
    assert bad.status_code == 422 and "Status: must be one of pending" in bad.text
    typed = await client.get("/app/transactions", params={"date_from": "27/11/2026"})
    assert typed.status_code == 422 and "YYYY-MM-DD" in typed.text and "Filter" in typed.text


def _row(kind: str, status: str, currency: str, amount: str, at: str) -> dict[str, object]:
    return {
        "type": kind,
        "status": status,
        "currency": currency,
        "amount": Decimal(amount),
        "created_at": at,
    }


def test_spend_per_day_counts_pending_and_completed_purchases_of_the_currency() -> None:
    today = date(2026, 3, 19)
    rows = [
        _row("card_purchase", "completed", "USD", "10.10", "2026-03-19T08:00:00Z"),
        _row("card_purchase", "pending", "USD", "2.00", "2026-03-19T09:00:00Z"),
        _row("card_purchase", "declined", "USD", "99", "2026-03-19T09:00:00Z"),
        _row("card_purchase", "completed", "EUR", "5", "2026-03-18T09:00:00Z"),
        _row("card_refund", "completed", "USD", "3", "2026-03-18T09:00:00Z"),
        _row("card_purchase", "completed", "USD", "1", "2026-02-01T09:00:00Z"),
    ]
    totals = spend_per_day(rows, "USD", today)
    assert len(totals) == 30 and min(totals) == today - timedelta(days=29)
    assert totals[today] == Decimal("12.10") and sum(totals.values()) == Decimal("12.10")
    drawn = bars(totals)
    assert [bar.day for bar in drawn] == sorted(totals)
    assert drawn[-1].y == HEIGHT - drawn[-1].height and drawn[-1].height > 0
    assert all(bar.height == 0 for bar in drawn[:-1])

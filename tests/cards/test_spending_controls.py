"""Spending controls in the authorization engine: every control and its decline, the windows,
what counts as spent, and exactness under concurrency."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, date, datetime, time, timedelta

import httpx
from fastapi import FastAPI

from cardservice.cards.controls import window_starts
from tests.cards.test_card_changes import patch_card
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)


async def _controlled(
    app: FastAPI, client: httpx.AsyncClient, controls: dict[str, object], start: str = "500"
) -> tuple[Caller, uuid.UUID, str]:
    user = await make_user(app)
    account, card = await make_card(app, client, user, funds="2000", start_balance=start)
    response = await patch_card(client, user, card, {"spending_controls": controls})
    assert response.status_code == 200, response.text
    return user, account, card


async def _outcome(
    client: httpx.AsyncClient, user: Caller, card: str, amount: str, **extra: object
) -> str | None:
    data = (await authorize(client, user, card, amount, **extra)).json()["data"]
    return data["error"] if data["status"] == "declined" else "approved"


async def test_the_card_record_shows_its_controls(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, _account, card = await _controlled(
        app, client, {"daily": 100.5, "blocked_tags": ["uber", "amazon", "uber"]}
    )
    data = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    assert data["spending_controls"] == {
        "per_authorization": None,
        "daily": 100.5,
        "weekly": None,
        "monthly": None,
        "lifetime": None,
        "atm_per_day": None,
        "allowed_tags": None,
        "blocked_tags": ["amazon", "uber"],
        "allowed_countries": None,
        "blocked_countries": [],
    }
    cleared = await patch_card(client, user, card, {"spending_controls": None})
    assert cleared.json()["data"]["spending_controls"] is None
    assert await _outcome(client, user, card, "400") == "approved"


async def test_per_authorization_limit(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, account, card = await _controlled(app, client, {"per_authorization": 50})
    assert await _outcome(client, user, card, "50") == "approved"
    declined = (await authorize(client, user, card, "50.01")).json()["data"]
    assert declined["error"] == "limit_exceeded" and declined["fee"] == 0.5
    assert declined["decision"] == "rules"
    assert (await balances(app, account))[1] == [50000 - 5010 - 50]
    await assert_ledger_consistent(app)


async def test_window_limits_count_approvals_less_reversals_and_refunds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    for window in ("daily", "weekly", "monthly", "lifetime"):
        user, _account, card = await _controlled(app, client, {window: 100})
        first = (await authorize(client, user, card, "60")).json()["data"]["uuid"]
        assert await _outcome(client, user, card, "40.01") == "limit_exceeded", window
        assert await _outcome(client, user, card, "40") == "approved", window
        assert await _outcome(client, user, card, "0.01") == "limit_exceeded", window
        # a reversal gives its room back; a refund gives back what it returned
        reverse = await client.post(f"/sandbox/transactions/{first}/reverse", headers=user.headers)
        assert reverse.status_code == 201
        second = (await authorize(client, user, card, "60")).json()["data"]["uuid"]
        await client.post(f"/sandbox/transactions/{second}/settle", headers=user.headers)
        refund = await client.post(
            f"/sandbox/transactions/{second}/refund", json={"amount": 25}, headers=user.headers
        )
        assert refund.status_code == 201
        assert await _outcome(client, user, card, "25.01") == "limit_exceeded", window
        assert await _outcome(client, user, card, "25") == "approved", window
    await assert_ledger_consistent(app)


async def test_spend_before_the_window_does_not_count(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, _account, card = await _controlled(app, client, {"daily": 100, "lifetime": 150})
    old = (await authorize(client, user, card, "90")).json()["data"]["uuid"]
    today = datetime.combine(window_starts(datetime.now(UTC))["daily"], time(), UTC)
    yesterday = today - timedelta(hours=1)
    # a purchase made yesterday: no service makes a transaction in the past
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE transactions SET created_at = $1 WHERE uuid = $2", yesterday, uuid.UUID(old)
        )
    )
    assert await _outcome(client, user, card, "60.01") == "limit_exceeded"  # the lifetime
    assert await _outcome(client, user, card, "60") == "approved"  # 60 of 100 today


def test_windows_are_the_utc_day_iso_week_and_month() -> None:
    starts = window_starts(datetime(2026, 11, 26, 15, 30, tzinfo=UTC))  # a Thursday
    assert starts["daily"] == date(2026, 11, 26)
    assert starts["weekly"] == date(2026, 11, 23)
    assert starts["monthly"] == date(2026, 11, 1)


async def test_tag_and_country_controls(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, _account, card = await _controlled(
        app, client, {"blocked_tags": ["uber"], "blocked_countries": ["RU"]}
    )
    assert await _outcome(client, user, card, "1", tag="uber") == "merchant_blocked"
    assert await _outcome(client, user, card, "1", merchant_country="RU") == "merchant_blocked"
    assert (
        await _outcome(client, user, card, "1", tag="amazon", merchant_country="DE") == "approved"
    )
    assert await _outcome(client, user, card, "1") == "approved"  # shows neither: passes blocks
    allowed = {"allowed_tags": ["amazon"], "allowed_countries": ["US", "DE"]}
    user, _account, card = await _controlled(app, client, allowed)
    assert (
        await _outcome(client, user, card, "1", tag="amazon", merchant_country="US") == "approved"
    )
    assert (
        await _outcome(client, user, card, "1", tag="uber", merchant_country="US")
        == "merchant_blocked"
    )
    assert (
        await _outcome(client, user, card, "1", tag="amazon", merchant_country="FR")
        == "merchant_blocked"
    )
    assert await _outcome(client, user, card, "1") == "merchant_blocked"  # not on the allow-lists
    await assert_ledger_consistent(app)


async def test_controls_come_after_the_card_status_and_before_funds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, _account, card = await _controlled(app, client, {"per_authorization": 10}, start="5")
    assert await _outcome(client, user, card, "20") == "limit_exceeded"  # not insufficient_funds
    assert await _outcome(client, user, card, "6") == "insufficient_funds"
    await patch_card(client, user, card, {"status": "frozen"})
    assert await _outcome(client, user, card, "20") == "card_frozen"


async def test_twenty_concurrent_authorizations_on_a_limit_that_fits_five(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, card = await _controlled(app, client, {"daily": 50})
    answers = await asyncio.gather(*(authorize(client, user, card, "10") for _ in range(20)))
    outcomes = [response.json()["data"] for response in answers]
    assert all(response.status_code == 201 for response in answers)
    assert sum(o["status"] == "pending" for o in outcomes) == 5
    assert sum(o["error"] == "limit_exceeded" for o in outcomes) == 15
    assert (await balances(app, account))[1] == [50000 - 5 * 1010 - 15 * 50]
    await assert_ledger_consistent(app)

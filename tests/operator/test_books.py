"""The books over the operator API (docs/operations.md#running-a-program "Books", `reports`): `GET
/operator/balances` and `GET /operator/reports/settlement` answer what ledger/books.py computes,
each currency's balances sum to zero, the settlement is the day's postings to the network settlement
book."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx
import pytest
from fastapi import FastAPI

from tests.factories import assert_ledger_consistent
from tests.ledger.activity import activity
from tests.operator.helpers import operator_key, send

DAY = datetime(2026, 10, 5, 9, 30, tzinfo=UTC)


def _at(monkeypatch: pytest.MonkeyPatch, instant: datetime) -> None:
    """The instant the ledger stamps its entries with."""
    monkeypatch.setattr("cardservice.ledger.entries.utcnow", lambda: instant)


async def test_balances_sum_to_zero_per_currency_now_and_as_of(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DAY)
    await activity(app, client)
    _at(monkeypatch, DAY + timedelta(days=1))
    await activity(app, client)
    await assert_ledger_consistent(app)
    key = await operator_key(app, "reports")
    now = await send(client, "GET", "/operator/balances", key)
    assert now.status_code == 200, now.text
    currencies = now.json()["data"]
    assert {item["currency"] for item in currencies} >= {"USD"}
    for item in currencies:
        classes = [b["class"] for b in item["balances"]]
        assert classes == [
            "cardholder_accounts", "cards", "held", "fees_earned", "network_settlement",
            "cardholder_receivables", "disputes", "funding",
        ]  # fmt: skip
        assert sum(Decimal(str(b["balance"])) for b in item["balances"]) == 0, item
    usd_now = {b["class"]: b["balance"] for b in currencies[0]["balances"]}
    assert usd_now["cards"] != 0 and usd_now["network_settlement"] != 0
    # between the two days: one day's activity only; before it: nothing
    between = await send(client, "GET", "/operator/balances?as_of=2026-10-05T23:00:00Z", key)
    assert between.status_code == 200, between.text
    usd_between = {
        b["class"]: b["balance"]
        for item in between.json()["data"]
        if item["currency"] == "USD"
        for b in item["balances"]
    }
    assert sum(Decimal(str(v)) for v in usd_between.values()) == 0
    assert usd_between["network_settlement"] != usd_now["network_settlement"]
    before = await send(client, "GET", "/operator/balances?as_of=2026-10-05T09:00:00%2B00:00", key)
    assert before.status_code == 200
    for item in before.json()["data"]:
        assert all(b["balance"] == 0 for b in item["balances"]), item


async def test_settlement_is_the_days_postings_to_the_network_book(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DAY - timedelta(days=1))
    await activity(app, client)  # the day before: not in the report
    _at(monkeypatch, DAY)
    await activity(app, client)
    key = await operator_key(app, "reports")
    answer = await send(client, "GET", "/operator/reports/settlement?date=2026-10-05", key)
    assert answer.status_code == 200, answer.text
    usd = {item["currency"]: item for item in answer.json()["data"]}["USD"]
    day_sum = await app.state.db.reader.value(
        "SELECT sum(p.amount) FROM postings p JOIN journal_entries e ON e.id = p.entry_id"
        " WHERE p.system_book = 'merchants' AND p.currency = 'USD'"
        " AND e.created_at >= $1 AND e.created_at < $2",
        datetime(2026, 10, 5, tzinfo=UTC),
        datetime(2026, 10, 6, tzinfo=UTC),
    )
    assert Decimal(str(usd["net"])) == Decimal(int(day_sum)).scaleb(-2)
    assert usd["date"] == "2026-10-05"
    assert usd["refunds"] == {"count": 1, "amount": 10.05}
    assert usd["dispute_credits"] == {"count": 1, "amount": 15.5}
    net = Decimal(str(usd["captures"]["amount"])) - Decimal("10.05") - Decimal("15.50")
    assert Decimal(str(usd["net"])) == net
    empty = await send(client, "GET", "/operator/reports/settlement?date=2026-10-20", key)
    assert empty.status_code == 200 and empty.json()["data"] == []


async def test_the_books_need_the_reports_scope(app: FastAPI, client: httpx.AsyncClient) -> None:
    other = await operator_key(app, "users", "funding", "cards", "network")
    for path in ("/operator/balances", "/operator/reports/settlement?date=2026-10-05"):
        refused = await send(client, "GET", path, other)
        assert refused.status_code == 403, refused.text
        assert refused.json()["success"] is False
        assert (await client.get(path)).status_code == 401


@pytest.mark.parametrize(
    "path",
    [
        "/operator/balances?as_of=yesterday",
        "/operator/balances?as_of=2026-10-05T09:00:00",  # no zone
        "/operator/balances?as_of=2026-13-05T09:00:00Z",
        "/operator/reports/settlement?date=2026-02-30",
        "/operator/reports/settlement?date=20261005",
        "/operator/reports/settlement?date=2026-10-05T00:00:00Z",
        "/operator/reports/settlement?date=",
    ],
)
async def test_bad_dates_are_422(app: FastAPI, client: httpx.AsyncClient, path: str) -> None:
    key = await operator_key(app, "reports")
    answer = await send(client, "GET", path, key)
    assert answer.status_code == 422, answer.text
    assert answer.json()["success"] is False


async def test_settlement_without_a_date_is_todays_utc(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at(monkeypatch, DAY)
    await activity(app, client)
    key = await operator_key(app, "reports")
    dated = await send(client, "GET", "/operator/reports/settlement?date=2026-10-05", key)
    assert dated.status_code == 200 and dated.json()["data"], dated.text
    clock = "cardservice.operator.books_routes.utcnow"
    monkeypatch.setattr(clock, lambda: datetime(2026, 10, 5, 23, 59, tzinfo=UTC))
    today = await send(client, "GET", "/operator/reports/settlement", key)
    assert today.status_code == 200, today.text
    assert today.json()["data"] == dated.json()["data"]
    monkeypatch.setattr(clock, lambda: datetime(2026, 10, 6, 0, 1, tzinfo=UTC))
    tomorrow = await send(client, "GET", "/operator/reports/settlement", key)
    assert tomorrow.status_code == 200 and tomorrow.json()["data"] == []

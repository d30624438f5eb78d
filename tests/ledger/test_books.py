"""The books at any instant (docs/operations.md#running-a-program "Books"): class balances that sum
to zero, balances as of an instant to the cent across days (the day totals and the partial day), and
the settlement report equal to the day's postings to the network settlement book — each with
none, part or all of the entries sealed (the day totals hold the sealed ones; the reports add
the unsealed tail)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx
import pytest
from fastapi import FastAPI

from cardservice.ledger import books
from cardservice.ledger.sealer import seal_waiting
from cardservice.models.base import utcnow
from tests.factories import assert_ledger_consistent
from tests.ledger.activity import activity

DAY = datetime(2026, 10, 5, 9, 30, tzinfo=UTC)
# which activities the sealer has sealed when the books are read: none, the first, all
SEALING = {"none": (), "first": (0,), "all": (0, 1, 2)}


@pytest.fixture(params=list(SEALING))
def sealed(request: pytest.FixtureRequest) -> tuple[int, ...]:
    return SEALING[str(request.param)]


def _clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[datetime], None]:
    """Set the instant the ledger stamps its entries with (the sandbox's clock for entries)."""

    def at(instant: datetime) -> None:
        monkeypatch.setattr("cardservice.ledger.entries.utcnow", lambda: instant)

    return at


async def _book_sums(app: FastAPI, until: datetime) -> dict[tuple[str, str], int]:
    """Straight from the postings: (class, currency) → sum, for the test's own check."""
    rows = await app.state.db.reader.rows(
        "SELECT CASE WHEN p.account_uuid IS NOT NULL THEN 'account'"
        " WHEN p.card_uuid IS NOT NULL THEN 'card' ELSE p.system_book END, p.currency,"
        " sum(p.amount) FROM postings p JOIN journal_entries e ON e.id = p.entry_id"
        " WHERE e.created_at <= $1 GROUP BY 1, 2",
        until,
    )
    return {(books.CLASSES[r[0]], r[1]): int(r[2]) for r in rows}


def _flat(balances: list[dict[str, object]]) -> dict[tuple[str, str], Decimal]:
    return {
        (b["class"], item["currency"]): b["balance"]  # type: ignore[index]
        for item in balances
        for b in item["balances"]  # type: ignore[attr-defined]
    }


async def test_class_balances_sum_to_zero_at_every_instant_across_days(
    app: FastAPI,
    client: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    sealed: tuple[int, ...],
) -> None:
    at = _clock(monkeypatch)
    at(DAY)
    user, account, card_text = await activity(app, client)
    card = uuid.UUID(card_text)
    if 0 in sealed:
        await seal_waiting(app.state.db)
    at(DAY + timedelta(days=1, hours=2))
    await activity(app, client, user)
    at(DAY + timedelta(days=3))
    await activity(app, client)
    if 2 in sealed:
        await seal_waiting(app.state.db)
    await assert_ledger_consistent(app)
    instants = [
        DAY - timedelta(seconds=1),
        DAY,
        DAY + timedelta(hours=5),
        DAY + timedelta(days=1, hours=1),
        DAY + timedelta(days=1, hours=2),
        DAY + timedelta(days=2),
        DAY + timedelta(days=3),
        utcnow(),
    ]
    for instant in instants:
        balances = await books.class_balances(app.state.db.reader, instant)
        for item in balances:
            assert [b["class"] for b in item["balances"]] == list(books.CLASSES.values())
            assert sum(b["balance"] for b in item["balances"]) == 0, (instant, item)
        flat = _flat(balances)
        expected = await _book_sums(app, instant)
        assert {k: v for k, v in flat.items() if v} == {
            k: Decimal(v).scaleb(-2) for k, v in expected.items() if v
        }, instant
        assert all(flat[("cardholder_receivables", c)] == 0 for _n, c in flat)
    assert await books.class_balances(app.state.db.reader, DAY - timedelta(seconds=1)) == []

    # one account and one card, to the cent, before, on and after each day
    for instant in instants:
        cached = await app.state.db.reader.row(
            "SELECT coalesce(sum(p.amount) FILTER (WHERE p.account_uuid = $1), 0),"
            " coalesce(sum(p.amount) FILTER (WHERE p.card_uuid = $2), 0)"
            " FROM postings p JOIN journal_entries e ON e.id = p.entry_id"
            " WHERE e.created_at <= $3",
            account,
            card,
            instant,
        )
        assert await books.account_balance_as_of(app.state.db.reader, account, instant) == cached[0]
        assert cached[0] != 0 or instant < DAY  # the check has something to find
        assert await books.card_balance_as_of(app.state.db.reader, card, instant) == cached[1]
    now = await app.state.db.reader.value("SELECT balance FROM accounts WHERE uuid = $1", account)
    assert await books.account_balance_as_of(app.state.db.reader, account, utcnow()) == now


async def test_the_settlement_report_is_the_days_postings_to_the_network_book(
    app: FastAPI,
    client: httpx.AsyncClient,
    monkeypatch: pytest.MonkeyPatch,
    sealed: tuple[int, ...],
) -> None:
    at = _clock(monkeypatch)
    at(DAY - timedelta(days=1))
    await activity(app, client)  # the day before: not in the report
    at(DAY)
    await activity(app, client)
    if 0 in sealed:  # the day before and the day's first activity
        await seal_waiting(app.state.db)
    at(DAY + timedelta(hours=14))
    await activity(app, client)
    if 2 in sealed:
        await seal_waiting(app.state.db)
    report = await books.settlement_report(app.state.db.reader, DAY.date())
    by_currency = {item["currency"]: item for item in report}
    usd = by_currency["USD"]
    assert usd["date"] == "2026-10-05"
    # per activity: 40.25, a foreign capture and 15.50 captured; 10.05 refunded; 15.50 won
    assert usd["captures"]["count"] == 6
    assert usd["refunds"] == {"count": 2, "amount": Decimal("20.10")}
    assert usd["dispute_credits"] == {"count": 2, "amount": Decimal("31.00")}
    day_sum = await app.state.db.reader.value(
        "SELECT sum(p.amount) FROM postings p JOIN journal_entries e ON e.id = p.entry_id"
        " WHERE p.system_book = 'merchants' AND p.currency = 'USD'"
        " AND e.created_at >= $1 AND e.created_at < $2",
        DAY.replace(hour=0, minute=0),
        DAY.replace(hour=0, minute=0) + timedelta(days=1),
    )
    assert usd["net"] == Decimal(int(day_sum)).scaleb(-2)
    assert usd["net"] == usd["captures"]["amount"] - Decimal("20.10") - Decimal("31.00")
    assert usd["captures"]["amount"] > Decimal("2") * (Decimal("40.25") + Decimal("15.50"))
    assert await books.settlement_report(app.state.db.reader, DAY.date() + timedelta(days=9)) == []

"""The counters of a unit's force posts, written in one statement (PostgreSQL: kept once a
statement over its new transactions, `count_inserted`, migration 20261128_01; SQLite: row by
row), equal a recount of the transactions: every user's count, every user's and card's spend
day, with several users, cards and days in the one unit."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from fastapi import FastAPI

from cardservice.clearing import service
from cardservice.transactions import force_posts
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.factories import assert_ledger_consistent
from tests.network.conftest import issue_card
from tests.operator.helpers import operator_key


async def test_one_units_force_posts_count_as_their_transactions_recounted(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # three users, the second with two cards on one account: one unit books them all
    # (one booking worker), each force post taken 3 hours after the one before (4 UTC days)
    _first_user, first = await issue_card(app, client, funds="100", start_balance="40")
    second_user, second = await issue_card(app, client, funds="100", start_balance="40")
    _same_user, second_other = await issue_card(
        app, client, second_user, funds="100", start_balance="40"
    )
    _third_user, third = await issue_card(app, client, funds="100", start_balance="40")
    start = datetime.now(UTC).replace(hour=1, minute=0, second=0, microsecond=0)
    times = (start - timedelta(days=4) + timedelta(hours=3 * i) for i in itertools.count())
    monkeypatch.setattr(force_posts, "utcnow", lambda: next(times))
    monkeypatch.setattr(service, "WORKERS", 1)
    cards = [first, second, second_other, third]
    items = [presentment(card.pan, 100 + 10 * i) for i in range(6) for card in cards]
    items += [presentment(first.pan, 25, refund=True), presentment(third.pan, 5000)]
    key = await operator_key(app, "network")
    report = report_of(await post_file(client, key, ipm_file("FILE-COUNTERS", items)))
    assert report["presentments"]["force_posted"] == 25 and report["refunds"] == 1
    # a second file onto the days the first began: its groups add to rows already there
    times = (start - timedelta(days=4) + timedelta(hours=3 * i) for i in itertools.count())
    more = [presentment(card.pan, 7) for card in cards]
    report = report_of(await post_file(client, key, ipm_file("FILE-COUNTERS-2", more)))
    assert report["presentments"]["force_posted"] == 4
    reader = app.state.db.reader
    days = await reader.value(
        "SELECT count(DISTINCT spent_on) FROM card_spend WHERE amount > 0 AND card_uuid IN"
        " (SELECT card_uuid FROM transactions WHERE clearing IS NOT NULL)"
    )
    assert days >= 4
    await assert_ledger_consistent(app)

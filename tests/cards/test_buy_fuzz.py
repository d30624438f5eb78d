"""Hypothesis-generated purchase bodies: never a 500, never a partial write."""

from __future__ import annotations

from typing import Any

import httpx
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardservice.http.router import dumps
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    balances,
    bin_uuid,
    make_account,
    make_user,
)

amounts = st.one_of(
    st.decimals(min_value=-10, max_value=10**9, places=2, allow_nan=False, allow_infinity=False),
    st.decimals(min_value=0, max_value=100, places=3, allow_nan=False, allow_infinity=False),
    st.integers(min_value=-5, max_value=10**12),
    st.text(max_size=5),
    st.booleans(),
    st.none(),
)
FIELDS = {
    "start_balance": amounts,
    "cards_count": st.one_of(
        st.integers(min_value=-2, max_value=150), st.booleans(), st.text(max_size=3)
    ),
    "description": st.one_of(
        st.text(max_size=300), st.integers(min_value=-(2**63), max_value=2**63 - 1)
    ),
    "external_id": st.one_of(st.text(max_size=140), st.none()),
    "auto_replenish_amount": amounts,
    "auto_replenish_min_balance": amounts,
    "surprise": st.integers(min_value=-(2**63), max_value=2**63 - 1),
}


@st.composite
def bodies(draw: st.DrawFn) -> dict[str, Any]:
    chosen = draw(st.lists(st.sampled_from(sorted(FIELDS)), unique=True, max_size=len(FIELDS)))
    return {name: draw(FIELDS[name]) for name in chosen}


async def _state(app: FastAPI) -> tuple[int, int]:
    reader = app.state.db.reader
    cards = await reader.value("SELECT count(*) FROM cards")
    entries = await reader.value("SELECT count(*) FROM journal_entries")
    return int(cards), int(entries)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(extra=bodies(), keep_ids=st.booleans())
async def test_generated_bodies_never_500_or_half_write(
    app: FastAPI, client: httpx.AsyncClient, extra: dict[str, Any], keep_ids: bool
) -> None:
    user: Caller = await make_user(app)
    account = await make_account(app, user, funds="500")
    body: dict[str, Any] = (
        {"account_uuid": str(account), "bin_uuid": await bin_uuid(app)} if keep_ids else {}
    )
    body.update(extra)
    before_cards, before_entries = await _state(app)
    before_balance = await balances(app, account)
    response = await client.post(
        "/card/buy",
        content=dumps(body),  # decimals written exactly, as a client would
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert response.status_code in {201, 404, 409, 422}, response.text
    assert response.json()["success"] is (response.status_code == 201)
    after_cards, after_entries = await _state(app)
    if response.status_code == 201:
        bought = len(response.json()["data"]["cards"])
        assert (after_cards, after_entries) == (before_cards + bought, before_entries + 1)
    else:
        assert (after_cards, after_entries) == (before_cards, before_entries)
        assert await balances(app, account) == before_balance
    await assert_ledger_consistent(app)

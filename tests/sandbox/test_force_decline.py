"""Sandbox `force_decline`: every decline slug of /dictionary/transaction-errors rehearses its
decline, with the fee rules (the dictionary's dispute refusals are no declines); each slug
tells the cardholder what happened and what to do."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.catalogue.loader import load_catalogue
from tests.factories import assert_ledger_consistent, authorize, balances, make_card, make_user

DISPUTE_SLUGS = [entry["slug"] for entry in load_catalogue()["dispute_errors"]]


async def test_every_error_slug_can_be_forced(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    errors = (await client.get("/dictionary/transaction-errors")).json()["data"]
    every = [entry["slug"] for entry in errors]
    assert {"do_not_honor", "limit_exceeded", "merchant_blocked"} <= set(every)
    assert set(DISPUTE_SLUGS) <= set(every)  # listed too, but a dispute's refusals, no decline
    slugs = [slug for slug in every if slug not in DISPUTE_SLUGS]
    for slug in DISPUTE_SLUGS:
        response = await authorize(client, user, card, "10", force_decline=slug)
        assert response.status_code == 422, slug
    for slug in slugs:
        response = await authorize(client, user, card, "10", force_decline=slug)
        assert response.status_code == 201, response.text
        data = response.json()["data"]
        assert data["status"] == "declined" and data["error"] == slug
        assert data["fee"] == 0.5 and data["decision"] == "rules"
    assert (await balances(app, account))[1] == [10000 - 50 * len(slugs)]
    await assert_ledger_consistent(app)


async def test_a_forced_decline_fee_stops_at_the_card_balance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="0.3")
    data = (await authorize(client, user, card, "1", force_decline="suspected_fraud")).json()
    assert data["data"]["fee"] == 0.3
    assert (await balances(app, account))[1] == [0]


async def test_an_unknown_slug_is_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user)
    for slug in ("no_such_error", "Not A Slug"):
        response = await authorize(client, user, card, "1", force_decline=slug)
        assert response.status_code == 422 and response.json()["code"] == "validation_error"
    assert (await balances(app, account))[1] == [10000]


async def test_every_error_says_what_happened_and_what_to_do(client: httpx.AsyncClient) -> None:
    for entry in (await client.get("/dictionary/transaction-errors")).json()["data"]:
        sentences = [part for part in entry["description"].split(". ") if part]
        assert len(sentences) >= 2, entry

"""Card programs (docs/operations.md#running-a-program): BINs, controls on top of each card's, card
validity."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from cardservice.db.sql import text_uuid
from cardservice.encoding import dumps
from cardservice.models.base import utcnow
from cardservice.transactions.program_rules import expiry_after
from tests.factories import (
    ISSUED_SECRETS,
    Caller,
    authorize,
    bin_uuid,
    make_account,
    make_user,
)
from tests.operator.helpers import operator_key, send

JSON = {"Content-Type": "application/json"}


async def _usd_bins(app: FastAPI) -> list[str]:
    found = await app.state.db.reader.rows(
        "SELECT uuid FROM bins WHERE currency = 'USD' AND status = 'available' ORDER BY bin"
    )
    return [str(text_uuid(row["uuid"])) for row in found]


async def _member(app: FastAPI, client: httpx.AsyncClient, key: str, program: str) -> Caller:
    body = {"email": f"m-{program[:8]}@example.com", "name": "M", "program_uuid": program}
    user = (await send(client, "POST", "/operator/users", key, body)).json()["data"]["uuid"]
    token = (await send(client, "POST", f"/operator/users/{user}/tokens", key, {})).json()["data"][
        "token"
    ]
    ISSUED_SECRETS.append(token)
    return Caller(uuid.UUID(user), body["email"], token)


async def _buy(
    client: httpx.AsyncClient, user: Caller, account: object, bin_: str
) -> httpx.Response:
    body = {"account_uuid": str(account), "bin_uuid": bin_, "start_balance": 100}
    return await client.post("/card/buy", content=dumps(body), headers={**user.headers, **JSON})


async def test_a_program_is_created_read_and_changed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "cards")
    bins = await _usd_bins(app)
    body = {"name": "Gold", "bin_uuids": [bins[0]], "spending_controls": {"daily": 100}}
    created = await send(client, "POST", "/operator/programs", key, body)
    assert created.status_code == 201, created.text
    program = created.json()["data"]
    assert program["card_validity_months"] == 36 and program["bin_uuids"] == [bins[0]]
    assert program["spending_controls"]["daily"] == 100
    read = await send(client, "GET", f"/operator/programs/{program['uuid']}", key)
    assert read.json()["data"] == program
    changed = await send(
        client, "PATCH", f"/operator/programs/{program['uuid']}", key,
        {"card_validity_months": 12, "spending_controls": None},
    )  # fmt: skip
    assert changed.status_code == 200, changed.text
    assert changed.json()["data"]["card_validity_months"] == 12
    assert changed.json()["data"]["spending_controls"] is None
    for bad in (
        {"name": "X", "bin_uuids": []},
        {"name": "X", "bin_uuids": ["00000000-0000-4000-8000-000000000000"]},
        {"name": "X", "bin_uuids": [bins[0]], "card_validity_months": 0},
        {"name": "X", "bin_uuids": [bins[0]], "spending_controls": {"blocked_tags": ["nope"]}},
    ):
        assert (await send(client, "POST", "/operator/programs", key, bad)).status_code == 422, bad
    assert (
        await send(client, "GET", "/operator/programs/00000000-0000-4000-8000-000000000000", key)
    ).status_code == 404


async def test_a_programs_user_buys_only_its_bins_with_its_validity(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "cards", "users", "funding")
    bins = await _usd_bins(app)
    assert len(bins) >= 2
    body = {"name": "Short", "bin_uuids": [bins[0]], "card_validity_months": 14}
    program = (await send(client, "POST", "/operator/programs", key, body)).json()["data"]["uuid"]
    user = await _member(app, client, key, program)
    account = await make_account(app, user, funds="1000")
    refused = await _buy(client, user, account, bins[1])
    assert refused.status_code == 422 and refused.json()["code"] == "bin_not_allowed"
    bought = await _buy(client, user, account, bins[0])
    assert bought.status_code == 201, bought.text
    card = bought.json()["data"]["cards"][0]
    assert (card["expiry_month"], card["expiry_year"]) == expiry_after(utcnow(), 14)
    outsider = await make_user(app)  # a user in no program buys from any BIN
    outside = await _buy(client, outsider, await make_account(app, outsider, funds="500"), bins[1])
    assert outside.status_code == 201, outside.text


async def test_program_controls_apply_on_top_of_the_cards(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "cards", "users")
    bins = await _usd_bins(app)
    controls = {"per_authorization": 30, "blocked_tags": ["uber"]}
    body = {"name": "Tight", "bin_uuids": bins, "spending_controls": controls}
    program = (await send(client, "POST", "/operator/programs", key, body)).json()["data"]["uuid"]
    user = await _member(app, client, key, program)
    account = await make_account(app, user, funds="1000")
    card = (await _buy(client, user, account, await bin_uuid(app))).json()["data"]["cards"][0][
        "uuid"
    ]
    own = {"spending_controls": {"per_authorization": 50, "blocked_tags": ["netflix"]}}
    await client.patch(f"/card/{card}", content=dumps(own), headers={**user.headers, **JSON})
    over_program = await authorize(client, user, card, "40")
    assert over_program.json()["data"]["error"] == "limit_exceeded"
    blocked_by_program = await authorize(client, user, card, "5", tag="uber", merchant_name="Uber")
    assert blocked_by_program.json()["data"]["error"] == "merchant_blocked"
    blocked_by_card = await authorize(client, user, card, "5", tag="netflix")
    assert blocked_by_card.json()["data"]["error"] == "merchant_blocked"
    fits = await authorize(client, user, card, "25")
    assert fits.json()["data"]["status"] == "pending"
    await send(client, "PATCH", f"/operator/users/{user.uuid}", key, {"program_uuid": None})
    freed = await authorize(client, user, card, "40")
    assert freed.json()["data"]["status"] == "pending"

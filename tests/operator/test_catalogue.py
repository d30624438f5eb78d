"""The operator's own catalogue (docs/operations.md#your-own-catalogue; scope `catalogue`):
BINs that are listed, put in programs and sold; a program's fees over the schedule, shown to
its cardholders and charged; FX rates in force from an instant, never rewriting an
authorization. Every change audited, amounts as the API writes them; every refusal the
error body, with nothing written."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.cards.numbers import luhn_valid
from cardservice.config import Settings
from cardservice.db.sql import text_uuid
from cardservice.encoding import dumps
from cardservice.models.base import utcnow
from tests.cli.test_cli import Command
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    make_account,
    make_card,
    make_user,
    set_fee_override,
)
from tests.operator.helpers import operator_key, send

NEW_BIN = {
    "bin": "45717360",
    "brand": "visa",
    "currency": "USD",
    "status": "available",
    "card_price": 3.25,
}


async def _audit(app: FastAPI) -> list[tuple[str, str, Any]]:
    rows = await app.state.db.reader.rows(
        "SELECT action, object_type, details FROM audit_log"
        " WHERE object_type IN ('bin', 'program', 'fx_rate') ORDER BY id"
    )
    return [(r[0], r[1], None if r[2] is None else json.loads(r[2])) for r in rows]


async def _bins(client: httpx.AsyncClient, user: Caller) -> dict[str, dict[str, Any]]:
    listed = await client.get("/dictionary/bins", headers=user.headers)
    assert listed.status_code == 200, listed.text
    return {b["bin"]: b for b in listed.json()["data"]}


async def _buy(
    client: httpx.AsyncClient, user: Caller, account: uuid.UUID, bin_uuid: str, start: str
) -> httpx.Response:
    body = {"account_uuid": str(account), "bin_uuid": bin_uuid, "start_balance": Decimal(start)}
    return await client.post(
        "/card/buy",
        content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )


def _refused(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert body["success"] is False and body["code"] == code and body["message"], body
    return body


async def test_a_new_bin_is_listed_put_in_a_program_and_sold(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue", "cards", "users")
    created = await send(client, "POST", "/operator/bins", key, NEW_BIN)
    assert created.status_code == 201, created.text
    record = created.json()["data"]
    assert {k: v for k, v in record.items() if k != "uuid"} == NEW_BIN
    user = await make_user(app)
    assert (await _bins(client, user))["45717360"] == record
    program = await send(
        client, "POST", "/operator/programs", key, {"name": "Own", "bin_uuids": [record["uuid"]]}
    )
    assert program.status_code == 201, program.text
    moved = await send(
        client,
        "PATCH",
        f"/operator/users/{user.uuid}",
        key,
        {"program_uuid": program.json()["data"]["uuid"]},
    )
    assert moved.status_code == 200, moved.text
    account = await make_account(app, user, funds="100")
    bought = await _buy(client, user, account, record["uuid"], "10")
    assert bought.status_code == 201, bought.text
    # the BIN's price is the card_issue fee; the schedule's 1.50 % of the start balance on top
    assert bought.json()["data"]["charge"]["fees"] == 3.40
    card = bought.json()["data"]["cards"][0]
    assert (card["bin"], card["brand"], card["currency"]) == ("45717360", "visa", "USD")
    stored = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card["uuid"])
    )
    number = app.state.cipher.decrypt(bytes(stored))
    assert number.startswith("45717360") and len(number) == 16 and luhn_valid(number)
    assert card["mask"].startswith("457173")

    changed = await send(
        client, "PATCH", f"/operator/bins/{record['uuid']}", key, {"status": "unavailable"}
    )
    assert changed.status_code == 200 and changed.json()["data"]["status"] == "unavailable"
    _refused(await _buy(client, user, account, record["uuid"], "0"), 422, "bin_unavailable")
    priced = await send(
        client, "PATCH", f"/operator/bins/{record['uuid']}", key,
        {"status": "available", "card_price": 0.5},
    )  # fmt: skip
    assert priced.json()["data"] == {**record, "card_price": 0.5}
    again = await _buy(client, user, account, record["uuid"], "0")
    assert again.json()["data"]["charge"]["fees"] == 0.5
    await assert_ledger_consistent(app)
    assert await _audit(app) == [
        ("bin.created", "bin", {**{k: v for k, v in NEW_BIN.items()}, "card_price": 3.25}),
        ("program.created", "program", None),
        ("bin.updated", "bin", {"status": "unavailable"}),
        ("bin.updated", "bin", {"status": "available", "card_price": 0.5}),
    ]
    row = await app.state.db.reader.value(
        "SELECT details FROM audit_log WHERE action = 'bin.created'"
    )
    assert '"card_price":3.25' in row  # the API's decimal, never minor units (325)


async def test_a_bad_bin_is_refused_and_nothing_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue")
    before = await app.state.db.reader.rows("SELECT uuid, status, card_price FROM bins")
    bad: list[tuple[dict[str, Any], int, str]] = [
        ({**NEW_BIN, "bin": "45717"}, 422, "validation_error"),
        ({**NEW_BIN, "bin": "457173601"}, 422, "validation_error"),
        ({**NEW_BIN, "bin": 45717360}, 422, "validation_error"),
        ({**NEW_BIN, "brand": "mastercard"}, 422, "validation_error"),
        ({**NEW_BIN, "currency": "JPY"}, 422, "validation_error"),
        ({**NEW_BIN, "card_price": -1}, 422, "validation_error"),
        ({**NEW_BIN, "card_price": 1.255}, 422, "validation_error"),
        ({**NEW_BIN, "status": "sold_out"}, 422, "validation_error"),
        ({**NEW_BIN, "colour": "gold"}, 422, "validation_error"),
        ({k: v for k, v in NEW_BIN.items() if k != "card_price"}, 422, "validation_error"),
        ({**NEW_BIN, "bin": "424242"}, 409, "bin_taken"),  # shipped
        ({**NEW_BIN, "bin": "42424211"}, 409, "bin_taken"),  # inside 424242's range
        ({**NEW_BIN, "bin": "4000056"}, 409, "bin_taken"),  # 40000566 lies inside it
    ]
    for body, status, code in bad:
        answer = _refused(await send(client, "POST", "/operator/bins", key, body), status, code)
        if status == 422:
            assert answer["errors"], (body, answer)
    shipped = "4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001"
    for path, body, status, code in [
        (f"/operator/bins/{uuid.uuid4()}", {"status": "unavailable"}, 404, "not_found"),
        (f"/operator/bins/{shipped}", {"status": None}, 422, "validation_error"),
        (f"/operator/bins/{shipped}", {"card_price": 0.001}, 422, "validation_error"),
        (f"/operator/bins/{shipped}", {"bin": "424243"}, 422, "validation_error"),
    ]:
        _refused(await send(client, "PATCH", path, key, body), status, code)
    reporter = await operator_key(app, "reports", "cards")
    _refused(await send(client, "POST", "/operator/bins", reporter, NEW_BIN), 403, "forbidden")
    path = f"/operator/bins/{shipped}"
    _refused(await send(client, "PATCH", path, reporter, {"status": "available"}), 403, "forbidden")
    after = await app.state.db.reader.rows("SELECT uuid, status, card_price FROM bins")
    assert sorted(map(tuple, after)) == sorted(map(tuple, before))
    assert await _audit(app) == []


async def test_a_programs_fees_are_what_its_cardholders_see_and_pay(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue", "cards", "users")
    shipped = "4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001"
    program = await send(
        client, "POST", "/operator/programs", key, {"name": "Low fees", "bin_uuids": [shipped]}
    )
    program_uuid = program.json()["data"]["uuid"]
    fees = {"card_decline": 1.25, "card_fx": 0.75, "topup_percent": 0}
    put = await send(client, "PUT", f"/operator/programs/{program_uuid}/fees", key, fees)
    assert put.status_code == 200, put.text
    record = put.json()["data"]
    assert record | {"fees": None} == {
        "program_uuid": program_uuid, "card_decline": 1.25, "card_fx": 0.75,
        "card_physical": None, "card_atm": None, "topup_percent": 0, "fees": None,
    }  # fmt: skip
    member, outsider = await make_user(app), await make_user(app)
    joined = await send(
        client, "PATCH", f"/operator/users/{member.uuid}", key, {"program_uuid": program_uuid}
    )
    assert joined.status_code == 200, joined.text

    async def schedule(user: Caller) -> dict[str, float]:
        answer = await client.get("/dictionary/fees", headers=user.headers)
        return {fee["slug"]: fee["amount"] for fee in answer.json()["data"]}

    mine, default = await schedule(member), await schedule(outsider)
    assert (mine["card_decline"], mine["card_fx"], mine["card_topup"]) == (1.25, 0.75, 0)
    assert (default["card_decline"], default["card_fx"], default["card_topup"]) == (0.5, 2, 1.5)
    assert mine["card_issue"] == default["card_issue"] == 2
    read = await send(client, "GET", f"/operator/programs/{program_uuid}/fees", key)
    assert read.json()["data"] == record
    assert {f["slug"]: f["amount"] for f in record["fees"]} == mine

    _account, card = await make_card(app, client, member, start_balance="10")
    declined = await authorize(client, member, card, "1", force_decline="merchant_blocked")
    assert declined.json()["data"]["status"] == "declined"
    assert declined.json()["data"]["fee"] == 1.25
    _other_account, other_card = await make_card(app, client, outsider, start_balance="10")
    elsewhere = await authorize(client, outsider, other_card, "1", force_decline="merchant_blocked")
    assert elsewhere.json()["data"]["fee"] == 0.5
    await set_fee_override(app, member, "card_decline", "fixed", 10)  # the user's own wins
    assert (await schedule(member))["card_decline"] == 0.1
    again = await authorize(client, member, card, "1", force_decline="merchant_blocked")
    assert again.json()["data"]["fee"] == 0.1

    cleared = await send(client, "PUT", f"/operator/programs/{program_uuid}/fees", key, {})
    assert cleared.json()["data"]["card_fx"] is None
    assert (await schedule(member))["card_fx"] == 2
    await assert_ledger_consistent(app)
    actions = [(a, d) for a, _t, d in await _audit(app) if a == "program.fees_set"]
    assert actions == [
        ("program.fees_set", {"card_decline": 1.25, "card_fx": 0.75, "card_physical": None,
                              "card_atm": None, "topup_percent": 0.0}),
        ("program.fees_set", {"card_decline": None, "card_fx": None, "card_physical": None,
                              "card_atm": None, "topup_percent": None}),
    ]  # fmt: skip


async def test_bad_fees_are_refused_and_nothing_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue", "cards")
    shipped = "4f1c2a9e-6b1d-4c3e-9a57-0b7d2e51a001"
    program = await send(
        client, "POST", "/operator/programs", key, {"name": "P", "bin_uuids": [shipped]}
    )
    path = f"/operator/programs/{program.json()['data']['uuid']}/fees"
    for body in (
        {"card_decline": -1},
        {"card_decline": 0.125},
        {"card_fx": 100.01},
        {"card_fx": "1.5"},
        {"topup_percent": -0.5},
        {"card_issue": 1},
    ):
        answer = _refused(await send(client, "PUT", path, key, body), 422, "validation_error")
        assert answer["errors"], body
    unknown = f"/operator/programs/{uuid.uuid4()}/fees"
    _refused(await send(client, "PUT", unknown, key, {"card_decline": 1}), 404, "not_found")
    cards_only = await operator_key(app, "cards")
    _refused(await send(client, "PUT", path, cards_only, {"card_decline": 1}), 403, "forbidden")
    stored = await app.state.db.reader.value("SELECT fee_overrides FROM programs")
    assert stored is None
    assert [a for a, _t, _d in await _audit(app)] == ["program.created"]


async def test_an_authorization_converts_at_the_rate_in_force_at_its_time(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue")
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="500")
    shipped = await authorize(client, user, card, "10", currency="GBP")
    assert shipped.json()["data"]["rate"] == 1.265  # the catalogue's until the operator sets one
    now = utcnow()

    async def add(rate: float, at: str) -> httpx.Response:
        body = {"base": "GBP", "quote": "USD", "rate": rate, "effective_at": at}
        return await send(client, "POST", "/operator/fx-rates", key, body)

    # an instant before the last authorization would rewrite what it was charged
    earlier = (now - timedelta(hours=1)).isoformat()
    _refused(await add(1.5, earlier), 409, "rate_predates_authorization")
    current = await add(1.5, now.isoformat())
    assert current.status_code == 201, current.text
    entry = current.json()["data"]
    assert (entry["base"], entry["quote"], entry["rate"]) == ("GBP", "USD", 1.5)
    later = (now + timedelta(days=1)).replace(microsecond=0)
    future = await add(2, later.isoformat().replace("+00:00", "Z"))
    assert future.status_code == 201, future.text

    converted = await authorize(client, user, card, "10", currency="GBP")
    assert (converted.json()["data"]["rate"], converted.json()["data"]["amount"]) == (1.5, 15)
    rates = (await client.get("/dictionary/fx-rates")).json()["data"]
    pair = next(r for r in rates if (r["base"], r["quote"]) == ("GBP", "USD"))
    assert (pair["rate"], pair["date"]) == (1.5, now.date().isoformat())
    assert next(r for r in rates if (r["base"], r["quote"]) == ("EUR", "USD"))["rate"] == 1.085
    history = await send(client, "GET", "/operator/fx-rates?per_page=1", key)
    assert history.json()["meta"] == {"current_page": 1, "per_page": 1, "total": 2, "last_page": 2}
    assert history.json()["data"][0]["effective_at"] == later.strftime("%Y-%m-%dT%H:%M:%SZ")
    filtered = await send(client, "GET", "/operator/fx-rates?filters[base]=EUR", key)
    assert filtered.json()["meta"]["total"] == 0
    # the future rate, set before the authorization, still may not predate it
    _refused(await add(1.7, now.isoformat()), 409, "rate_predates_authorization")
    assert [(a, d) for a, _t, d in await _audit(app)] == [
        ("fx_rate.created", {"base": "GBP", "quote": "USD", "rate": 1.5,
                             "effective_at": entry["effective_at"]}),
        ("fx_rate.created", {"base": "GBP", "quote": "USD", "rate": 2,
                             "effective_at": later.strftime("%Y-%m-%dT%H:%M:%SZ")}),
    ]  # fmt: skip
    await assert_ledger_consistent(app)


async def test_a_bad_rate_is_refused_and_nothing_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "catalogue")
    good = {"base": "JPY", "quote": "USD", "rate": 0.0067, "effective_at": "2026-12-01T00:00:00Z"}
    for body in (
        {**good, "rate": 0},
        {**good, "rate": -1.2},
        {**good, "rate": "0.0067"},
        {**good, "quote": "JPY"},
        {**good, "quote": "XAU"},  # no account holds it
        {**good, "base": "jpy"},
        {**good, "effective_at": "2026-12-01T00:00:00"},  # no offset
        {**good, "effective_at": "soon"},
        {**good, "source": "ecb"},
        {k: v for k, v in good.items() if k != "effective_at"},
    ):
        answer = _refused(await send(client, "POST", "/operator/fx-rates", key, body), 422,
                          "validation_error")  # fmt: skip
        assert answer["errors"], body
    reporter = await operator_key(app, "reports")
    _refused(await send(client, "POST", "/operator/fx-rates", reporter, good), 403, "forbidden")
    listed = await send(client, "GET", "/operator/fx-rates?filters[pair]=x", reporter)
    _refused(listed, 422, "validation_error")
    assert await app.state.db.reader.value("SELECT count(*) FROM fx_rate_history") == 0
    assert await _audit(app) == []


async def test_the_cli_changes_the_catalogue_through_the_same_services(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)  # in process: tests/cli proves the process
    bin_uuid = await cli.value(
        "catalogue", "bins", "add", "--bin", "520474", "--brand", "mastercard",
        "--currency", "eur", "--card-price", "1.5",
    )  # fmt: skip
    code, _out, taken = await cli(
        "catalogue", "bins", "add", "--bin", "520474", "--brand", "mastercard",
        "--currency", "EUR", "--card-price", "1.5",
    )  # fmt: skip
    assert code == 2 and "bin" in taken.lower() and "Traceback" not in taken
    updated = json.loads(
        await cli.value("catalogue", "bins", "update", bin_uuid, "--status", "unavailable")
    )
    assert (updated["status"], updated["card_price"]) == ("unavailable", 1.5)
    key = await operator_key(app, "cards")
    program = await send(
        client, "POST", "/operator/programs", key, {"name": "P", "bin_uuids": [bin_uuid]}
    )
    program_uuid = program.json()["data"]["uuid"]
    fees = json.loads(await cli.value("catalogue", "fees", "set", program_uuid, "--card-fx", "1.1"))
    assert (fees["card_fx"], fees["card_decline"]) == (1.1, None)
    shown = json.loads(await cli.value("catalogue", "fees", "show", program_uuid))
    assert shown == fees
    code, _out, bad_fee = await cli(
        "catalogue", "fees", "set", program_uuid, "--card-decline", "0.001"
    )
    assert code == 2 and "card_decline" in bad_fee
    rate = await cli.value(
        "catalogue", "fx-rates", "add", "--base", "chf", "--quote", "gbp",
        "--rate", "0.89", "--effective-at", "2026-12-01T00:00:00Z",
    )  # fmt: skip
    listed = await cli.value("catalogue", "fx-rates", "list", "--base", "CHF")
    assert listed.startswith(rate) and "CHF/GBP  0.89  " in listed
    code, _out, zero = await cli(
        "catalogue", "fx-rates", "add", "--base", "CHF", "--quote", "GBP",
        "--rate", "0", "--effective-at", "2026-12-01T00:00:00Z",
    )  # fmt: skip
    assert code == 2 and "rate" in zero
    rows = await app.state.db.reader.rows(
        "SELECT action, actor_type, actor_id, object_uuid FROM audit_log"
        " WHERE actor_type = 'system' AND object_type <> 'operator_key' ORDER BY id"
    )
    assert [(r[0], r[1], r[2]) for r in rows] == [
        ("bin.created", "system", "cli"),
        ("bin.updated", "system", "cli"),
        ("program.fees_set", "system", "cli"),
        ("fx_rate.created", "system", "cli"),
    ]
    assert str(text_uuid(rows[0][3])) == bin_uuid and str(text_uuid(rows[3][3])) == rate

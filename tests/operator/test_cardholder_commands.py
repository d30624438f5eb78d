"""`cardservice accounts list|create`, `cards list|show`: a cardholder's records as the API
gives them (the same services), the catalogue's currencies in any case, one-line refusals.
The commands run in process (tests/cli/test_cli.py `Command`)."""

from __future__ import annotations

from decimal import Decimal

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import Command
from tests.factories import make_card, make_user
from tests.operator.helpers import operator_key, send


@pytest.fixture
def cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    return Command(settings, monkeypatch, capsys)


async def test_accounts_create_takes_the_catalogues_currencies_in_any_case(
    app: FastAPI, client: httpx.AsyncClient, cli: Command
) -> None:
    user = await make_user(app)
    named = ("accounts", "create", "--email", user.email, "--name")
    euro = await cli.value(*named, "Euro", "--currency", "eur")
    record = (await client.get(f"/account/{euro}", headers=user.headers)).json()["data"]
    assert record["currency"] == "EUR"  # stored as the catalogue spells it
    refusal = await cli.refused(*named, "Bad", "--currency", "XYZ")
    assert "'XYZ' is not one of the catalogue's currencies: CHF, EUR, GBP, USD" in refusal
    assert refusal.startswith("cardservice accounts create: error:")
    assert "catalogue" in await cli.refused(*named, "Bad", "--currency", "eu")
    listed = (await client.get("/accounts", headers=user.headers)).json()["data"]["items"]
    assert [a["uuid"] for a in listed] == [euro]  # nothing written by a refusal


async def test_the_service_refuses_a_currency_outside_the_catalogue_on_every_channel(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding", "users")
    user = await make_user(app)
    body = {"user_uuid": str(user.uuid), "name": "Main"}
    unknown = await send(client, "POST", "/operator/accounts", key, {**body, "currency": "XYZ"})
    assert unknown.status_code == 422, unknown.text
    assert unknown.json()["errors"]["currency"] == [
        "must be one of the catalogue's currencies: CHF, EUR, GBP, USD"
    ]
    lower = await send(client, "POST", "/operator/accounts", key, {**body, "currency": "eur"})
    assert lower.status_code == 422  # the API takes codes as ISO 4217 spells them
    franc = await send(client, "POST", "/operator/accounts", key, {**body, "currency": "CHF"})
    assert franc.status_code == 201 and franc.json()["data"]["currency"] == "CHF"


async def test_accounts_list_prints_the_users_own_accounts_as_the_api_does(
    app: FastAPI, client: httpx.AsyncClient, cli: Command
) -> None:
    user, other = await make_user(app), await make_user(app)
    account, _card = await make_card(app, client, user, funds="100", start_balance="20")
    await make_card(app, client, other)
    euro = await cli.value("accounts", "create", "--email", user.email, "--name", "Trips",
                           "--currency", "EUR")  # fmt: skip
    code, out, _err = await cli("accounts", "list", "--email", user.email)
    assert code == 0
    assert out.splitlines() == [
        f"{account}  77.70 USD  active  main  Main",  # 100 − 20 to the card − fees 2.00 + 0.30
        f"{euro}  0.00 EUR  active  main  Trips",
    ]
    code, out, _err = await cli("accounts", "list", "--email", user.email, "--json")
    api = (await client.get("/accounts", headers=user.headers)).json()["data"]["items"]
    assert code == 0 and orjson.loads(out) == api
    only_euro = await cli.value("accounts", "list", "--email", user.email, "--currency", "eur")
    assert only_euro.split()[0] == euro
    code, out, _err = await cli("accounts", "list", "--email", user.email, "--status", "frozen")
    assert (code, out) == (0, "")
    assert "No user with email" in await cli.refused("accounts", "list", "--email", "no@x.org")


async def test_cards_list_and_show_give_the_users_cards_never_their_numbers(
    app: FastAPI, client: httpx.AsyncClient, cli: Command
) -> None:
    user, other = await make_user(app), await make_user(app)
    account, card = await make_card(app, client, user, start_balance="20", description="Ads")
    _account, foreign = await make_card(app, client, other)
    api = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    line = await cli.value("cards", "list", "--email", user.email)
    assert line == f"{card}  {api['mask']}  active  20.00 USD  Ads"
    code, out, _err = await cli("cards", "list", "--email", user.email, "--json")
    assert code == 0 and orjson.loads(out) == [api]
    by_account = await cli.value("cards", "list", "--email", user.email, "--account", str(account))
    assert by_account == line
    shown = orjson.loads(await cli.value("cards", "show", card, "--email", user.email))
    assert shown == api and Decimal(str(shown["balance"])) == 20
    assert "pan" not in shown and "cvv2" not in shown  # the record: mask and last4 only
    refusal = await cli.refused("cards", "show", foreign, "--email", user.email)
    assert refusal.startswith("cardservice: error:") and "not found" in refusal.lower()
    assert "not a valid UUID" in await cli.refused("cards", "show", "nope", "--email", user.email)

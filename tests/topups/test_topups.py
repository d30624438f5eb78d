"""Top-ups (docs/operations.md#running-a-program): asked by the cardholder with the seed's payment
methods, confirmed once by the operator, cancelled, or expired after 72 hours exactly once."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.encoding import dumps
from cardservice.models.base import utcnow
from cardservice.topups.service import sweep_expired_topups
from tests.cli.test_cli import Command
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    balances,
    make_account,
    make_user,
)
from tests.operator.helpers import operator_key, send

JSON = {"Content-Type": "application/json"}


async def _ask(client: httpx.AsyncClient, user: Caller, **body: object) -> httpx.Response:
    return await client.post("/topups", content=dumps(body), headers={**user.headers, **JSON})


async def test_a_topup_quotes_the_methods_fee_and_awaits_payment(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account = await make_account(app, user)
    asked = await _ask(
        client, user, account_uuid=str(account), method="card", currency="USD", amount=200
    )
    assert asked.status_code == 201, asked.text
    topup = asked.json()["data"]
    assert topup["status"] == "awaiting_payment" and topup["reference"].startswith("TU-")
    assert topup["fee"] == 5 and topup["credit_amount"] == 195  # card: 2.50 %
    expires = topup["expires_at"]
    assert expires > (utcnow() + timedelta(hours=71)).isoformat()[:19]
    listed = await client.get("/topups", headers=user.headers)
    assert [t["uuid"] for t in listed.json()["data"]] == [topup["uuid"]]
    assert listed.json()["meta"]["total"] == 1
    one = await client.get(f"/topups/{topup['uuid']}", headers=user.headers)
    assert one.json()["data"] == topup
    other = await make_user(app)
    assert (await client.get(f"/topups/{topup['uuid']}", headers=other.headers)).status_code == 404
    assert (await balances(app, account))[0] == 0


async def test_another_currency_is_converted_at_the_rate_table(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account = await make_account(app, user, currency="USD")
    asked = await _ask(
        client, user, account_uuid=str(account), method="bank-transfer", currency="EUR", amount=1000
    )
    topup = asked.json()["data"]
    # 0.50 % of 1000 EUR = 5; 995 EUR at 1.0850 = 1079.575 → 1079.58 USD
    assert topup["fee"] == 5 and topup["rate"] == 1.085 and topup["credit_amount"] == 1079.58
    unsupported = await _ask(
        client, user, account_uuid=str(account), method="crypto", currency="USDT", amount=100
    )
    assert unsupported.status_code == 422 and unsupported.json()["code"] == "currency_not_supported"


async def test_refusals_write_nothing(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, other = await make_user(app), await make_user(app)
    account = await make_account(app, user)
    theirs = await make_account(app, other)
    cases = [
        ({"method": "carrier-pigeon", "currency": "USD", "amount": 50}, 422),
        ({"method": "card", "currency": "CHF", "amount": 50}, 422),
        ({"method": "card", "currency": "USD", "amount": 4.99}, 422),
        ({"method": "card", "currency": "USD", "amount": 10000.01}, 422),
        ({"method": "card", "currency": "USD", "amount": 50.001}, 422),
        ({"method": "card", "currency": "USD", "amount": 50, "account_uuid": str(theirs)}, 404),
    ]
    for body, status in cases:
        response = await _ask(client, user, **{"account_uuid": str(account), **body})
        assert response.status_code == status, (body, response.text)
    assert await app.state.db.reader.value("SELECT count(*) FROM topups") == 0


async def test_the_operator_confirms_once_and_the_account_is_credited(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    key = await operator_key(app, "funding")
    user = await make_user(app)
    account = await make_account(app, user)
    topup = (
        await _ask(
            client, user, account_uuid=str(account), method="paypal", currency="USD", amount=100
        )
    ).json()["data"]
    path = f"/operator/topups/{topup['uuid']}/confirm"
    confirmed = await send(client, "POST", path, key, {"received_amount": 90})
    assert confirmed.status_code == 200, confirmed.text
    done = confirmed.json()["data"]
    # what arrived: 90 less 3 % = 87.30
    assert (
        done["status"] == "completed"
        and done["received_amount"] == 90
        and done["credit_amount"] == 87.3
    )
    deposit = await client.get(f"/transaction/{done['transaction_uuid']}", headers=user.headers)
    deposited = deposit.json()["data"]
    assert deposited["type"] == "deposit" and (deposited["amount"], deposited["fee"]) == (90, 2.7)
    assert (await balances(app, account))[0] == 8730
    audited = await app.state.db.reader.value(
        "SELECT details FROM audit_log WHERE action = 'topup.confirmed'"
    )
    assert '"received_amount":90.00,"currency":"USD"' in audited  # as the API writes it
    again = await send(client, "POST", path, key, {"received_amount": 90})
    assert again.status_code == 409
    cancel = await send(client, "POST", f"/operator/topups/{topup['uuid']}/cancel", key)
    assert cancel.status_code == 409
    assert (await balances(app, account))[0] == 8730
    await assert_ledger_consistent(app)


async def test_two_confirms_at_once_credit_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "funding")
    user = await make_user(app)
    account = await make_account(app, user, currency="EUR")
    topup = (
        await _ask(
            client, user, account_uuid=str(account), method="sepa", currency="EUR", amount=50
        )
    ).json()["data"]
    assert topup["credit_amount"] == 50  # sepa: no fee
    path = f"/operator/topups/{topup['uuid']}/confirm"
    answers = await asyncio.gather(
        *(send(client, "POST", path, key, {"received_amount": 50}) for _ in range(5))
    )
    assert sorted(a.status_code for a in answers) == [200] + [409] * 4
    deposits = "SELECT count(*) FROM transactions WHERE type = 'deposit'"
    assert await app.state.db.reader.value(deposits) == 1
    await assert_ledger_consistent(app)


async def test_cancel_and_expiry(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "funding")
    user = await make_user(app)
    account = await make_account(app, user)
    body = {"account_uuid": str(account), "method": "card", "currency": "USD", "amount": 20}
    first = (await _ask(client, user, **body)).json()["data"]
    second = (await _ask(client, user, **body)).json()["data"]
    cancelled = await send(client, "POST", f"/operator/topups/{first['uuid']}/cancel", key)
    assert cancelled.status_code == 200 and cancelled.json()["data"]["status"] == "cancelled"
    assert await sweep_expired_topups(app.state.db, utcnow() + timedelta(hours=71)) == 0
    later = utcnow() + timedelta(hours=72, seconds=1)
    swept = await asyncio.gather(*(sweep_expired_topups(app.state.db, later) for _ in range(3)))
    assert sum(swept) == 1
    expired = (await client.get(f"/topups/{second['uuid']}", headers=user.headers)).json()["data"]
    assert expired["status"] == "expired"
    confirm = await send(
        client, "POST", f"/operator/topups/{second['uuid']}/confirm", key, {"received_amount": 20}
    )
    assert confirm.status_code == 409
    unknown = await send(
        client, "POST", f"/operator/topups/{uuid.uuid4()}/confirm", key, {"received_amount": 20}
    )
    assert unknown.status_code == 404


async def test_topups_expire_command_expires_what_is_due_at_its_instant(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)  # in process: tests/cli proves the process
    user = await make_user(app)
    account = await make_account(app, user)
    body = {"account_uuid": str(account), "method": "card", "currency": "USD", "amount": 20}
    topup = (await _ask(client, user, **body)).json()["data"]
    soon = (utcnow() + timedelta(hours=71)).isoformat()
    later = (utcnow() + timedelta(hours=73)).isoformat()
    assert await cli.value("topups", "expire", "--now", soon) == "0"
    assert await cli.value("topups", "expire", "--now", later) == "1"
    assert await cli.value("topups", "expire", "--now", later) == "0"
    expired = (await client.get(f"/topups/{topup['uuid']}", headers=user.headers)).json()["data"]
    assert expired["status"] == "expired"
    assert (await cli("topups", "expire", "--now", "tomorrow"))[0] == 2


PAY_TO = {
    "bank-transfer:EUR": {"Beneficiary": "Cards GmbH", "IBAN": "DE89 3704 0044 0532 0130 00"},
    "bank-transfer": {"Beneficiary": "Cards Inc.", "Account number": "000123456789"},
}


async def test_a_topup_says_where_to_pay_from_the_programs_details(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    """`pay_to` (docs/operations.md#where-top-ups-are-paid): the details set for the method and
    currency, else for the method, in their order; none for a method without details."""
    app.state.settings = settings.model_copy(update={"topup_pay_to": PAY_TO})
    user = await make_user(app)
    euros = await make_account(app, user, currency="EUR")
    dollars = await make_account(app, user, currency="USD")
    answers = [
        await _ask(
            client, user, account_uuid=str(account), method=method, currency=currency, amount=100
        )
        for account, method, currency in (
            (euros, "bank-transfer", "EUR"),
            (dollars, "bank-transfer", "USD"),
            (dollars, "card", "USD"),
        )
    ]
    assert [a.status_code for a in answers] == [201, 201, 201], answers[0].text
    pay_to = [a.json()["data"]["pay_to"] for a in answers]
    assert pay_to == [
        [
            {"label": "Beneficiary", "value": "Cards GmbH"},
            {"label": "IBAN", "value": "DE89 3704 0044 0532 0130 00"},
        ],
        [
            {"label": "Beneficiary", "value": "Cards Inc."},
            {"label": "Account number", "value": "000123456789"},
        ],
        [],
    ]
    one = await client.get(f"/topups/{answers[0].json()['data']['uuid']}", headers=user.headers)
    assert one.json()["data"]["pay_to"] == pay_to[0]
    listed = (await client.get("/topups", headers=user.headers)).json()["data"]
    assert sorted(map(len, (t["pay_to"] for t in listed))) == [0, 2, 2]


def test_payment_details_are_checked_at_start() -> None:
    for bad in ({"Bank Transfer": {"IBAN": "x"}}, {"sepa": {}}, {"sepa": {"IBAN": " "}}):
        try:
            Settings(topup_pay_to=bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was accepted")

"""The operator console (docs/operations.md#the-operator-console) through its forms: a
one-time link signs in once, within its 15 minutes, for a session cookie; every page reads
the operator's read-back; a card freeze and an account credit go through a confirmation and
the operator's use cases (audited with the console session as the actor); bad input is a
page that says why, and nothing changes."""

from __future__ import annotations

import uuid
from datetime import timedelta
from decimal import Decimal
from urllib.parse import parse_qs, urlsplit

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.operator.acting import CLI
from cardservice.operator.console import create_console_link
from tests.factories import balances, make_card, make_user
from tests.operator.helpers import operator_key, send

PAGES = ("", "/users", "/accounts", "/cards", "/transactions", "/disputes", "/clearing-files",
         "/audit-log", "/bins")  # fmt: skip


async def _link(app: FastAPI) -> str:
    """A console link's secret, as `cardservice operator console-link` makes it."""

    async def unit(tx: Tx) -> str:
        url, _expires = await create_console_link(tx, CLI, "")
        return parse_qs(urlsplit(url).query)["link"][0]

    secret: str = await app.state.db.transact(unit)
    return secret


async def _spend(client: httpx.AsyncClient, link: str) -> httpx.Response:
    await client.get(f"/console/login?link={link}")
    form = {"csrf_token": client.cookies["cs_csrf"], "link": link}
    return await client.post("/console/login", data=form)


async def _form(client: httpx.AsyncClient, path: str, **fields: str) -> httpx.Response:
    return await client.post(path, data={"csrf_token": client.cookies["cs_csrf"], **fields})


async def _audit(app: FastAPI, action: str) -> list[tuple[str, str]]:
    rows = await app.state.db.reader.rows(
        "SELECT actor_type, actor_id FROM audit_log WHERE action = $1 ORDER BY id", action
    )
    return [(r["actor_type"], r["actor_id"]) for r in rows]


async def test_a_link_signs_in_once_and_every_page_reads_the_program(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    assert (await client.get("/console/cards")).headers["location"] == "/console/login"
    user = await make_user(app)
    _account, card_uuid = await make_card(app, client, user)
    card = (await client.get(f"/card/{card_uuid}", headers=user.headers)).json()["data"]
    link = await _link(app)
    signed_in = await _spend(client, link)
    assert signed_in.status_code == 303 and signed_in.headers["location"] == "/console"
    assert "httponly" in signed_in.headers["set-cookie"].lower()
    for page in PAGES:
        shown = await client.get(f"/console{page}")
        assert shown.status_code == 200, (page, shown.text)
    found = await client.get("/console/cards", params={"filters[search]": card["mask"][-4:]})
    assert card["uuid"] in found.text and "1 card matches" in found.text
    [(actor, session)] = await _audit(app, "console.signed_in")
    assert actor == "console" and await _audit(app, "console.link_created") == [("system", "cli")]

    fresh = httpx.AsyncClient(transport=client._transport, base_url=str(client.base_url))
    async with fresh:
        again = await _spend(fresh, link)  # the same link in another browser
        assert again.status_code == 401 and "already used or has expired" in again.text
        assert "cs_console" not in fresh.cookies
    assert len(await _audit(app, "console.signed_in")) == 1

    out = await _form(client, "/console/logout")
    assert out.status_code == 303 and out.headers["location"] == "/console/login"
    assert (await _audit(app, "console.signed_out")) == [("console", session)]
    assert (await client.get("/console/cards")).status_code == 303


async def test_an_expired_link_is_refused_and_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    link = await _link(app)

    async def expire(tx: Tx) -> None:
        await tx.execute(
            "UPDATE console_sessions SET link_expires_at = $1", utcnow() - timedelta(seconds=1)
        )

    await app.state.db.transact(expire)
    refused = await _spend(client, link)
    assert refused.status_code == 401 and "already used or has expired" in refused.text
    assert not await app.state.db.reader.value(
        "SELECT count(*) FROM console_sessions WHERE signed_in_at IS NOT NULL"
    )
    assert await _audit(app, "console.signed_in") == []
    forged = await client.post("/console/login", data={"csrf_token": "x", "link": link})
    assert forged.status_code == 403


async def test_a_freeze_and_a_credit_are_confirmed_then_done_once_as_the_operator(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card_uuid = await make_card(app, client, user)
    card = {"uuid": card_uuid}
    await _spend(client, await _link(app))
    confirm = await client.get(f"/console/cards/{card['uuid']}/freeze")
    assert confirm.status_code == 200 and "Freeze the card" in confirm.text
    frozen = await _form(client, f"/console/cards/{card['uuid']}/freeze")
    assert frozen.status_code == 303
    holder = (await client.get(f"/card/{card['uuid']}", headers=user.headers)).json()["data"]
    assert (holder["status"], holder["frozen_reason"]) == ("frozen", "operator")
    [(actor, _session)] = await _audit(app, "card.frozen")
    assert actor == "console"

    before, _cards = await balances(app, account)
    path = f"/console/accounts/{account}/credit"
    review = await _form(client, path, amount="25.50", description="Wire 1")
    assert review.status_code == 200 and "25.50" in review.text
    external = review.text.split('name="external_id" value="')[1].split('"')[0]
    for _ in range(2):  # a double click books it once
        done = await _form(client, path, amount="25.50", description="Wire 1",
                           external_id=external, confirmed="yes")  # fmt: skip
        assert done.status_code == 303, done.text
    after, _cards = await balances(app, account)
    assert after == before + 2550
    deposits = await app.state.db.reader.value(
        "SELECT count(*) FROM operator_requests WHERE external_id = $1", external
    )
    assert deposits == 1 and len(await _audit(app, "account.credited")) == 1


async def test_bad_input_is_a_page_that_says_why_and_nothing_changes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card_uuid = await make_card(app, client, user)
    card = {"uuid": card_uuid}
    await _spend(client, await _link(app))
    bad_filter = await client.get("/console/cards", params={"filters[status]": "melted"})
    assert bad_filter.status_code == 422 and "must be one of" in bad_filter.text
    assert "text/html" in bad_filter.headers["content-type"]
    for amount in ("-5", "1.234", "lots", "0"):
        refused = await _form(client, f"/console/accounts/{account}/credit", amount=amount)
        assert refused.status_code == 422, amount
    missing = await client.get(f"/console/cards/{uuid.uuid4()}/freeze")
    assert missing.status_code == 404 and "text/html" in missing.headers["content-type"]
    expired_form = await client.post(f"/console/cards/{card['uuid']}/freeze", data={})
    assert expired_form.status_code == 403
    bad_reason = await _form(client, f"/console/cards/{card['uuid']}/replace", reason="bored")
    assert bad_reason.status_code == 422
    holder = (await client.get(f"/card/{card['uuid']}", headers=user.headers)).json()["data"]
    assert holder["status"] == "active"
    assert not await app.state.db.reader.value(
        "SELECT count(*) FROM audit_log"
        " WHERE actor_type = 'console' AND action <> 'console.signed_in'"
    )


async def test_the_catalogue_page_shows_the_rates_the_operator_set(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await _spend(client, await _link(app))
    empty = await client.get("/console/bins")
    assert empty.status_code == 200 and "No rate set" in empty.text
    key = await operator_key(app, "catalogue")
    at = (utcnow() + timedelta(days=1)).replace(microsecond=0)
    rate = {"base": "GBP", "quote": "USD", "rate": Decimal("1.4321")}
    body = {**rate, "effective_at": at.isoformat()}
    made = await send(client, "POST", "/operator/fx-rates", key, body)
    assert made.status_code == 201, made.text
    shown = (await client.get("/console/bins")).text
    assert f'data-rate="{made.json()["data"]["uuid"]}"' in shown
    assert "GBP → USD" in shown and "1.4321" in shown and at.strftime("%Y-%m-%d %H:%M:%S") in shown
    assert "No rate set" not in shown

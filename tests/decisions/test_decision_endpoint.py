"""The authorization decision endpoint: set/read/remove, approve, decline, timeout, errors,
stand-in, and no lock or transaction held while it thinks."""

from __future__ import annotations

import asyncio
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from starlette.responses import JSONResponse, PlainTextResponse, Response

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.errors import RuleViolation
from cardservice.infra.outbound import check_url
from cardservice.models.base import utcnow
from tests.cards.test_card_changes import patch_card
from tests.cli.test_cli import Command
from tests.decisions.conftest import Receiver, approve, free_port, set_endpoint, use_receiver
from tests.factories import (
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)


async def test_set_read_and_remove_the_endpoint(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    assert (await client.get("/authorization-endpoint", headers=user.headers)).status_code == 404
    data = await use_receiver(client, user, receiver, timeout_ms=800)
    assert data["secret"].startswith("whsec_") and len(data["secret"]) >= 38
    assert data["timeout_ms"] == 800 and data["on_timeout"] == "decline"
    read = (await client.get("/authorization-endpoint", headers=user.headers)).json()["data"]
    assert "secret" not in read and read["url"] == receiver.url
    assert read["consecutive_failures"] == 0 and read["stand_in_until"] is None
    again = await use_receiver(client, user, receiver)  # a new PUT: a new secret
    assert again["secret"] != data["secret"] and again["timeout_ms"] == 1500
    removed = await client.delete("/authorization-endpoint", headers=user.headers)
    assert removed.status_code == 200 and removed.json() == {"success": True}
    assert (await client.delete("/authorization-endpoint", headers=user.headers)).status_code == 404
    for bad in ({"timeout_ms": 99}, {"timeout_ms": 3001}, {"on_timeout": "maybe"}, {"x": 1}):
        response = await set_endpoint(client, user, receiver.url, **bad)
        assert response.status_code == 422 and response.json()["code"] == "validation_error"
    ftp = await set_endpoint(client, user, "ftp://example.com/decide")
    assert ftp.status_code == 422 and ftp.json()["code"] == "url_not_allowed"


async def test_private_urls_are_refused_unless_allowed(settings: Settings) -> None:
    strict = create_app(settings.model_copy(update={"webhook_allow_private": False}))
    user = await make_user(strict)
    transport = httpx.ASGITransport(app=strict)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        for url in (
            "http://127.0.0.1:18599/",
            "http://10.1.2.3/",
            "http://[::1]/",
            "http://localhost/",
        ):
            response = await set_endpoint(client, user, url)
            assert response.status_code == 422 and response.json()["code"] == "url_not_allowed"
    await strict.state.db.dispose()
    await strict.state.outbound.aclose()
    await check_url("https://8.8.8.8/decide", allow_private=False)  # a public address passes
    with pytest.raises(RuleViolation):
        await check_url("http://169.254.169.254/latest", allow_private=False)


async def test_an_approval_is_asked_signed_and_recorded(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver)
    data = (
        await authorize(client, user, card, "12.5", tag="amazon", merchant_country="US")
    ).json()["data"]
    assert data["status"] == "pending" and data["decision"] == "endpoint"
    [event] = receiver.events
    assert event["type"] == "authorization.request" and event["uuid"] == data["uuid"]
    assert receiver.headers[0]["webhook-id"] == data["uuid"]
    assert event["data"]["amount"] == 12.5 and event["data"]["card_uuid"] == card
    assert event["data"]["merchant"]["country"] == "US" and event["data"]["tag"] == "amazon"
    assert (await balances(app, account))[1] == [10000 - 1260]
    await assert_ledger_consistent(app)


async def test_a_decline_by_the_endpoint_is_do_not_honor(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver, on_timeout="approve")

    async def decline(_event: dict[str, Any]) -> Response:
        return JSONResponse({"approved": False, "reason": "velocity rule 7"})

    receiver.handler = decline
    data = (await authorize(client, user, card, "10")).json()["data"]
    assert data["status"] == "declined" and data["error"] == "do_not_honor"
    assert data["decision"] == "endpoint" and data["description"] == "velocity rule 7"
    assert data["fee"] == 0.5
    assert (await balances(app, account))[1] == [10000 - 50]
    await assert_ledger_consistent(app)


async def test_a_decline_by_the_rules_never_asks(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="5")
    await use_receiver(client, user, receiver)
    data = (await authorize(client, user, card, "10")).json()["data"]
    assert data["error"] == "insufficient_funds" and data["decision"] == "rules"
    assert receiver.events == []


@pytest.mark.parametrize("on_timeout", ["decline", "approve"])
async def test_a_slow_endpoint_gets_the_fallback_within_its_timeout(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver, on_timeout: str
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver, timeout_ms=200, on_timeout=on_timeout)

    asked: list[bool] = []
    answered: list[bool] = []

    async def slow(_event: dict[str, Any]) -> Response:
        asked.append(True)
        await asyncio.sleep(3)  # 15 times the endpoint's timeout
        answered.append(True)
        return JSONResponse({"approved": True})

    receiver.handler = slow
    data = (await authorize(client, user, card, "10")).json()["data"]
    # the service asked, then answered on its own while the endpoint was still thinking: the
    # order of events, not a wall-clock bound (this machine is shared and noisy)
    assert asked == [True] and answered == []
    assert data["decision"] == "timeout"
    assert data["status"] == ("pending" if on_timeout == "approve" else "declined")
    await assert_ledger_consistent(app)


async def test_garbage_errors_and_refusals_get_the_fallback(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver, on_timeout="approve")
    answers: list[Response] = [
        PlainTextResponse("boom", status_code=500),
        PlainTextResponse("yes please"),
        JSONResponse({"approved": "yes"}),
        JSONResponse([True]),
        Response(status_code=302, headers={"location": "http://127.0.0.1:1/"}),
        JSONResponse({"approved": True, "padding": "x" * 20_000}),  # longer than 16 KiB
    ]
    for n, answer in enumerate(answers):
        if n == 4:  # five failures in a row start a stand-in: set the endpoint anew
            await use_receiver(client, user, receiver, on_timeout="approve")

        async def reply(_event: dict[str, Any], answer: Response = answer) -> Response:
            return answer

        receiver.handler = reply
        response = await authorize(client, user, card, "1")
        assert response.status_code == 201, response.text
        data = response.json()["data"]
        assert data["decision"] == "endpoint_error" and data["status"] == "pending", answer
    closed = f"http://127.0.0.1:{free_port()}/decide"  # nothing listens there
    response = await set_endpoint(client, user, closed, on_timeout="decline")
    assert response.status_code == 200
    data = (await authorize(client, user, card, "1")).json()["data"]
    assert data["decision"] == "endpoint_error" and data["error"] == "do_not_honor"
    await assert_ledger_consistent(app)


async def test_an_address_that_turned_private_is_not_asked(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    """The endpoint's host is resolved and checked before every call, as webhooks' are: a
    name that now resolves to a private address (here: private addresses no longer allowed)
    gets the fallback, and the request never leaves."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver, on_timeout="approve")
    app.state.settings = app.state.settings.model_copy(update={"webhook_allow_private": False})
    data = (await authorize(client, user, card, "1")).json()["data"]
    assert data["decision"] == "endpoint_error" and data["status"] == "pending"
    assert receiver.events == []


async def test_five_failures_in_a_row_put_the_endpoint_in_stand_in(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver, on_timeout="approve")

    async def broken(_event: dict[str, Any]) -> Response:
        return PlainTextResponse("down", status_code=503)

    receiver.handler = broken
    for _ in range(5):
        assert (await authorize(client, user, card, "1")).json()["data"]["decision"] == (
            "endpoint_error"
        )
    state = (await client.get("/authorization-endpoint", headers=user.headers)).json()["data"]
    assert state["consecutive_failures"] == 5 and state["stand_in_until"] is not None
    data = (await authorize(client, user, card, "1")).json()["data"]
    assert data["decision"] == "stand_in" and data["status"] == "pending"
    assert len(receiver.events) == 5  # not asked during the stand-in
    # the 60 s are over: a stand-in that ended in the past, which no service makes
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE authorization_endpoints SET stand_in_until = $1",
            utcnow() - timedelta(seconds=1),
        )
    )
    receiver.handler = approve
    assert (await authorize(client, user, card, "1")).json()["data"]["decision"] == "endpoint"
    state = (await client.get("/authorization-endpoint", headers=user.headers)).json()["data"]
    assert state["consecutive_failures"] == 0 and state["stand_in_until"] is None
    await assert_ledger_consistent(app)


async def test_funds_are_checked_again_after_the_answer(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    await use_receiver(client, user, receiver)
    spent: list[dict[str, Any]] = []

    async def spend_first(event: dict[str, Any]) -> Response:
        if event["data"]["amount"] == 60:  # while it thinks, another purchase takes 70
            spent.append((await authorize(client, user, card, "70")).json()["data"])
        return JSONResponse({"approved": True})

    receiver.handler = spend_first
    data = (await authorize(client, user, card, "60")).json()["data"]
    assert spent[0]["status"] == "pending"
    assert data["status"] == "declined" and data["error"] == "insufficient_funds"
    assert data["decision"] == "rules"
    assert (await balances(app, account))[1] == [10000 - 7010 - 50]
    await assert_ledger_consistent(app)


async def test_no_lock_is_held_while_the_endpoint_thinks(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    """The endpoint, while asked about card A, authorizes on card B of the same account (which
    needs the account's lock, and on SQLite the writer's turn) and waits for the answer."""
    user = await make_user(app)
    account, card_a = await make_card(app, client, user, start_balance="100")
    bought = await client.post(
        "/card/buy",
        json={
            "account_uuid": str(account),
            "bin_uuid": await _bin_of(client, user, card_a),
            "start_balance": 50,
        },
        headers=user.headers,
    )
    card_b = bought.json()["data"]["cards"][0]["uuid"]
    await use_receiver(client, user, receiver)
    inner: list[dict[str, Any]] = []

    async def think(event: dict[str, Any]) -> Response:
        if event["data"]["card_uuid"] == card_a:
            inner.append((await authorize(client, user, card_b, "5")).json()["data"])
        return JSONResponse({"approved": True})

    receiver.handler = think
    async with asyncio.timeout(30):
        outer = (await authorize(client, user, card_a, "10")).json()["data"]
    assert outer["status"] == "pending" and outer["decision"] == "endpoint"
    assert inner[0]["status"] == "pending" and inner[0]["card_uuid"] == card_b
    assert inner[0]["account_uuid"] == outer["account_uuid"] == str(account)
    assert [e["data"]["card_uuid"] for e in receiver.events] == [card_a, card_b]
    await assert_ledger_consistent(app)


async def _bin_of(client: httpx.AsyncClient, user: Any, card: str) -> str:
    bins = (await client.get("/dictionary/bins", headers=user.headers)).json()["data"]
    digits = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]["bin"]
    return str(next(b["uuid"] for b in bins if b["bin"] == digits))


async def test_a_frozen_card_is_declined_by_the_rules_with_an_endpoint(
    app: FastAPI, client: httpx.AsyncClient, receiver: Receiver
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await use_receiver(client, user, receiver)
    await patch_card(client, user, card, {"status": "frozen"})
    data = (await authorize(client, user, card, "1")).json()["data"]
    assert data["error"] == "card_frozen" and data["decision"] == "rules"
    assert receiver.events == [] and uuid.UUID(data["uuid"])


async def test_the_cli_asks_the_endpoint_and_forces_declines(
    app: FastAPI,
    client: httpx.AsyncClient,
    receiver: Receiver,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The command in this process (tests.cli.test_cli.Command: tests/cli proves the
    process), its outbound call to the loopback receiver as the process makes it."""
    cli = Command(settings, monkeypatch, capsys)
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    await use_receiver(client, user, receiver)
    base = ["simulate", "authorize", "--card", card, "--amount", "3", "--merchant", "Shop"]
    email = ["--email", user.email]
    txn, status = (await cli.value(*base, *email)).split()
    assert status == "pending" and receiver.events[0]["uuid"] == txn
    forced = await cli.value(*base, "--force-decline", "suspected_fraud", *email)
    assert forced.split()[1:] == ["declined", "suspected_fraud"]
    assert len(receiver.events) == 1


async def test_405_lists_every_method_of_the_path(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    endpoint = await client.post("/authorization-endpoint", headers=user.headers)
    assert endpoint.status_code == 405 and endpoint.headers["allow"] == "DELETE, GET, PUT"
    card = await client.delete(f"/card/{uuid.uuid4()}", headers=user.headers)
    assert card.status_code == 405 and card.headers["allow"] == "GET, PATCH"

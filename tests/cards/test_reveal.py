"""POST /card/{uuid}/reveal (issue 29, docs/security.md#card-details-cvv2-and-issuer-keys): every
rule, on both databases; and the number and CVV2 nowhere else (logs, lists, CSV, events, the audit
trail)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.auth.credentials import revoke_mfa_codes
from cardservice.cards.numbers import luhn_valid
from cardservice.config import Settings
from cardservice.db.sql import Tx, text_uuid
from cardservice.http.router import dumps
from cardservice.models.base import utcnow
from cardservice.operator.api_keys import PREFIX_LENGTH
from cardservice.security.cvv import cvv_with_key
from tests.conftest import TEST_CVK, empty_tables
from tests.factories import ISSUED_SECRETS, Caller, authorize, make_card, make_mfa_code, make_user
from tests.log_scan import secrets_in
from tests.operator.helpers import operator_key, send
from tests.softhsm import SoftHsm


@pytest.fixture(params=["local", "pkcs11"])
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test twice: keys local, and keys in this run's SoftHSM2 token."""
    if request.param == "local":
        return settings
    softhsm: SoftHsm = request.getfixturevalue("softhsm")
    return softhsm.settings(settings)


async def reveal(
    client: httpx.AsyncClient,
    user: Caller,
    card: str,
    body: dict[str, Any] | None,
    *,
    headers: dict[str, str] | None = None,
) -> httpx.Response:
    response = await client.post(
        f"/card/{card}/reveal",
        content=dumps(body if body is not None else {}),
        headers={**user.headers, "Content-Type": "application/json", **(headers or {})},
    )
    if response.status_code == 200:  # the log scan of the whole run looks for it too
        ISSUED_SECRETS.append(response.json()["data"]["pan"])
    return response


async def reveal_with_fresh_code(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, card: str, **kwargs: Any
) -> httpx.Response:
    return await reveal(client, user, card, {"mfa_code": await make_mfa_code(app, user)}, **kwargs)


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


async def test_the_holder_reads_number_expiry_and_cvv2(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    record = (await client.get(f"/card/{card}", headers=user.headers)).json()["data"]
    response = await reveal_with_fresh_code(app, client, user, card)
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    details = response.json()["data"]
    assert set(details) == {"pan", "cvv2", "expiry_month", "expiry_year", "holder_name"}
    pan = details["pan"]
    assert luhn_valid(pan) and pan.startswith(record["bin"]) and pan.endswith(record["last4"])
    assert (details["expiry_month"], details["expiry_year"]) == (
        record["expiry_month"],
        record["expiry_year"],
    )
    assert details["holder_name"] == record["holder_name"] == "Test User"
    yymm = f"{details['expiry_year'] % 100:02d}{details['expiry_month']:02d}"
    assert details["cvv2"] == cvv_with_key(bytes.fromhex(TEST_CVK), pan, yymm, "000")
    again = (await reveal_with_fresh_code(app, client, user, card)).json()["data"]
    assert again == details  # the same card, the same CVV2


async def test_bearer_token_only(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    credential = await make_mfa_code(app, user)
    step_up = await make_mfa_code(app, user)
    response = await client.post(
        f"/card/{card}/reveal",
        params={"_code": credential},
        content=dumps({"mfa_code": step_up}),
        headers={"Content-Type": "application/json"},
    )
    assert error(response) == (403, "forbidden")
    anonymous = await client.post(
        f"/card/{card}/reveal", content=b"{}", headers={"Content-Type": "application/json"}
    )
    assert error(anonymous) == (401, "unauthenticated")
    # neither call used the step-up code up
    assert (await reveal(client, user, card, {"mfa_code": step_up})).status_code == 200


async def test_only_the_holder_not_a_team_owner(app: FastAPI, client: httpx.AsyncClient) -> None:
    team = f"Team {uuid.uuid4().hex[:6]}"
    owner = await make_user(app, team=team, role="owner")
    member = await make_user(app, team=team, role="member")
    _account, card = await make_card(app, client, member)
    assert (await client.get(f"/card/{card}", headers=owner.headers)).status_code in (200, 404)
    assert error(await reveal_with_fresh_code(app, client, owner, card)) == (404, "not_found")
    stranger = await make_user(app)
    assert error(await reveal_with_fresh_code(app, client, stranger, card)) == (404, "not_found")
    unknown = await reveal_with_fresh_code(app, client, member, str(uuid.uuid4()))
    assert error(unknown) == (404, "not_found")
    assert (await reveal_with_fresh_code(app, client, member, card)).status_code == 200


async def test_step_up_missing_is_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    missing = await reveal(client, user, card, {})
    assert error(missing) == (422, "validation_error") and "mfa_code" in missing.json()["errors"]
    assert error(await reveal(client, user, card, {"mfa_code": ""}))[0] == 422
    extra = await reveal(client, user, card, {"mfa_code": "X", "pan": "1"})
    assert error(extra) == (422, "validation_error")
    not_json = await client.post(
        f"/card/{card}/reveal",
        content=b"{",
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert error(not_json) == (400, "bad_request")


async def test_wrong_expired_revoked_used_or_foreign_codes_fail_the_step_up(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, other = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user)
    assert error(await reveal(client, user, card, {"mfa_code": "WRONGCODE2"})) == (
        403,
        "step_up_failed",
    )
    expired = await make_mfa_code(app, user, ttl=timedelta(seconds=-1))
    assert error(await reveal(client, user, card, {"mfa_code": expired})) == (
        403,
        "step_up_failed",
    )
    revoked = await make_mfa_code(app, user)

    async def revoke(tx: Tx) -> int:
        return await revoke_mfa_codes(tx, user.uuid)

    await app.state.db.transact(revoke)
    assert error(await reveal(client, user, card, {"mfa_code": revoked})) == (
        403,
        "step_up_failed",
    )
    used = await make_mfa_code(app, user)
    assert (await reveal(client, user, card, {"mfa_code": used})).status_code == 200
    assert error(await reveal(client, user, card, {"mfa_code": used})) == (403, "step_up_failed")
    # a used code is also no credential any more
    assert (await client.get("/user/summary", params={"_code": used})).status_code == 401
    foreign = await make_mfa_code(app, other)
    assert error(await reveal(client, user, card, {"mfa_code": foreign})) == (
        403,
        "step_up_failed",
    )
    # the other user's code was not used up by the refusal
    assert (await client.get("/user/summary", params={"_code": foreign})).status_code == 200


async def test_a_closed_card_is_refused_and_the_code_kept(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    _account2, open_card = await make_card(app, client, user)
    closed = await client.patch(
        f"/card/{card}",
        content=dumps({"status": "closed"}),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert closed.status_code == 200, closed.text
    code = await make_mfa_code(app, user)
    assert error(await reveal(client, user, card, {"mfa_code": code})) == (422, "card_closed")
    assert (await reveal(client, user, open_card, {"mfa_code": code})).status_code == 200
    frozen = await client.patch(
        f"/card/{open_card}",
        content=dumps({"status": "frozen"}),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert frozen.status_code == 200
    # a frozen card still shows its details (it may be unfrozen);
    # docs/security.md#card-details-cvv2-and-issuer-keys refuses closed only
    assert (await reveal_with_fresh_code(app, client, user, open_card)).status_code == 200


async def test_the_eleventh_reveal_in_an_hour_is_429(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    _account2, other_card = await make_card(app, client, user)
    for _ in range(10):
        assert (await reveal_with_fresh_code(app, client, user, card)).status_code == 200
    code = await make_mfa_code(app, user)
    limited = await reveal(client, user, card, {"mfa_code": code})
    assert error(limited) == (429, "rate_limited")
    assert 0 < int(limited.headers["retry-after"]) <= 3600
    # per card: another card of the same holder is not limited, and the code was not used
    assert (await reveal(client, user, other_card, {"mfa_code": code})).status_code == 200
    # an hour later the window has moved: age the trail's rows by an hour
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE audit_log SET created_at = $1 WHERE object_uuid = $2",
            utcnow() - timedelta(hours=1, seconds=1),
            uuid.UUID(card),
        )
    )
    assert (await reveal_with_fresh_code(app, client, user, card)).status_code == 200


async def test_each_reveal_writes_an_audit_row_and_an_event_without_the_number(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    request_id = "reveal-test-" + uuid.uuid4().hex[:8]
    response = await reveal_with_fresh_code(
        app, client, user, card, headers={"X-Request-ID": request_id}
    )
    assert response.status_code == 200
    details = response.json()["data"]
    rows = await app.state.db.reader.rows(
        "SELECT actor_type, actor_id, action, object_type, object_uuid, request_id, details"
        " FROM audit_log"
    )
    assert len(rows) == 1
    row = rows[0]
    assert (row["actor_type"], row["actor_id"], row["action"], row["object_type"]) == (
        "user",
        str(user.uuid),
        "card.reveal",
        "card",
    )
    assert uuid.UUID(str(row["object_uuid"])) == uuid.UUID(card)
    assert row["request_id"] == response.headers["x-request-id"] == request_id
    events = (await client.get("/events", headers=user.headers, params={"limit": 100})).json()
    revealed = [e for e in events["data"] if e["type"] == "card.details_revealed"]
    assert len(revealed) == 1 and revealed[0]["data"]["uuid"] == card
    assert "pan" not in revealed[0]["data"] and "cvv2" not in revealed[0]["data"]
    assert details["pan"] not in dumps(events).decode()
    refused = await reveal(client, user, card, {"mfa_code": "WRONGCODE2"})
    assert refused.status_code == 403
    assert (await app.state.db.reader.value("SELECT count(*) FROM audit_log")) == 1


async def test_the_number_and_cvv2_appear_nowhere_else(
    app: FastAPI, client: httpx.AsyncClient, log_capture: list[str]
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    approved = await authorize(client, user, card, "10")
    assert approved.status_code == 201, approved.text
    lines_before = len(log_capture)
    details = (await reveal_with_fresh_code(app, client, user, card)).json()["data"]
    pan, cvv2 = details["pan"], details["cvv2"]
    bodies = []
    for path in (
        "/card",
        f"/card/{card}",
        "/accounts",
        "/user/summary",
        "/transaction/report",
        "/transaction/report.csv",
        "/events?limit=100",
    ):
        response = await client.get(path, headers=user.headers)
        assert response.status_code == 200, (path, response.text)
        bodies.append((path, response.text))
    for path, text in bodies:
        assert pan not in text, path
        assert '"cvv2"' not in text and f"cvv2,{cvv2}" not in text, path
    audit = await app.state.db.reader.rows("SELECT * FROM audit_log")
    assert pan not in str([tuple(row) for row in audit])
    events = await app.state.db.reader.rows("SELECT data FROM events")
    assert all(pan not in str(row["data"]) and "cvv2" not in str(row["data"]) for row in events)
    logged = "\n".join(log_capture[lines_before:])
    assert pan not in logged and "cvv2" not in logged
    assert pan in secrets_in(pan)  # the scanner would see it, were it logged


async def test_without_a_card_verification_key_the_reveal_is_503_and_uses_no_code(
    settings: Settings,
) -> None:
    """PostgreSQL has no embedded key file: without CARDSERVICE_CVK a reveal answers the
    docs/api.md#errors body with 503 (never a 500), and the step-up code stays usable."""
    if settings.is_sqlite or settings.key_backend != "local":
        pytest.skip("the embedded SQLite set-up generates its CVK; the token holds its own")
    app = create_app(settings.model_copy(update={"cvk": None}))
    await empty_tables(app)
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            user = await make_user(app)
            _account, card = await make_card(app, client, user)
            code = await make_mfa_code(app, user)
            response = await reveal(client, user, card, {"mfa_code": code})
            assert error(response) == (503, "keys_unavailable")
            assert response.json()["success"] is False
            again = await client.get("/accounts", params={"_code": code})
            assert again.status_code == 200  # the code was not used up
    finally:
        await app.state.db.dispose()


async def test_a_reveal_with_a_token_an_operator_key_issued_names_that_key(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    holder = await make_user(app)
    _account, card = await make_card(app, client, holder)
    desk = await operator_key(app, "users", name="help desk")  # nothing but `users`
    issued = await send(client, "POST", f"/operator/users/{holder.uuid}/tokens", desk, {})
    assert issued.status_code == 201, issued.text
    through_desk = Caller(holder.uuid, holder.email, issued.json()["data"]["token"])
    ISSUED_SECRETS.append(through_desk.token)
    minted = await client.post("/auth/mfa-code", headers=through_desk.headers)
    assert minted.status_code == 201, minted.text
    desk_reveal = await reveal(
        client, through_desk, card, {"mfa_code": minted.json()["data"]["code"]}
    )
    assert desk_reveal.status_code == 200, desk_reveal.text
    own_reveal = await reveal_with_fresh_code(app, client, holder, card)
    assert own_reveal.status_code == 200

    key_uuid = await app.state.db.reader.value("SELECT uuid FROM operator_keys")
    token_uuid = await app.state.db.reader.value(
        "SELECT uuid FROM api_tokens WHERE issued_by_key IS NOT NULL"
    )
    auditor = await operator_key(app, "reports", name="auditor")
    rows = (await send(client, "GET", "/operator/audit-log", auditor)).json()["data"]
    reveals = [row for row in rows if row["action"] == "card.reveal"]
    assert [row["request_id"] for row in reveals] == [
        own_reveal.headers["x-request-id"],
        desk_reveal.headers["x-request-id"],
    ]
    own, by_desk = reveals
    assert own["actor"] == by_desk["actor"] == {"type": "user", "id": str(holder.uuid)}
    assert own["details"] is None
    assert by_desk["details"] == {
        "token_uuid": str(text_uuid(token_uuid)),
        "operator_key": {"uuid": str(text_uuid(key_uuid)), "name": "help desk",
                         "prefix": desk[:PREFIX_LENGTH]},
    }  # fmt: skip
    listed = dumps(rows).decode()
    assert desk not in listed and through_desk.token not in listed
    assert desk_reveal.json()["data"]["pan"] not in listed

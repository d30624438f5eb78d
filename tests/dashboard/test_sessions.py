"""Dashboard sign-in, CSRF, sign-out and one-time links, through the real app and database:
a session is a token of its own, in a strict cookie; sign-out revokes it; a link works once."""

from __future__ import annotations

import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import Tx, as_datetime
from cardservice.errors import NotFound
from cardservice.models.base import utcnow
from cardservice.users.sessions import create_sign_in_link
from tests.factories import Caller, make_user

SESSIONS = """
SELECT token_hash, expires_at, revoked_at FROM api_tokens
WHERE user_uuid = $1 AND name = 'dashboard'
"""


async def _csrf(client: httpx.AsyncClient) -> str:
    await client.get("/app/login")
    return client.cookies["cs_csrf"]


async def _sign_in(client: httpx.AsyncClient, user: Caller) -> httpx.Response:
    form = {"csrf_token": await _csrf(client), "token": user.token}
    return await client.post("/app/login", data=form)


async def _sessions(app: FastAPI, user: Caller) -> list[dict[str, object]]:
    return [dict(row) for row in await app.state.db.reader.rows(SESSIONS, user.uuid)]


async def _link(app: FastAPI, email: str) -> str:
    async def work(tx: Tx) -> str:
        secret, _expires = await create_sign_in_link(tx, email)
        return secret

    return await app.state.db.transact(work)  # type: ignore[no-any-return]


async def test_a_pasted_token_starts_a_session_of_its_own_in_a_strict_cookie(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    response = await _sign_in(client, user)
    assert response.status_code == 303 and response.headers["location"] == "/app"
    cookie = next(c for c in response.headers.get_list("set-cookie") if "cs_session=" in c)
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Path=/app" in cookie
    assert "Max-Age=43200" in cookie and "Secure" not in cookie
    assert user.token not in cookie
    [session] = await _sessions(app, user)
    expires = as_datetime(session["expires_at"])
    assert expires is not None and abs(expires - utcnow() - timedelta(hours=12)) < timedelta(
        minutes=1
    )
    overview = await client.get("/app")
    assert overview.status_code == 200 and "Overview" in overview.text
    assert "default-src 'self'" in overview.headers["content-security-policy"]


async def test_the_cookie_is_secure_over_https(app: FastAPI) -> None:
    user = await make_user(app)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="https://testserver") as secure:
        response = await _sign_in(secure, user)
    cookie = next(c for c in response.headers.get_list("set-cookie") if "cs_session=" in c)
    assert "Secure" in cookie


async def test_a_form_without_its_csrf_token_changes_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await _csrf(client)
    refused = await client.post("/app/login", data={"token": user.token, "csrf_token": "forged"})
    assert refused.status_code == 403 and await _sessions(app, user) == []
    await _sign_in(client, user)
    out = await client.post("/app/logout", data={})
    assert out.status_code == 403
    [session] = await _sessions(app, user)
    assert session["revoked_at"] is None


async def test_an_unknown_token_is_refused(app: FastAPI, client: httpx.AsyncClient) -> None:
    form = {"csrf_token": await _csrf(client), "token": "cs_" + "x" * 43}
    response = await client.post("/app/login", data=form)
    assert response.status_code == 401 and "unknown, expired or revoked" in response.text
    assert "cs_session" not in response.headers.get("set-cookie", "")


async def test_signing_out_revokes_the_session_and_only_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await _sign_in(client, user)
    session_token = client.cookies["cs_session"]
    out = await client.post("/app/logout", data={"csrf_token": client.cookies["cs_csrf"]})
    assert out.status_code == 303 and out.headers["location"] == "/app/login"
    [session] = await _sessions(app, user)
    assert session["revoked_at"] is not None
    revoked = await client.get("/accounts", headers={"Authorization": f"Bearer {session_token}"})
    assert revoked.status_code == 401
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    client.cookies.set("cs_session", session_token, path="/app")
    again = await client.get("/app/cards")
    assert again.status_code == 303 and again.headers["location"] == "/app/login"


async def test_a_sign_in_link_works_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    secret = await _link(app, user.email)
    page = await client.get("/app/login", params={"link": secret})
    assert f'value="{secret}"' in page.text
    form = {"csrf_token": client.cookies["cs_csrf"], "link": secret}
    first = await client.post("/app/login/link", data=form)
    assert first.status_code == 303 and len(await _sessions(app, user)) == 1
    second = await client.post("/app/login/link", data=form)
    assert second.status_code == 401 and len(await _sessions(app, user)) == 1
    used = await app.state.db.reader.value(
        "SELECT used_at FROM sign_in_links WHERE user_uuid = $1", user.uuid
    )
    assert used is not None


async def test_an_expired_sign_in_link_is_refused(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    secret = await _link(app, user.email)

    async def expire(tx: Tx) -> None:
        past = utcnow() - timedelta(seconds=1)
        await tx.execute(
            "UPDATE sign_in_links SET expires_at = $1 WHERE user_uuid = $2", past, user.uuid
        )

    await app.state.db.transact(expire)
    form = {"csrf_token": await _csrf(client), "link": secret}
    response = await client.post("/app/login/link", data=form)
    assert response.status_code == 401 and await _sessions(app, user) == []


async def test_a_link_for_an_unknown_email_is_not_made(app: FastAPI) -> None:
    with pytest.raises(NotFound):
        await _link(app, f"nobody-{uuid.uuid4().hex}@example.com")
    count = await app.state.db.reader.value("SELECT count(*) FROM sign_in_links")
    assert count == 0

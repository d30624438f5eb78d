"""Session cookies are `Secure` behind the documented TLS proxy (issue 28, item 7): the
scheme is the request's own, or a trusted proxy's `X-Forwarded-Proto`
(`CARDSERVICE_TRUSTED_PROXIES`, docs/api.md#hardening), or `https` whenever `CARDSERVICE_PUBLIC_URL`
is an https URL. An untrusted peer's `X-Forwarded-Proto` is not believed."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from tests.factories import Caller, make_user


async def _cookies(app: FastAPI, user: Caller, peer: str, **headers: str) -> list[str]:
    """The Set-Cookie headers of signing in from `peer` over plain http."""
    transport = httpx.ASGITransport(app=app, client=(peer, 40000))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://testserver", headers=headers
    ) as browser:
        page = await browser.get("/app/login")
        csrf = browser.cookies["cs_csrf"]  # sent back by hand: a Secure cookie is not, on http
        signed_in = await browser.post(
            "/app/login",
            data={"csrf_token": csrf, "token": user.token},
            headers={"Cookie": f"cs_csrf={csrf}"},
        )
    assert signed_in.status_code == 303
    return page.headers.get_list("set-cookie") + signed_in.headers.get_list("set-cookie")


def _secure(cookies: list[str]) -> set[bool]:
    assert any("cs_session=" in c for c in cookies) and any("cs_csrf=" in c for c in cookies)
    return {"; secure" in c.lower() for c in cookies}


async def test_a_trusted_proxys_forwarded_proto_makes_cookies_secure(app: FastAPI) -> None:
    app.state.settings = app.state.settings.model_copy(update={"trusted_proxies": "10.0.0.0/8"})
    user = await make_user(app)
    tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
    assert _secure(await _cookies(app, user, "10.0.0.2", **tls)) == {True}
    plain = {"X-Forwarded-Proto": "http", "X-Forwarded-For": "203.0.113.7"}
    assert _secure(await _cookies(app, user, "10.0.0.2", **plain)) == {False}
    assert _secure(await _cookies(app, user, "198.51.100.9", **tls)) == {False}  # untrusted


async def test_an_https_public_url_makes_cookies_secure(app: FastAPI) -> None:
    user = await make_user(app)
    assert _secure(await _cookies(app, user, "127.0.0.1")) == {False}
    app.state.settings = app.state.settings.model_copy(
        update={"public_url": "https://cards.example.com"}
    )
    assert _secure(await _cookies(app, user, "127.0.0.1")) == {True}

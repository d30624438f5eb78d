"""A signed-in dashboard browser for page tests: the session and CSRF cookies, and forms."""

from __future__ import annotations

import httpx

from tests.factories import Caller


async def sign_in(client: httpx.AsyncClient, user: Caller) -> None:
    await client.get("/app/login")
    form = {"csrf_token": client.cookies["cs_csrf"], "token": user.token}
    assert (await client.post("/app/login", data=form)).status_code == 303


async def post_form(client: httpx.AsyncClient, path: str, **fields: str) -> httpx.Response:
    """Post a dashboard form with this browser's CSRF token."""
    return await client.post(path, data={"csrf_token": client.cookies["cs_csrf"], **fields})

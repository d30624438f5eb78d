"""Signing in and out of the dashboard: paste a token, or follow a one-time link."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import Response

from cardservice.auth import principal_for_token
from cardservice.auth.dependencies import MAX_CREDENTIAL_LENGTH, count_failed_attempt
from cardservice.dashboard.web import (
    COOKIE_PATH,
    SESSION_COOKIE,
    csrf_matches,
    read_form,
    redirect,
    render,
    set_cookie,
)
from cardservice.db.sql import Tx
from cardservice.http.database import Db
from cardservice.http.router import Router
from cardservice.users import sessions

router = Router(prefix="/app", include_in_schema=False)
SESSION_SECONDS = int(sessions.SESSION_LIFETIME.total_seconds())


def _login_page(request: Request, error: str | None, link: str = "", status: int = 200) -> Response:
    context = {"title": "Sign in", "error": error, "link": link}
    return render(request, "login.html", context, status_code=status)


def _signed_in(request: Request, session_token: str) -> Response:
    response = redirect(request, "/app")
    set_cookie(request, response, SESSION_COOKIE, session_token, SESSION_SECONDS)
    return response


@router.get("/login")
async def login_page(request: Request, link: str = "") -> Response:
    """The sign-in form; with `?link=` from `cardservice dashboard link`, a one-click form."""
    return _login_page(request, None, link=link[:128])


@router.post("/login")
async def login(request: Request, db: Db) -> Response:
    """Exchange a pasted bearer token for a 12-hour dashboard session of the same user."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return _login_page(request, "The form expired; please try again.", status=403)
    token = form.get("token", "").strip()
    principal = None
    if 0 < len(token) <= MAX_CREDENTIAL_LENGTH:
        principal = await principal_for_token(db.reader, token)
    # counted against the address as the API counts it (docs/api.md#hardening)
    if principal is None:
        if not (await count_failed_attempt(request)).allowed:
            return _login_page(request, "Too many failed attempts; wait a minute.", status=429)
        return _login_page(request, "That token is unknown, expired or revoked.", status=401)
    user_uuid = principal.user_uuid

    async def work(tx: Tx) -> str:
        return await sessions.start_session(tx, user_uuid)

    return _signed_in(request, await db.transact(work))


@router.post("/login/link")
async def login_with_link(request: Request, db: Db) -> Response:
    """Spend a one-time sign-in link and start a session."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return _login_page(request, "The form expired; please try again.", status=403)
    secret = form.get("link", "")

    async def work(tx: Tx) -> str | None:
        return await sessions.use_sign_in_link(tx, secret)

    session_token = await db.transact(work) if 0 < len(secret) <= 128 else None
    if session_token is None:
        message = "That sign-in link was already used or has expired."
        return _login_page(request, message, status=401)
    return _signed_in(request, session_token)


@router.post("/logout")
async def logout(request: Request, db: Db) -> Response:
    """Revoke the session's token and forget the cookie."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return _login_page(request, "The form expired; please try again.", status=403)
    session_token = request.cookies.get(SESSION_COOKIE)
    if session_token:

        async def work(tx: Tx) -> None:
            await sessions.end_session(tx, session_token)

        await db.transact(work)
    response = redirect(request, "/app/login")
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
    return response

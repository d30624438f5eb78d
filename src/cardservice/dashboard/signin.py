"""Signing in and out of the dashboard: paste a token, follow a one-time link, or ask for one
by mail (docs/mail.md#the-sign-in-link-by-mail)."""

from __future__ import annotations

from fastapi import BackgroundTasks, Request
from fastapi.responses import Response
from pydantic import ValidationError

from cardservice.auth import principal_for_token
from cardservice.auth.address import client_address
from cardservice.auth.dependencies import MAX_CREDENTIAL_LENGTH, count_failed_attempt
from cardservice.dashboard.api import Api, ApiError
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
from cardservice.mail.routes import SIGN_IN_ANSWER
from cardservice.mail.schemas import SignInRequest
from cardservice.users import sessions

router = Router(prefix="/app", include_in_schema=False)
SESSION_SECONDS = int(sessions.SESSION_LIFETIME.total_seconds())


def _login_page(
    request: Request,
    error: str | None,
    link: str = "",
    status: int = 200,
    **more: object,
) -> Response:
    context = {
        "title": "Sign in",
        "error": error,
        "link": link,
        "by_mail": bool(request.app.state.settings.smtp_url),  # a link can be mailed
        "email": "",
        "email_error": None,
        "mailed": None,
        **more,
    }
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


@router.post("/login/email")
async def login_by_mail(request: Request) -> Response:
    """Ask for a sign-in link by mail: the API's `POST /app/sign-in`, called after this page
    has answered (its lookup's time is never in this answer), which is the same for every
    address (202). An address that is not one is shown by the field (422)."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return _login_page(request, "The form expired; please try again.", status=403)
    email = form.get("email", "").strip()
    try:
        SignInRequest.model_validate({"email": email})
    except ValidationError:
        error = "Enter your email address, such as ada@example.com."
        return _login_page(request, None, status=422, email=email, email_error=error)
    address = client_address(request, request.app.state.settings.trusted_proxy_networks)
    page = _login_page(request, None, status=202, mailed=SIGN_IN_ANSWER)
    after = BackgroundTasks()
    after.add_task(_ask_for_link, request, address, email)
    page.background = after
    return page


async def _ask_for_link(request: Request, address: str, email: str) -> None:
    async with Api(request.app, None, address) as api:
        try:
            await api.send("POST", "/app/sign-in", {"email": email})
        except ApiError:  # a refusal (rate limit) is the API's to log; the page answered alike
            return


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

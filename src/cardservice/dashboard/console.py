"""The operator console's sign-in and what its pages share
(docs/operations.md#the-operator-console).

The dashboard's mechanism, for the operator: `cardservice operator console-link` prints a
one-time link; following it shows a one-click form whose POST spends the link and sets a
12-hour session cookie (HttpOnly, SameSite=Strict, scoped to /console), ended by signing out.
No key is typed into a page. A page reads through the operator's own read-back functions
and acts through the operator's own use cases (`console_pages`, `console_actions`): the same
rules, refusals and audit rows as the operator API, the console session as the actor.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from pydantic import ValidationError

from cardservice.dashboard.errors import error_page, sentence
from cardservice.dashboard.web import (
    CONSOLE_PATH,
    csrf_matches,
    read_form,
    redirect,
    render,
    set_cookie,
)
from cardservice.encoding import dumps
from cardservice.errors import ServiceError, ValidationFailed
from cardservice.http.database import Db
from cardservice.http.router import Router
from cardservice.operator import Acting, console_actor, session_of, sign_in, sign_out
from cardservice.users import SESSION_LIFETIME

router = Router(prefix=CONSOLE_PATH, include_in_schema=False)
CONSOLE_COOKIE = "cs_console"
SESSION_SECONDS = int(SESSION_LIFETIME.total_seconds())
MAX_SECRET = 128
EXPIRED_FORM = "The form expired; please reload the page and try again."
USED_LINK = (
    "That console link was already used or has expired. Ask for a new one with "
    "`cardservice operator console-link`."
)

Build = Callable[[], Awaitable[dict[str, Any]]]
Act = Callable[[Acting, dict[str, str]], Awaitable[Response]]


def as_api(value: Any) -> Any:
    """Records as the API writes them (times as text, amounts exact): what a page shows."""
    return json.loads(dumps(value), parse_float=Decimal)


async def session(request: Request) -> uuid.UUID | None:
    """The live console session of this browser's cookie, or None."""
    token = request.cookies.get(CONSOLE_COOKIE, "")
    if not 0 < len(token) <= MAX_SECRET:
        return None
    return await session_of(request.app.state.db.reader, token)


def to_sign_in(request: Request) -> Response:
    response = redirect(request, CONSOLE_PATH + "/login")
    response.delete_cookie(CONSOLE_COOKIE, path=CONSOLE_PATH)
    return response


def refused(request: Request, error: ServiceError) -> Response:
    """The console's error page with the refusal's own message, as a sentence, and status."""
    fields = [sentence(m) for messages in error.errors.values() for m in messages]
    return error_page(request, error.status_code, " ".join([sentence(error.message), *fields]))


async def show(request: Request, template: str, build: Build) -> Response:
    """Render `template` with what `build` reads, for a signed-in operator; else to sign in."""
    if await session(request) is None:
        return to_sign_in(request)
    try:
        context = await build()
    except ServiceError as error:
        return refused(request, error)
    return render(request, template, context)


async def act(request: Request, action: Act) -> Response:
    """Run a posted form's `action` as the console session, once its CSRF token matched; a
    refusal (nothing written: the action's unit rolled back), or a form its request model
    refuses, becomes the error page."""
    current = await session(request)
    if current is None:
        return to_sign_in(request)
    form = await read_form(request)
    if not csrf_matches(request, form):
        return error_page(request, 403, EXPIRED_FORM)
    try:
        return await action(console_actor(current, _request_id(request)), form)
    except ValidationError as error:  # the form against the operator API's request model
        return refused(request, _as_refusal(error))
    except ServiceError as error:
        return refused(request, error)


def _as_refusal(error: ValidationError) -> ValidationFailed:
    """A form that fails its request model, refused as the API refuses such a body (422)."""
    errors: dict[str, list[str]] = {}
    for item in error.errors():
        errors.setdefault(".".join(map(str, item["loc"])), []).append(item["msg"])
    return ValidationFailed(errors=errors)


def _request_id(request: Request) -> str | None:
    return getattr(request.state, "request_id", None)


def _login_page(request: Request, error: str | None, link: str = "", status: int = 200) -> Response:
    context = {"title": "Operator console", "error": error, "link": link}
    return render(request, "console/login.html", context, status_code=status)


@router.get("/login")
async def console_login_page(request: Request, link: str = "") -> Response:
    """With `?link=` from `cardservice operator console-link`, a one-click form (a GET never
    spends the link: a mail scanner opening it does not sign anyone in)."""
    return _login_page(request, None, link=link[:MAX_SECRET])


@router.post("/login")
async def console_login(request: Request, db: Db) -> Response:
    """Spend a one-time console link and start a 12-hour session."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return _login_page(request, EXPIRED_FORM, status=403)
    link, request_id = form.get("link", ""), _request_id(request)
    token = None
    if 0 < len(link) <= MAX_SECRET:
        token = await db.transact(lambda tx: sign_in(tx, link, request_id))
    if token is None:
        return _login_page(request, USED_LINK, status=401)
    response = redirect(request, CONSOLE_PATH)
    set_cookie(request, response, CONSOLE_COOKIE, token, SESSION_SECONDS)
    return response


@router.post("/logout")
async def console_logout(request: Request, db: Db) -> Response:
    """End the session and forget the cookie."""
    form = await read_form(request)
    if not csrf_matches(request, form):
        return error_page(request, 403, EXPIRED_FORM)
    token, request_id = request.cookies.get(CONSOLE_COOKIE, ""), _request_id(request)
    if 0 < len(token) <= MAX_SECRET:
        await db.transact(lambda tx: sign_out(tx, token, request_id))
    return to_sign_in(request)

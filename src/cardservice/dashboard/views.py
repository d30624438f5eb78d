"""How a dashboard page or form reaches the API as the signed-in user: a page is built from
reads; a form (CSRF-checked) is acted on through the API's own writes, so the rules and
their refusals are the API's, never a second copy."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import Request
from fastapi.responses import Response

from cardservice.auth.address import client_address
from cardservice.dashboard.api import Api, ApiError, SignedOut
from cardservice.dashboard.errors import error_page, sentence
from cardservice.dashboard.web import (
    COOKIE_PATH,
    SESSION_COOKIE,
    csrf_matches,
    finish,
    read_form,
    redirect,
    render,
)

Build = Callable[[Api], Awaitable[dict[str, Any]]]
Act = Callable[[Api, dict[str, str]], Awaitable[Response]]
Work = Callable[[Api], Awaitable[Response]]
ReadForm = Callable[[Request], Awaitable[dict[str, str]]]
EXPIRED_FORM = "The form expired; please reload the page and try again."


async def as_user(request: Request, work: Work) -> Response:
    """`work`'s response, done through the API as the signed-in user; without a session, or
    once it ended, to sign in; an API refusal `work` does not handle becomes the error page.
    The user's summary is read first (`request.state.summary`): the menus follow their role
    (`web.render`) and the overview shows it."""
    token = request.cookies.get(SESSION_COOKIE)
    if not token:
        return to_sign_in(request)
    try:
        address = client_address(request, request.app.state.settings.trusted_proxy_networks)
        async with Api(request.app, token, address) as api:
            request.state.summary = (await api.body("/user/summary"))["data"]
            return await work(api)
    except SignedOut:
        return to_sign_in(request)
    except ApiError as error:
        return refused(request, error)


async def show(request: Request, template: str, build: Build, status_code: int = 200) -> Response:
    """Render `template` with what `build` reads as the signed-in user, or send them to sign in."""

    async def draw(api: Api) -> Response:
        return render(request, template, await build(api), status_code=status_code)

    return await as_user(request, draw)


async def act(request: Request, action: Act, read: ReadForm = read_form) -> Response:
    """Run a posted form's `action` as the signed-in user, after its CSRF token matched.
    An API refusal the action does not show next to its fields becomes the error page.
    `read` reads the form: a small url-encoded one unless the page says otherwise."""
    if not request.cookies.get(SESSION_COOKIE):
        return to_sign_in(request)
    form = await read(request)
    if not csrf_matches(request, form):
        context = {"title": "The form expired", "message": EXPIRED_FORM}
        return render(request, "error.html", context, status_code=403)
    return await as_user(request, lambda api: action(api, form))


def refused(request: Request, error: ApiError) -> Response:
    """The error page with the API's own message (as a sentence) and status."""
    return error_page(request, error.status_code, sentence(str(error)))


def to_sign_in(request: Request) -> Response:
    """To the sign-in page; a polled fragment asks htmx to move the whole page there."""
    if request.headers.get("HX-Request") == "true":
        response = finish(request, Response(status_code=204, headers={"HX-Redirect": "/app/login"}))
    else:
        response = redirect(request, "/app/login")
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH)
    return response


def page_links(meta: dict[str, int]) -> dict[str, int | None]:
    """The current, last, previous and next page numbers of a list's `meta`."""
    page, last = meta["current_page"], meta["last_page"]
    return {
        "current": page,
        "last": last,
        "previous": page - 1 if page > 1 else None,
        "next": page + 1 if page < last else None,
    }


def field_errors(error: ApiError, default: str, within: str = "") -> dict[str, list[str]]:
    """The API's messages by form field: `within.daily.0` → `daily`; a message about the
    whole of `within`, or a refusal that names no field, goes to `default`."""
    by_field: dict[str, list[str]] = {}
    for key, messages in error.errors.items():
        parts = key.split(".")
        if within and parts[0] == within:
            parts = parts[1:]
        by_field.setdefault(parts[0] if parts else default, []).extend(map(sentence, messages))
    return by_field or {default: [str(error)]}

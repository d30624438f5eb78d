"""What every dashboard response shares: templates, the CSRF cookie, security headers."""

from __future__ import annotations

import secrets
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from cardservice.auth.address import client_scheme
from cardservice.http.router import read_limited

SESSION_COOKIE = "cs_session"
CSRF_COOKIE = "cs_csrf"
# What a file input offers: the types the API's sniffing accepts (attachments, receipts).
ACCEPT = "image/jpeg,image/png,image/webp,application/pdf,.jpg,.jpeg,.png,.webp,.pdf"
COOKIE_PATH = "/app"
CONSOLE_PATH = "/console"  # the operator console's pages and cookies (dashboard/console.py)
MAX_FORM_BYTES = 4096
# Nothing is loaded from outside the service; no inline script or style runs.
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}

STATIC_DIR = Path(__file__).with_name("static")
templates = Jinja2Templates(directory=Path(__file__).with_name("templates"))


def money(amount: Decimal | int | str, currency: str = "") -> str:
    """`1,234.50 EUR`: two decimals, thousands separated."""
    return f"{Decimal(amount):,.2f} {currency}".strip()


templates.env.filters["money"] = money


def csrf_token(request: Request) -> str:
    """The CSRF token of this browser (double-submit: cookie and form field must match)."""
    token = request.cookies.get(CSRF_COOKIE) or getattr(request.state, "new_csrf", None)
    if token is None:
        token = secrets.token_urlsafe(32)
        request.state.new_csrf = token
    return token


def csrf_matches(request: Request, form: dict[str, str]) -> bool:
    cookie = request.cookies.get(CSRF_COOKIE, "")
    return bool(cookie) and secrets.compare_digest(cookie, form.get("csrf_token", ""))


async def read_form(request: Request) -> dict[str, str]:
    """A small url-encoded form (first value of each field); 413 past 4 KiB."""
    raw = await read_limited(request, MAX_FORM_BYTES)
    fields = parse_qs(raw.decode("utf-8", "replace"), keep_blank_values=True)
    return {name: values[0] for name, values in fields.items()}


def over_https(request: Request) -> bool:
    """The browser reached us over https: `CARDSERVICE_PUBLIC_URL` is https, or the request
    itself (or a trusted proxy's `X-Forwarded-Proto`) says so."""
    settings = request.app.state.settings
    if settings.public_url.startswith("https://"):
        return True
    return client_scheme(request, settings.trusted_proxy_networks) == "https"


def in_console(request: Request) -> bool:
    """The request is the operator console's (`/console…`), not the cardholder's dashboard."""
    path = request.url.path
    return path == CONSOLE_PATH or path.startswith(CONSOLE_PATH + "/")


def cookie_path(request: Request) -> str:
    """The path a cookie of this page is scoped to: the console's, or the dashboard's."""
    return CONSOLE_PATH if in_console(request) else COOKIE_PATH


def set_cookie(request: Request, response: Response, name: str, value: str, max_age: int) -> None:
    """HttpOnly, SameSite=Strict, Secure when the browser came over https, scoped to /app
    (or /console, for the console's pages)."""
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=cookie_path(request),
        httponly=True,
        samesite="strict",
        secure=over_https(request),
    )


def finish(request: Request, response: Response) -> Response:
    """Security headers, and the CSRF cookie when this response minted the token."""
    response.headers.update(HEADERS)
    new = getattr(request.state, "new_csrf", None)
    if new is not None:
        set_cookie(request, response, CSRF_COOKIE, new, max_age=12 * 3600)
    return response


def render(
    request: Request, name: str, context: dict[str, Any], status_code: int = 200
) -> Response:
    """A template with the CSRF token and the current path in its context."""
    page: HTMLResponse = templates.TemplateResponse(
        request,
        name,
        {"csrf": csrf_token(request), "path": request.url.path, **context},
        status_code=status_code,
    )
    return finish(request, page)


def redirect(request: Request, to: str) -> Response:
    return finish(request, RedirectResponse(to, status_code=303))

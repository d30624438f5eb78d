"""What every dashboard response shares: templates, the CSRF cookie, security headers."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

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


MINUS = "\u2212"  # the minus sign, never a hyphen
SIGNS = {"debit": MINUS, "credit": "+"}


def money(amount: Decimal | int | float | str, currency: str = "", sign: str = "") -> str:
    """The dashboard's one way to write an amount: `1,234.50 EUR`, two decimals, thousands
    separated; a negative one with a minus sign (`−0.10 USD`), never `−0.00`. `sign` =
    `debit` or `credit` writes a movement: `−12.50 USD` or `+12.50 USD` (zero unsigned)."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"))
    text = f"{abs(value):,.2f} {currency}".strip()
    if value == 0:
        return text
    if value < 0:
        return MINUS + text
    return SIGNS.get(sign, "") + text


def when(stamp: object, with_time: bool = True) -> Markup:
    """The dashboard's one way to write an instant: `<time>` with the ISO value, the UTC text
    as its title (shown on hover) and as its content; static/local_time.js rewrites the
    content into the reader's local time (`2026-11-27 14:15`), the same form as the date
    filters take. None → an em dash."""
    if stamp is None or stamp == "":
        return Markup("—")
    moment = datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).astimezone(UTC)
    iso = moment.isoformat().replace("+00:00", "Z")
    if not with_time:  # a UTC day stays that day
        day = moment.strftime("%Y-%m-%d")
        return Markup('<time datetime="{}" title="UTC day">{}</time>').format(day, day)
    utc = moment.strftime("%Y-%m-%d %H:%M UTC")
    return Markup('<time datetime="{}" title="{}" data-local>{}</time>').format(iso, utc, utc)


def amount_input(text: str) -> Decimal | str:
    """An amount as typed, exact: what the dashboard prints is accepted back (`1,000.50`,
    `1 000.50`, `−12.50`, `12.50 USD`); anything else stays text, for the API to refuse
    with its own message by the field."""
    cleaned = text.strip().replace(MINUS, "-")
    cleaned = re.sub(r"\s*[A-Za-z]{3}$", "", cleaned)  # a currency code after it
    if re.fullmatch(r"-?\d{1,3}([, \u00a0\u202f]\d{3})+(\.\d+)?", cleaned):
        cleaned = re.sub(r"[, \u00a0\u202f]", "", cleaned)
    try:
        return Decimal(cleaned) if cleaned else text
    except InvalidOperation:
        return text


templates.env.filters["money"] = money
templates.env.filters["when"] = when


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


MENU = (
    ("/app", "Overview"),
    ("/app/cards", "Cards"),
    ("/app/transactions", "Transactions"),
    ("/app/accounts", "Accounts"),
    ("/app/topups", "Top up"),
    ("/app/statements", "Statements"),
    ("/app/attachments", "Attachments"),
    ("/app/team", "Team"),
    ("/app/webhooks", "Webhooks"),
)
OWNERS_AND_HOLDERS = ("/app/topups", "/app/webhooks")  # not a team member's jobs


def menu(role: str | None) -> list[tuple[str, str]]:
    """The main menu: a team member's leaves out what the team's owner does for them (top-ups,
    webhooks); the pages themselves stay the API's to allow or refuse."""
    if role == "member":
        return [item for item in MENU if item[0] not in OWNERS_AND_HOLDERS]
    return list(MENU)


def render(
    request: Request, name: str, context: dict[str, Any], status_code: int = 200
) -> Response:
    """A template with the CSRF token and the current path in its context."""
    summary = getattr(request.state, "summary", None)
    team = summary["user"]["team"] if summary else None
    shared = {
        "csrf": csrf_token(request),
        "path": request.url.path,
        "member": team is not None and team["role"] == "member",
        "menu": menu(team["role"] if team else None),
    }
    page: HTMLResponse = templates.TemplateResponse(
        request, name, {**shared, **context}, status_code=status_code
    )
    return finish(request, page)


def redirect(request: Request, to: str) -> Response:
    return finish(request, RedirectResponse(to, status_code=303))

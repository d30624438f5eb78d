"""What a person meets when something is missing or refused: HTML pages (404, 403, …) for
the dashboard's paths instead of the API's JSON, `/` → `/app` for a browser, and the API's
validation messages as sentences (never a regular expression)."""

from __future__ import annotations

import re

from fastapi import HTTPException, Request
from fastapi.responses import Response

from cardservice.dashboard.web import in_console, redirect, render
from cardservice.http.router import Router

router = Router(include_in_schema=False)
TITLES = {
    403: "Not allowed",
    404: "Page not found",
    405: "Not allowed",
    409: "Already done",
    413: "Too large",
    422: "Please check what you entered",
    429: "Too many requests",
}
MESSAGES = {
    403: "You are not allowed to see or change this.",
    404: "There is nothing here, or it is not yours to see. Check the address or go back.",
}
# Pydantic's messages, and the sentence a person reads instead.
SENTENCES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"^String should match pattern '\^\[A-Z\]\{2\}\$'"),
        "Use a two-letter country code, such as DE or FR.",
    ),
    (
        re.compile(r"^String should match pattern '\^\[A-Z\]\{3\}\$'"),
        "Use a three-letter currency code, such as USD.",
    ),
    (re.compile(r"^String should match pattern"), "This is not in the expected format."),
    (
        re.compile(r"^Input should be a valid (decimal|number|integer).*"),
        "Enter a number, such as 25 or 19.99.",
    ),
    (
        re.compile(r"^Decimal input should have no more than (\d+) decimal places?"),
        "Use at most {0} decimal places.",
    ),
    (re.compile(r"^Input should be greater than or equal to (\S+)"), "Enter {0} or more."),
    (re.compile(r"^Input should be greater than (\S+)"), "Enter more than {0}."),
    (re.compile(r"^Input should be less than or equal to (\S+)"), "Enter {0} or less."),
    (re.compile(r"^Input should be less than (\S+)"), "Enter less than {0}."),
    (re.compile(r"^String should have at most (\d+) characters?"), "Use at most {0} characters."),
    (
        re.compile(r"^String should have at least (\d+) characters?"),
        "Enter at least {0} characters.",
    ),
    (re.compile(r"^Field required"), "This is required."),
    (re.compile(r"^must be a number"), "Enter a number, such as 25 or 19.99."),
    (re.compile(r"^Input should be a valid UUID.*"), "Choose one from the list."),
    (re.compile(r"^Input should be (a valid )?(boolean|true or false).*"), "Choose yes or no."),
    (re.compile(r"^Input should be (.+)$"), "Choose one of: {0}."),
    (re.compile(r"^Extra inputs are not permitted"), "This field is not accepted here."),
    (
        re.compile(r"^Value error, amount and min_balance are required"),
        "Enter both amounts to turn automatic top-up on.",
    ),
    (
        re.compile(r"^Value error, auto_replenish_amount and auto_replenish_min_balance"),
        "Enter both amounts to turn automatic top-up on.",
    ),
    (re.compile(r"^Value error, (.)(.*)$"), "{0}{1}"),
)


def sentence(message: str) -> str:
    """The API's message as a person reads it: validation jargon rewritten, the rest as sent."""
    message = message.removeprefix("Value error, ")
    for pattern, text in SENTENCES:
        if found := pattern.match(message):
            return text.format(*(group.strip("'") for group in found.groups()))
    return message


def error_page(request: Request, status_code: int, message: str = "") -> Response:
    """An HTML error page with a title that says what happened."""
    title = TITLES.get(status_code, "Something went wrong")
    text = message or MESSAGES.get(status_code, "The request could not be completed.")
    template = "console/error.html" if in_console(request) else "error.html"
    return render(request, template, {"title": title, "message": text}, status_code=status_code)


def wants_page(request: Request) -> bool:
    """A dashboard or console path (not the dashboard's static files): a person's page."""
    path = request.url.path
    dashboard = path == "/app" or path.startswith("/app/")
    return (dashboard and not path.startswith("/app/static/")) or in_console(request)


@router.get("/")
async def root(request: Request) -> Response:
    """A browser opening the service lands on the dashboard; an API client gets the 404."""
    if "text/html" in request.headers.get("accept", ""):
        return redirect(request, "/app")
    raise HTTPException(status_code=404)

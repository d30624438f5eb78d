"""Showing a card's number, expiry and CVV2 to its holder
(docs/security.md#card-details-cvv2-and-issuer-keys).

Two steps: `GET /app/cards/{uuid}/details` asks for a fresh confirmation; its form posts
(CSRF-checked) to the same path, which mints a step-up MFA code with the signed-in session's
token (`POST /auth/mfa-code`) and spends it at once on `POST /card/{uuid}/reveal` — so every
rule of the reveal (own card, 10 an hour, closed card, audit row, event) is the API's.
The details are in that one answer's page only: never in a URL, `Cache-Control: no-store`
(every dashboard page), masked again after `SHOWN_SECONDS` by the page's script, and, without
script, the page moves back to the card then (a `<noscript>` refresh).

The dashboard has no second factor of its own (sign-in is a one-time link), so its step-up is
the deliberate confirmation plus a code used once; the API's step-up is unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Request
from fastapi.responses import Response

from cardservice.dashboard.api import Api
from cardservice.dashboard.views import act, show
from cardservice.dashboard.web import render
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
CardUuid = Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)]
SHOWN_SECONDS = 60


def grouped(pan: str) -> str:
    """`4242 4242 4242 4242`: as printed on a card, easier to read and type."""
    return " ".join(pan[i : i + 4] for i in range(0, len(pan), 4))


@router.get("/cards/{cardUuid}/details")
async def confirm_details(request: Request, card_uuid: CardUuid) -> Response:
    """The confirmation step before the details are shown."""

    async def build(api: Api) -> dict[str, Any]:
        card = (await api.body(f"/card/{card_uuid}"))["data"]
        return {"title": f"Card details of {card['mask']}", "card": card, "details": None}

    return await show(request, "card_details.html", build)


@router.post("/cards/{cardUuid}/details")
async def show_details(request: Request, card_uuid: CardUuid) -> Response:
    """Reveal through the API with a fresh step-up code; the details on this page alone."""

    async def action(api: Api, _form: dict[str, str]) -> Response:
        card = (await api.body(f"/card/{card_uuid}"))["data"]
        code = (await api.send("POST", "/auth/mfa-code"))["data"]["code"]
        details = (await api.send("POST", f"/card/{card_uuid}/reveal", {"mfa_code": code}))["data"]
        context = {
            "title": f"Card details of {card['mask']}",
            "card": card,
            "details": {**details, "pan_grouped": grouped(details["pan"])},
            "seconds": SHOWN_SECONDS,
        }
        return render(request, "card_details.html", context)

    return await act(request, action)

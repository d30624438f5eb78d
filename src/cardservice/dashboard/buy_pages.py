"""Buying cards from the dashboard: `POST /card/buy` of the API (docs/api.md#buying-cards) as the
signed-in user, from a form that lists the user's accounts and the available BINs. The
price, the rules and the refusals are the API's; refusals are shown by their fields."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any, get_args

from fastapi import Request
from fastapi.responses import Response

from cardservice.cards import CardType
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.views import act, field_errors, show
from cardservice.dashboard.web import redirect, render
from cardservice.http.router import Router

router = Router(prefix="/app", include_in_schema=False)
FIELDS = (
    "account_uuid",
    "bin_uuid",
    "cards_count",
    "start_balance",
    "card_type",
    "description",
    "auto_replenish_amount",
    "auto_replenish_min_balance",
)
TYPE_NAMES = {
    "multi_use": "Multi-use",
    "single_use": "Single-use (closes after one payment)",
    "merchant_locked": "Locked to the first merchant",
}
DEFAULTS = {"cards_count": "1", "start_balance": "0", "card_type": "multi_use"}


async def _context(
    api: Api, values: dict[str, str], errors: dict[str, list[str]]
) -> dict[str, Any]:
    accounts = (await api.body("/accounts", {"per_page": 100}))["data"]["items"]
    bins = (await api.body("/dictionary/bins"))["data"]
    fees = (await api.body("/dictionary/fees"))["data"]
    return {
        "title": "Buy cards",
        "accounts": [account for account in accounts if account["status"] == "active"],
        "bins": [b for b in bins if b["status"] == "available"],
        "fees": {fee["slug"]: fee for fee in fees},
        "types": [(slug, TYPE_NAMES.get(slug, slug)) for slug in get_args(CardType)],
        "values": {**DEFAULTS, **{k: v for k, v in values.items() if k in FIELDS}},
        "errors": errors,
    }


@router.get("/cards/new")
async def buy_form(request: Request) -> Response:
    """The form: account, BIN, how many, start balance, card type, auto-replenish."""

    async def build(api: Api) -> dict[str, Any]:
        return await _context(api, {}, {})

    return await show(request, "buy.html", build)


def typed_number(text: str) -> Decimal | int | str:
    """A typed number, exact; anything else is sent as typed for the API to refuse."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        return text
    return int(value) if value == value.to_integral_value() and "." not in text else value


def body_of(form: dict[str, str]) -> dict[str, Any]:
    """The `POST /card/buy` body of the form: empty optional fields are left out."""
    body: dict[str, Any] = {
        "account_uuid": form.get("account_uuid", ""),
        "bin_uuid": form.get("bin_uuid", ""),
        "card_type": form.get("card_type") or "multi_use",
    }
    for name in ("cards_count", "start_balance"):
        if text := form.get(name, "").strip():
            body[name] = typed_number(text)
    if description := form.get("description", "").strip():
        body["description"] = description
    if form.get("auto_replenish") == "on":
        for name in ("auto_replenish_amount", "auto_replenish_min_balance"):
            body[name] = typed_number(form.get(name, "").strip())
    return body


@router.post("/cards/new")
async def buy(request: Request) -> Response:
    """Buy the cards; then the first new card's page (or the list, for several)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        try:
            bought = (await api.send("POST", "/card/buy", body_of(form)))["data"]
        except ApiError as error:
            if error.status_code not in (404, 409, 422):
                raise
            errors = field_errors(error, "form")
            if error.status_code == 404:
                errors = {"form": ["That account or card range is not available to you."]}
            context = await _context(api, form, errors)
            context["values"]["auto_replenish"] = form.get("auto_replenish", "")
            return render(request, "buy.html", context, status_code=422)
        cards = bought["cards"]
        if len(cards) == 1:
            return redirect(request, f"/app/cards/{cards[0]['uuid']}?done=bought")
        return redirect(request, "/app/cards?done=bought")

    return await act(request, action)

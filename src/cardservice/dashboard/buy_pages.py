"""Buying cards from the dashboard: `POST /card/buy` of the API (docs/api.md#buying-cards) as the
signed-in user, from a form that lists the user's accounts and the available BINs. The
price, the rules and the refusals are the API's; refusals are shown by their fields."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any, get_args

from fastapi import Request
from fastapi.responses import Response

from cardservice.cards import CardType
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.views import act, field_errors, show
from cardservice.dashboard.web import amount_input, redirect, render
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
    accounts = [
        account
        for account in (await api.body("/accounts", {"per_page": 100}))["data"]["items"]
        if account["status"] == "active"
    ]
    bins = [b for b in (await api.body("/dictionary/bins"))["data"] if b["status"] == "available"]
    fees = {fee["slug"]: fee for fee in (await api.body("/dictionary/fees"))["data"]}
    chosen = {**DEFAULTS, **{k: v for k, v in values.items() if k in FIELDS}}
    account = next((a for a in accounts if str(a["uuid"]) == chosen.get("account_uuid")), None)
    account = account or (accounts[0] if accounts else None)
    currency = account["currency"] if account else ""
    if account is not None and not any(
        str(b["uuid"]) == chosen.get("bin_uuid") and b["currency"] == currency for b in bins
    ):  # a range in the account's currency, never one the purchase would refuse
        chosen["bin_uuid"] = next((str(b["uuid"]) for b in bins if b["currency"] == currency), "")
    return {
        "title": "Buy cards",
        "accounts": accounts,
        "currency": currency,
        "bins": bins,
        "fees": fees,
        "issue_fee": _fee(fees, "card_issue"),
        "topup_percent": _fee(fees, "card_topup"),
        "price": price_of(chosen, fees, _card_price(bins, chosen.get("bin_uuid"))),
        "types": [(slug, TYPE_NAMES.get(slug, slug)) for slug in get_args(CardType)],
        "values": chosen,
        "errors": errors,
    }


def _fee(fees: dict[str, Any], slug: str) -> Decimal:
    return Decimal(str(fees[slug]["amount"])) if slug in fees else Decimal(0)


def _card_price(bins: list[dict[str, Any]], chosen: str | None) -> Decimal | None:
    """The chosen range's own price for a card, when the operator gave it one."""
    for b in bins:
        if str(b["uuid"]) == chosen and b.get("card_price") is not None:
            return Decimal(str(b["card_price"]))
    return None


def price_of(
    values: dict[str, str], fees: dict[str, Any], card_price: Decimal | None = None
) -> dict[str, Decimal] | None:
    """What the form's cards cost, as `cards/purchase.py` prices them: per card the issue
    fee (or the range's own `card_price`), the start balance and the top-up fee's percent of
    it (half-up to the cent), times the count; None while the count or balance is not a
    number the purchase takes."""
    count, start = (
        typed_number(values.get("cards_count", "")),
        amount_input(values.get("start_balance", "") or "0"),
    )
    if not isinstance(count, int) or not isinstance(start, Decimal) or count < 1 or start < 0:
        return None
    topup = (start * _fee(fees, "card_topup") / 100).quantize(Decimal("0.01"), ROUND_HALF_UP)
    issue = _fee(fees, "card_issue") if card_price is None else card_price
    each = issue + start + topup
    return {"each": each, "fees": issue + topup, "total": each * count}


@router.get("/cards/new")
async def buy_form(request: Request) -> Response:
    """The form: account, BIN, how many, start balance, card type, auto-replenish."""

    async def build(api: Api) -> dict[str, Any]:
        return await _context(api, {}, {})

    return await show(request, "buy.html", build)


def typed_number(text: str) -> Decimal | int | str:
    """A typed number, exact (`web.amount_input`: `1,000.50` too); a whole one without a
    point as an integer (a count); anything else as typed for the API to refuse."""
    value = amount_input(text)
    if isinstance(value, Decimal) and value == value.to_integral_value() and "." not in text:
        return int(value)
    return value


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
            return redirect(request, f"/app/cards/{cards[0]['uuid']}?done=bought#notice")
        return redirect(request, "/app/cards?done=bought#notice")

    return await act(request, action)

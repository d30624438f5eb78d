"""The "Top up" pages: fund one of the signed-in user's accounts by a payment method of the
seed (docs/operations.md#running-a-program top-ups), through `POST /topups` and `GET /topups` of the
API, so the fee, the conversion, the limits and the refusals are the API's own.

The form offers the seed's payment methods (names from the catalogue, which no endpoint
lists) with the currencies `/payment/currencies/{method}` gives for each, their limits and
fees, keeping only the currencies the rate table (`/dictionary/fx-rates`) can convert to one
of the user's active accounts; the page shows those rates. Asking gives the top-up's page:
the reference to quote, what to pay, the fee, the rate, what the account gets and until when.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.catalogue import load_catalogue
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.buy_pages import typed_number
from cardservice.dashboard.errors import sentence
from cardservice.dashboard.pages import PageNumber
from cardservice.dashboard.views import act, field_errors, page_links, show
from cardservice.dashboard.web import redirect, render
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
TopupUuid = Annotated[str, Path(alias="topupUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
STATUS_NAMES = {
    "awaiting_payment": "Awaiting payment",
    "completed": "Completed",
    "cancelled": "Cancelled",
    "expired": "Expired",
}
PER_PAGE = 20


def _rates(rows: list[dict[str, Any]]) -> dict[tuple[str, str], Decimal]:
    return {(row["base"], row["quote"]): Decimal(row["rate"]) for row in rows}


async def _choices(api: Api, currencies: set[str]) -> tuple[list[dict[str, Any]], list[Any]]:
    """Each payment method with the currencies that can reach one of `currencies` (the
    accounts'): the same code, or a pair of the rate table; and the rates that apply."""
    rates = _rates((await api.body("/dictionary/fx-rates"))["data"])
    methods: list[dict[str, Any]] = []
    used: set[tuple[str, str]] = set()
    for method in load_catalogue()["payment_methods"]:
        offered, seen = [], set()
        for currency in (await api.body(f"/payment/currencies/{method['slug']}"))["data"]:
            code = currency["code"]
            reachable = code in currencies or any((code, q) in rates for q in currencies)
            if code in seen or not reachable:  # the API takes a code's first terms
                continue
            seen.add(code)
            offered.append(currency)
            used.update((code, q) for q in currencies if (code, q) in rates)
        if offered:
            methods.append({"slug": method["slug"], "name": method["name"], "currencies": offered})
    shown = [(base, quote, rates[base, quote]) for base, quote in sorted(used)]
    return methods, shown


async def _context(
    api: Api, values: dict[str, str], errors: dict[str, list[str]], page: int = 1
) -> dict[str, Any]:
    accounts = [
        account
        for account in (await api.body("/accounts", {"per_page": 100}))["data"]["items"]
        if account["status"] == "active"
    ]
    methods, rates = await _choices(api, {account["currency"] for account in accounts})
    listed = await api.body("/topups", {"page": page, "per_page": PER_PAGE})
    names = {account["uuid"]: account["name"] for account in accounts}
    return {
        "title": "Top up",
        "accounts": accounts,
        "methods": methods,
        "rates": rates,
        "values": values,
        "errors": errors,
        "topups": [{**t, "account_name": names.get(t["account_uuid"], "")} for t in listed["data"]],
        "total": listed["meta"]["total"],
        "pages": page_links(listed["meta"]),
        "status_names": STATUS_NAMES,
    }


@router.get("/topups")
async def topups(request: Request, page: PageNumber = 1) -> Response:
    """The form to ask for a top-up, and the user's top-ups, newest first."""

    async def build(api: Api) -> dict[str, Any]:
        return await _context(api, {}, {}, page)

    return await show(request, "topups.html", build)


def body_of(form: dict[str, str]) -> dict[str, Any]:
    """The `POST /topups` body of the form: `payment` is `method:currency`."""
    method, _colon, currency = form.get("payment", "").partition(":")
    return {
        "account_uuid": form.get("account_uuid", ""),
        "method": method,
        "currency": currency,
        "amount": typed_number(form.get("amount", "").strip()),
    }


# The top-up service's own messages (topups/service.py), as a person reads them.
def _said(message: str) -> str:
    if message.startswith("must be within "):
        low, _dots, high = message.removeprefix("must be within ").partition("..")
        return f"Enter an amount from {Decimal(low):,.2f} to {Decimal(high):,.2f}."
    if message.startswith(("not a payment method", "not a currency of")):
        return "Choose a way to pay from the list."
    return sentence(message)


@router.post("/topups")
async def ask(request: Request) -> Response:
    """Ask for the top-up; then its page with the reference and what to pay."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        try:
            topup = (await api.send("POST", "/topups", body_of(form)))["data"]
        except ApiError as error:
            if error.status_code not in (404, 422):
                raise
            errors: dict[str, list[str]] = {}
            for name, messages in field_errors(error, "form").items():
                target = "payment" if name in ("method", "currency") else name
                errors.setdefault(target, []).extend(_said(m) for m in messages)
            if error.status_code == 404:
                errors = {"account_uuid": ["That account is not available to you."]}
            elif error.code in ("currency_not_supported", "account_inactive"):
                errors = {"payment": [str(error)]}
            context = await _context(api, form, errors)
            return render(request, "topups.html", context, status_code=422)
        return redirect(request, f"/app/topups/{topup['uuid']}?done=asked#notice")

    return await act(request, action)


@router.get("/topups/{topupUuid}")
async def topup(request: Request, topup_uuid: TopupUuid, done: Done = "") -> Response:
    """One top-up: the reference and instructions while it awaits payment, else its outcome."""

    async def build(api: Api) -> dict[str, Any]:
        found = (await api.body(f"/topups/{topup_uuid}"))["data"]
        methods = {m["slug"]: m["name"] for m in load_catalogue()["payment_methods"]}
        return {
            "title": f"Top-up {found['reference']}",
            "topup": found,
            "method_name": methods.get(found["method"], found["method"]),
            "status_names": STATUS_NAMES,
            "asked": done == "asked",
        }

    return await show(request, "topup.html", build)

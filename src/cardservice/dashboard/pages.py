"""The dashboard's pages: overview, accounts, transactions (each purchase disputable, and
the disputes), and receipts to download (cards: `card_pages`, webhooks: `webhook_pages`).

Each page reads the API as the signed-in user (`dashboard.api`); nothing here touches a table.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, get_args
from urllib.parse import urlencode

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.dashboard import transaction_pages
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.charts import amount_ticks, bars, date_ticks, spend_per_day
from cardservice.dashboard.views import act, as_user, field_errors

# Shared with the card and webhook pages (`views`), under the names these handlers use.
from cardservice.dashboard.views import page_links as _pages
from cardservice.dashboard.views import show as _page
from cardservice.dashboard.web import money, redirect, render
from cardservice.disputes.schemas import DisputeReason
from cardservice.http.router import Router
from cardservice.transactions import TransactionStatus, TransactionType
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
CHART_PAGES = 20  # at most 2,000 purchases drawn in the 30-day chart
FILTERS = ("search", "status", "type", "card_uuid", "date_from", "date_to")
PageNumber = Annotated[int, Query(ge=1, le=1_000_000)]
TransactionUuid = Annotated[str, Query(pattern=UUID_PATTERN)]
REASONS = get_args(DisputeReason)
UUID_RE = re.compile(UUID_PATTERN)


def _chosen(request: Request) -> dict[str, str]:
    """The transaction filters picked in the form, by name (empty when not picked)."""
    return {name: request.query_params.get(name, "") for name in FILTERS}


@router.get("")
async def overview(request: Request) -> Response:
    """Balances per currency, cards count, spend per day (30 days), waiting 3DS codes."""

    async def build(api: Api) -> dict[str, Any]:
        summary = (await api.body("/user/summary"))["data"]
        today = datetime.now(UTC).date()
        since = (today - timedelta(days=29)).isoformat()
        params = {"filters[type]": "card_purchase", "filters[date_from]": since}
        purchases = await api.every_page("/transaction/report", params, CHART_PAGES)
        charts = []
        for spend in summary["spend"]:
            totals = spend_per_day(purchases, spend["currency"], today)
            charts.append(
                {
                    "currency": spend["currency"],
                    "bars": bars(totals),
                    "total": sum(totals.values()),
                    "amount_ticks": amount_ticks(totals),
                    "date_ticks": date_ticks(totals),
                }
            )
        codes = (await api.body("/user/3ds-unassigned"))["data"]
        return {"title": "Overview", "summary": summary, "charts": charts, "codes": codes}

    return await _page(request, "overview.html", build)


@router.get("/three-ds")
async def three_ds_codes(request: Request) -> Response:
    """The waiting 3DS codes alone: the overview polls this fragment."""

    async def build(api: Api) -> dict[str, Any]:
        return {"codes": (await api.body("/user/3ds-unassigned"))["data"]}

    return await _page(request, "_three_ds.html", build)


@router.get("/accounts")
async def accounts(request: Request, page: PageNumber = 1) -> Response:
    """The user's accounts; a team owner also sees the members' accounts, read-only."""

    async def build(api: Api) -> dict[str, Any]:
        body = await api.body("/accounts", {"page": page, "per_page": 20})
        balances: defaultdict[str, Decimal] = defaultdict(Decimal)
        for account in body["data"]["items"]:
            balances[account["currency"]] += account["balance"]
        return {
            "title": "Accounts",
            "accounts": body["data"]["items"],
            "team_accounts": body["data"]["related_team_accounts"],
            "pages": _pages(body["meta"]),
            "total": body["meta"]["total"],
        }

    return await _page(request, "accounts.html", build)


@router.get("/transactions")
async def transactions(request: Request, page: PageNumber = 1) -> Response:
    """The user's transactions, newest first, filtered as the report allows, with receipts."""
    chosen = _chosen(request)

    async def build(api: Api) -> dict[str, Any]:
        params: dict[str, str | int] = {"page": page, "per_page": 20}
        params.update({f"filters[{k}]": v for k, v in chosen.items() if v})
        body = await api.body("/transaction/report", params)
        card_list = await api.body("/card", {"per_page": 500})
        masks = {str(card["uuid"]): card["mask"] for card in card_list["data"]["cards"]}
        return {
            "title": "Transactions",
            "transactions": transaction_pages.row_context(body["data"], masks),
            "reasons": await transaction_pages.decline_reasons(api),
            "disputed": await transaction_pages.disputed(api),
            "type_names": transaction_pages.TYPE_NAMES,
            "status_names": transaction_pages.STATUS_NAMES,
            "pages": _pages(body["meta"]),
            "total": body["meta"]["total"],
            "chosen": chosen,
            "query": urlencode({k: v for k, v in chosen.items() if v}),
            "statuses": get_args(TransactionStatus),
            "types": get_args(TransactionType),
            "cards": card_list["data"]["cards"],
        }

    return await _page(request, "transactions.html", build)


@router.get("/transactions.csv")
async def transactions_csv(request: Request) -> Response:
    """The filtered transactions as the API's CSV export, downloaded."""
    params = {f"filters[{k}]": v for k, v in _chosen(request).items() if v}
    return await _download(request, "/transaction/report.csv", params, "transactions.csv")


@router.get("/disputes")
async def disputes(request: Request, page: PageNumber = 1) -> Response:
    """The user's disputes, newest first, with their status and outcome."""

    async def build(api: Api) -> dict[str, Any]:
        body = await api.body("/disputes", {"page": page, "per_page": 20})
        return {
            "title": "Disputes",
            "disputes": body["data"],
            "pages": _pages(body["meta"]),
            "total": body["meta"]["total"],
        }

    return await _page(request, "disputes.html", build)


async def _dispute_context(api: Api, transaction: str) -> dict[str, Any]:
    record = (await api.body(f"/transaction/{transaction}"))["data"]
    dispute = (await transaction_pages.disputed(api)).get(str(record["uuid"]))
    return {
        "title": "Dispute a payment",
        "transaction": record,
        "disputable": transaction_pages.disputable(record),
        "dispute": dispute,
        "reasons": REASONS,
        "values": {
            "amount": str(transaction_pages.disputable(record)),
            "reason": "",
            "explanation": "",
        },
        "errors": {},
    }


@router.get("/disputes/new")
async def dispute_form(request: Request, transaction: TransactionUuid) -> Response:
    """The form that disputes one of the user's transactions (`POST /disputes`), with what
    is still disputable (captured less refunded) as its amount."""

    async def build(api: Api) -> dict[str, Any]:
        return await _dispute_context(api, transaction)

    return await _page(request, "dispute_form.html", build)


@router.post("/disputes")
async def open_dispute(request: Request) -> Response:
    """Open the dispute the form describes, as the signed-in user; then the list of disputes.
    A refusal (already disputed, an amount too high, …) is shown on the form by its field."""

    async def send(api: Api, form: dict[str, str]) -> Response:
        body: dict[str, Any] = {name: form.get(name, "") for name in ("transaction_uuid", "reason")}
        if explanation := form.get("explanation", "").strip():
            body["explanation"] = explanation
        if amount := form.get("amount", "").strip():
            body["amount"] = _decimal_or_text(amount)
        try:
            await api.send("POST", "/disputes", body)
        except ApiError as error:
            if error.status_code not in (409, 422) or not UUID_RE.match(body["transaction_uuid"]):
                raise
            context = await _dispute_context(api, body["transaction_uuid"])
            errors = field_errors(error, "form")
            if any("minor units" in message for message in errors.get("amount", ())):
                left = money(context["disputable"], context["transaction"]["currency"])
                errors["amount"] = [f"At most {left} can still be disputed."]
            context.update(values=form, errors=errors)
            return render(request, "dispute_form.html", context, status_code=error.status_code)
        return redirect(request, "/app/disputes")

    return await act(request, send)


def _decimal_or_text(text: str) -> Decimal | str:
    """A typed amount, exact; anything else sent as typed for the API to refuse."""
    try:
        return Decimal(text)
    except InvalidOperation:
        return text


@router.get("/receipt/{transactionUuid}")
async def receipt(
    request: Request,
    transaction_uuid: Annotated[str, Path(alias="transactionUuid", pattern=UUID_PATTERN)],
) -> Response:
    """The receipt picture of one of the user's transactions, as a download."""
    path = f"/transaction/jpg/{transaction_uuid}"
    return await _download(request, path, {}, f"receipt-{transaction_uuid}.jpg")


async def _download(request: Request, path: str, params: dict[str, str], filename: str) -> Response:
    """An API response handed to the browser as a file, read as the signed-in user."""

    async def fetch(api: Api) -> Response:
        answer = await api.response(path, params)
        headers = {"Content-Disposition": f'attachment; filename="{filename}"'}
        return Response(answer.content, media_type=answer.headers["content-type"], headers=headers)

    return await as_user(request, fetch)

"""The dashboard's pages: overview, accounts, transactions (each purchase disputable, and
the disputes), and receipts to download (cards: `card_pages`, webhooks: `webhook_pages`).

Each page reads the API as the signed-in user (`dashboard.api`); nothing here touches a table.
"""

from __future__ import annotations

import re
from collections import defaultdict
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Annotated, Any, get_args
from urllib.parse import urlencode

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.dashboard import transaction_pages
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.card_spend import budget_meter
from cardservice.dashboard.charts import amount_ticks, bars, date_ticks, spend_per_day
from cardservice.dashboard.errors import sentence
from cardservice.dashboard.uploads import upload_form
from cardservice.dashboard.views import act, as_user, field_errors

# Shared with the card and webhook pages (`views`), under the names these handlers use.
from cardservice.dashboard.views import page_links as _pages
from cardservice.dashboard.views import show as _page
from cardservice.dashboard.web import ACCEPT, amount_input, money, redirect, render
from cardservice.disputes import DisputeReason
from cardservice.http.router import Router
from cardservice.transactions import TransactionStatus, TransactionType
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
CHART_PAGES = 20  # at most 2,000 purchases drawn in the 30-day chart
FILTERS = ("search", "status", "type", "card_uuid", "date_from", "date_to")
FILTER_NAMES = {f"filters[{name}]": name.replace("_", " ").capitalize() for name in FILTERS}
FILTER_HELP = "Write dates as YYYY-MM-DD, such as 2026-11-27."
PageNumber = Annotated[int, Query(ge=1, le=1_000_000)]
TransactionUuid = Annotated[str, Query(pattern=UUID_PATTERN)]
REASONS = get_args(DisputeReason)
UUID_RE = re.compile(UUID_PATTERN)


def _chosen(request: Request) -> dict[str, str]:
    """The transaction filters picked in the form, by name (empty when not picked)."""
    return {name: request.query_params.get(name, "") for name in FILTERS}


@router.get("")
async def overview(request: Request) -> Response:
    """Balances per currency, cards count, this month's spend by merchant and card (and by
    member for a team owner; a member's budget), the latest activity, spend per day (30
    days), waiting 3DS codes."""

    async def build(api: Api) -> dict[str, Any]:
        summary = request.state.summary
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
        recent = await api.body("/transaction/report", {"per_page": 5})
        return {
            "title": "Overview",
            "summary": summary,
            "charts": charts,
            "codes": codes,
            "spend_groups": await spend_in_view(request, api, today),
            "month_name": today.strftime("%B %Y"),
            "recent": transaction_pages.row_context(recent["data"], {}),
            "budget": await _own_budget(request, api),
        }

    return await _page(request, "overview.html", build)


SPEND_ROWS = 8  # the top merchants (cards, members) the overview shows


async def spend_in_view(request: Request, api: Api, today: date) -> list[dict[str, Any]]:
    """This month's spend by merchant and by card (and by member for a team owner) from
    `GET /user/spend` (docs/transactions.md#spend-in-view): each row with its bar's length
    (of the group's largest, per currency) and the link to the purchases behind it — the
    transactions list filtered to them (a teammate's card and a member's purchases are the
    owner's to see here, not in their own list: no link)."""
    first = today.replace(day=1).isoformat()
    team = request.state.summary["user"]["team"]
    groups = ["merchant", "card"] + (["member"] if team and team["role"] == "owner" else [])
    cards = (await api.body("/card", {"per_page": 500}))["data"]["cards"]
    own_cards = {str(c["uuid"]): c for c in cards}
    found = []
    for group in groups:
        query: dict[str, str | int] = {"group_by": group, "from": first, "limit": SPEND_ROWS}
        rows = (await api.body("/user/spend", query))["data"]
        peak: dict[str, Decimal] = {}
        for row in rows:
            peak[row["currency"]] = max(
                peak.get(row["currency"], Decimal(0)), Decimal(row["amount"])
            )
        for row in rows:
            top = peak[row["currency"]] or Decimal(1)
            row["percent"] = int(Decimal(row["amount"]) * 100 / top)
            row["href"] = _spend_link(group, row, first, set(own_cards))
            if group == "card" and (card := own_cards.get(row["key"])) and card["description"]:
                row["name"] = f"•• {card['last4']} {card['description']}"
        found.append({"group": group, "rows": rows})
    return found


def _spend_link(group: str, row: dict[str, Any], first: str, own_cards: set[str]) -> str | None:
    base = {"type": "card_purchase", "date_from": first}
    if group == "merchant" and row["key"]:
        return "/app/transactions?" + urlencode({**base, "search": row["key"][:64]})
    if group == "card" and row["key"] in own_cards:
        return "/app/transactions?" + urlencode({**base, "card_uuid": row["key"]})
    return None


async def _own_budget(request: Request, api: Api) -> dict[str, Any] | None:
    """A team member's budget this month (`GET /team/budgets`), None for anybody else."""
    team = request.state.summary["user"]["team"]
    if team is None or team["role"] != "member":
        return None
    budgets = (await api.body("/team/budgets"))["data"]
    return budget_meter(budgets[0]) if budgets else None


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
        errors: list[str] = []
        try:
            body = await api.body("/transaction/report", params)
        except ApiError as error:  # a filter the report refuses: said above the form
            if error.status_code != 422:
                raise
            errors = [
                f"{FILTER_NAMES.get(key, key)}: {sentence(message).rstrip('.')}."
                for key, messages in error.errors.items()
                for message in messages
            ]
            errors = [FILTER_HELP, *errors] if any("date" in m for m in errors) else errors
            body = {"data": [], "meta": {"current_page": 1, "last_page": 1, "total": 0}}
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
            "totals": body["meta"].get("totals"),
            "filter_errors": errors,
            "chosen": chosen,
            "query": urlencode({k: v for k, v in chosen.items() if v}),
            "statuses": get_args(TransactionStatus),
            "types": get_args(TransactionType),
            "cards": card_list["data"]["cards"],
        }

    async def draw(api: Api) -> Response:
        context = await build(api)
        return render(
            request, "transactions.html", context, 422 if context["filter_errors"] else 200
        )

    return await as_user(request, draw)


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
            "evidence_uuid": "",
        },
        "accept": ACCEPT,
        "errors": {},
    }


@router.get("/disputes/new")
async def dispute_form(request: Request, transaction: TransactionUuid) -> Response:
    """The form that disputes one of the user's transactions (`POST /disputes`), with what
    is still disputable (captured less refunded) as its amount."""

    async def build(api: Api) -> dict[str, Any]:
        return await _dispute_context(api, transaction)

    return await _page(request, "dispute_form.html", build)


DISPUTE_FIELDS = (
    "csrf_token", "transaction_uuid", "reason", "explanation", "amount", "evidence", "evidence_uuid"
)  # fmt: skip
read_dispute = upload_form(DISPUTE_FIELDS)
EVIDENCE_TYPE = "document"  # what `POST /attachment` files a dispute's evidence as


async def _evidence(api: Api, form: dict[str, str]) -> str:
    """The uuid of the evidence to send: the file chosen, uploaded now (`POST /attachment`,
    type `document`), or the one uploaded by an earlier try of this form; empty: none."""
    if form.get("evidence"):
        body = {"type": EVIDENCE_TYPE, "file": form["evidence"]}
        return str((await api.send("POST", "/attachment", body))["data"]["uuid"])
    kept = form.get("evidence_uuid", "")
    return kept if UUID_RE.fullmatch(kept) else ""


@router.post("/disputes")
async def open_dispute(request: Request) -> Response:
    """Open the dispute the form describes, as the signed-in user, with the evidence file if
    one was chosen (uploaded first); then the list of disputes. A refusal (already disputed,
    an amount too high, a file the API refuses, …) is shown on the form by its field; an
    uploaded file is kept for the next try (uploads cannot be deleted)."""

    async def send(api: Api, form: dict[str, str]) -> Response:
        body: dict[str, Any] = {name: form.get(name, "") for name in ("transaction_uuid", "reason")}
        if explanation := form.get("explanation", "").strip():
            body["explanation"] = explanation
        if amount := form.get("amount", "").strip():
            body["amount"] = amount_input(amount)
        evidence, step = "", "evidence"  # a refusal of the upload is the evidence field's
        try:
            evidence = await _evidence(api, form)
            if evidence:
                body["evidence_attachment_uuids"] = [evidence]
            step = "form"
            await api.send("POST", "/disputes", body)
        except ApiError as error:
            if error.status_code not in (409, 413, 422) or not UUID_RE.match(
                body["transaction_uuid"]
            ):
                raise
            context = await _dispute_context(api, body["transaction_uuid"])
            errors = field_errors(error, step)
            if step == "evidence":
                errors = {"evidence": [m for messages in errors.values() for m in messages]}
            if any("minor units" in message for message in errors.get("amount", ())):
                left = money(context["disputable"], context["transaction"]["currency"])
                errors["amount"] = [f"At most {left} can still be disputed."]
            values = {**form, "evidence": "", "evidence_uuid": evidence}
            context.update(values=values, errors=errors)
            return render(request, "dispute_form.html", context, status_code=error.status_code)
        return redirect(request, "/app/disputes")

    return await act(request, send, read=read_dispute)


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

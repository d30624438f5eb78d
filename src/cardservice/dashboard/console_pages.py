"""The operator console's pages (docs/operations.md#the-operator-console): the program read
back — users, accounts, cards, transactions, disputes, clearing files, the audit log, the
BINs and the FX rates set — each through the function the operator API's own route calls,
with the same filters (`filters[…]` in the query, as the API reads them), so the console
never shows what the API would not, nor reads it another way."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import Query, Request
from fastapi.responses import Response

from cardservice.accounts import every_account
from cardservice.audit import AuditFilters, audit_record, page_of_audit
from cardservice.cards import every_card
from cardservice.catalogue import list_fx_rates
from cardservice.clearing.service import clearing_files
from cardservice.dashboard.console import as_api, show
from cardservice.dashboard.views import page_links
from cardservice.dashboard.web import CONSOLE_PATH
from cardservice.db.paging import Page
from cardservice.dictionaries import bins
from cardservice.disputes import every_dispute
from cardservice.disputes.routes import DISPUTE_FILTERS
from cardservice.http.filters import Filter, read_filters
from cardservice.http.router import Router
from cardservice.operator import list_users
from cardservice.operator.audit_routes import AUDIT_FILTERS
from cardservice.operator.readback_routes import ACCOUNT_FILTERS, CARD_FILTERS, TRANSACTION_FILTERS
from cardservice.operator.routes import USER_FILTERS
from cardservice.transactions import report

router = Router(prefix=CONSOLE_PATH, include_in_schema=False)
PER_PAGE = 20
PageNumber = Annotated[int, Query(ge=1, le=1_000_000)]


def _filters(request: Request, spec: Mapping[str, Filter]) -> dict[str, Any]:
    """The page's filters as the API reads them (a field left at "any" is not a filter)."""
    return read_filters(request, dict(spec), skip_empty=True)


def _listing(
    request: Request, title: str, rows: list[Any], total: int, page: Page
) -> dict[str, Any]:
    """What every list page shows: its rows, count, page links and the chosen filters."""
    chosen = {
        key[len("filters[") : -1]: value
        for key, value in request.query_params.items()
        if key.startswith("filters[") and key.endswith("]") and value
    }
    query = urlencode({f"filters[{key}]": value for key, value in chosen.items()})
    pages = page_links(page.meta(total))
    return {"title": title, "rows": as_api(rows), "total": total, "pages": pages, "query": query,
            "chosen": chosen}  # fmt: skip


@router.get("")
async def console_overview(request: Request) -> Response:
    """How many users, accounts and cards the program has, and where to look next."""
    reader, one = request.app.state.db.reader, Page(number=1, size=1)

    async def build() -> dict[str, Any]:
        counts = {
            "users": (await list_users(reader, {}, one))[1],
            "accounts": (await every_account(reader, {}, one))[1],
            "cards": (await every_card(reader, {}, one))[1],
        }
        return {"title": "Program", "counts": counts}

    return await show(request, "console/overview.html", build)


@router.get("/users")
async def console_users(request: Request, page: PageNumber = 1) -> Response:
    """Every user, oldest first (`GET /operator/users`'s filters: email, status)."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        rows, total = await list_users(reader, _filters(request, USER_FILTERS), at)
        return _listing(request, "Users", rows, total, at)

    return await show(request, "console/users.html", build)


@router.get("/accounts")
async def console_accounts(request: Request, page: PageNumber = 1) -> Response:
    """Every account, oldest first (`GET /operator/accounts`'s filters)."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        rows, total = await every_account(reader, _filters(request, ACCOUNT_FILTERS), at)
        return _listing(request, "Accounts", rows, total, at)

    return await show(request, "console/accounts.html", build)


@router.get("/cards")
async def console_cards(request: Request, page: PageNumber = 1) -> Response:
    """Every card, oldest first (`GET /operator/cards`'s filters: the last four digits,
    status, user, program); each with its actions."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        rows, total = await every_card(reader, _filters(request, CARD_FILTERS), at)
        return _listing(request, "Cards", rows, total, at)

    return await show(request, "console/cards.html", build)


@router.get("/transactions")
async def console_transactions(request: Request, page: PageNumber = 1) -> Response:
    """Every transaction, newest first (`GET /operator/transactions`'s filters)."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        filters = _filters(request, TRANSACTION_FILTERS)
        rows, total = await report(reader, None, filters, at.offset, at.size)
        return _listing(request, "Transactions", rows, total, at)

    return await show(request, "console/transactions.html", build)


@router.get("/disputes")
async def console_disputes(request: Request, page: PageNumber = 1) -> Response:
    """Every cardholder's disputes, newest first (the holder's filters: status, transaction)."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        filters = _filters(request, DISPUTE_FILTERS)
        rows, total = await every_dispute(reader, filters, at)
        return _listing(request, "Disputes", rows, total, at)

    return await show(request, "console/disputes.html", build)


@router.get("/clearing-files")
async def console_clearing_files(request: Request, page: PageNumber = 1) -> Response:
    """The clearing files booked, newest first, with their reports' counts and totals."""
    db, at = request.app.state.db, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        rows, total = await clearing_files(db, at.size, at.offset)
        return _listing(request, "Clearing files", rows, total, at)

    return await show(request, "console/clearing_files.html", build)


@router.get("/audit-log")
async def console_audit_log(request: Request, page: PageNumber = 1) -> Response:
    """The audit trail, newest first (`GET /operator/audit-log`'s filters)."""
    reader, at = request.app.state.db.reader, Page(number=page, size=PER_PAGE)

    async def build() -> dict[str, Any]:
        filters = AuditFilters(**_filters(request, AUDIT_FILTERS))
        rows, total = await page_of_audit(reader, filters, at.offset, at.size)
        return _listing(request, "Audit log", [audit_record(r) for r in rows], total, at)

    return await show(request, "console/audit_log.html", build)


@router.get("/bins")
async def console_bins(request: Request) -> Response:
    """The catalogue, read-only here: the BINs cards are issued on (`GET /dictionary/bins`)
    and the latest FX rates the operator set (`GET /operator/fx-rates`' first page)."""
    reader = request.app.state.db.reader

    async def build() -> dict[str, Any]:
        rates, total = await list_fx_rates(reader, {}, Page(1, PER_PAGE))
        return {"title": "Catalogue", "rows": as_api([b.model_dump() for b in await bins(reader)]),
                "rates": as_api(rates), "rates_total": total}  # fmt: skip

    return await show(request, "console/bins.html", build)

"""The program read back (scope `reports`, docs/operations.md "Reading the program back"):
every user's accounts, cards and transactions, paged and filtered, each record built by its
resource's one record builder — as the cardholder sees it, never a full card number.
`Accept: text/csv` on the transactions streams them as the cardholder's CSV export does.
(The programs' list is `programs/routes.py`, the audit log's `audit_routes.py`.)"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import Response

from cardservice.accounts import ACCOUNT_STATUSES, AccountRecord, every_account
from cardservice.cards import CardRecord, every_card
from cardservice.http.database import Db
from cardservice.http.filters import UUID, filters_parameter, one_of, read_filters, text
from cardservice.http.openapi import PagedEnvelope
from cardservice.http.router import (
    CSV_RESPONSE,
    JSONResponse,
    Router,
    StandardPage,
    csv_response,
    ok,
    wants_csv,
)
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, operator_with
from cardservice.transactions import TransactionRecord, csv_chunks, report
from cardservice.transactions.routes import REPORT_FILTERS

router = Router(tags=["operator"])
Reports = Annotated[Operator, Depends(operator_with("reports"))]
USER = UUID.describe("Only this user's")
ACCOUNT_FILTERS = {
    "user_uuid": USER,
    "status": one_of(*ACCOUNT_STATUSES).describe("Only accounts in this status"),
}
CARD_FILTERS = {
    "user_uuid": USER,
    "status": one_of("active", "frozen", "closed").describe("Only cards in this status"),
    "program_uuid": UUID.describe("Only the cards of this program's users"),
    "search": text(64).describe("Part of the last four digits, the mask or the description"),
}
TRANSACTION_FILTERS = {
    "user_uuid": USER,
    **{key: REPORT_FILTERS[key] for key in ("card_uuid", "type", "status", "date_from", "date_to")},
}


@router.get(
    "/operator/accounts",
    response_model=PagedEnvelope[list[AccountRecord]],
    openapi_extra={**OPERATOR_KEY, **filters_parameter(ACCOUNT_FILTERS)},
    summary="Every cardholder's accounts, oldest first",
)
async def list_operator_accounts(
    request: Request, _operator: Reports, db: Db, page: StandardPage
) -> JSONResponse:
    """Every user's accounts, oldest first, paged (scope `reports`): the records the holder
    reads at `GET /accounts` (balance, owner, primary card as its mask)."""
    filters = read_filters(request, ACCOUNT_FILTERS)
    accounts, total = await every_account(db.reader, filters, page)
    return ok(accounts, meta=page.meta(total))


@router.get(
    "/operator/cards",
    response_model=PagedEnvelope[list[CardRecord]],
    openapi_extra={**OPERATOR_KEY, **filters_parameter(CARD_FILTERS)},
    summary="Every cardholder's cards, oldest first",
)
async def list_operator_cards(
    request: Request, _operator: Reports, db: Db, page: StandardPage
) -> JSONResponse:
    """Every user's cards, oldest first, paged (scope `reports`): the records the holder reads
    at `GET /card` (mask and last four digits, never the number)."""
    filters = read_filters(request, CARD_FILTERS)
    cards, total = await every_card(db.reader, filters, page)
    return ok(cards, meta=page.meta(total))


@router.get(
    "/operator/transactions",
    response_model=PagedEnvelope[list[TransactionRecord]],
    responses=CSV_RESPONSE,
    openapi_extra={**OPERATOR_KEY, **filters_parameter(TRANSACTION_FILTERS)},
    summary="Every cardholder's transactions, newest first (JSON, or CSV)",
)
async def list_operator_transactions(
    request: Request, _operator: Reports, db: Db, page: StandardPage
) -> Response:
    """Every user's transactions, newest first (ties by uuid), paged (scope `reports`): the
    records the holder reads at `GET /transaction/report`. With `Accept: text/csv`, every
    matching transaction (no pages) streamed as the holder's `GET /transaction/report.csv`
    writes them."""
    filters = read_filters(request, TRANSACTION_FILTERS)
    if wants_csv(request):
        return csv_response(csv_chunks(db.reader, None, filters), "transactions.csv")
    records, total = await report(db.reader, None, filters, page.offset, page.size)
    return ok(records, meta=page.meta(total))

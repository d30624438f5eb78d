"""`GET /operator/audit-log` (docs/operations.md#running-a-program, `reports`): the trail of every
operator write and every card reveal, newest first, paged; with `Accept: text/csv`, all of it as
CSV."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel

from cardservice.audit import AuditFilters, audit_csv, audit_record, page_of_audit
from cardservice.http.database import Db
from cardservice.http.filters import UUID, filters_parameter, matching, one_of, read_filters
from cardservice.http.openapi import PagedEnvelope
from cardservice.http.router import (
    CSV_RESPONSE,
    Router,
    StandardPage,
    csv_response,
    ok,
    wants_csv,
)
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, operator_with

router = Router(tags=["operator"])
Reports = Annotated[Operator, Depends(operator_with("reports"))]
AUDIT_FILTERS = {
    "actor_type": one_of("user", "operator_key", "console", "system").describe(
        "Who acted: a cardholder, an operator key, an operator console session or the service"
    ),
    "action": matching(r"[a-z_]+(?:\.[a-z_]+)*", "must be an action such as user.created").describe(
        "Only this action, e.g. `user.created`, `card.details_revealed`"
    ),
    "object_type": matching(r"[a-z_]{1,32}", "must be an object type such as card").describe(
        "Only rows about this kind of object, e.g. `user`, `account`, `card`"
    ),
    "object_uuid": UUID.describe("Only rows about this object"),
}


class AuditActor(BaseModel):
    type: str
    id: str | None


class AuditRecord(BaseModel):
    uuid: str
    created_at: datetime
    actor: AuditActor
    action: str
    object_type: str
    object_uuid: str | None
    request_id: str | None
    details: dict[str, Any] | None


@router.get(
    "/operator/audit-log",
    response_model=PagedEnvelope[list[AuditRecord]],
    responses=CSV_RESPONSE,
    openapi_extra={**OPERATOR_KEY, **filters_parameter(AUDIT_FILTERS)},
    summary="The audit trail: operator writes and card reveals, newest first (JSON, or CSV)",
)
async def audit_log(request: Request, _operator: Reports, db: Db, page: StandardPage) -> Response:
    """Every operator write and every card reveal, newest first (scope `reports`): actor,
    action, object, time and request id. With `Accept: text/csv`, every matching row (no
    pages) streamed as CSV, `details` as JSON text."""
    filters = AuditFilters(**read_filters(request, AUDIT_FILTERS))
    if wants_csv(request):
        return csv_response(audit_csv(db.reader, filters), "audit-log.csv")
    rows, total = await page_of_audit(db.reader, filters, page.offset, page.size)
    return ok([audit_record(row) for row in rows], meta=page.meta(total))

"""`POST /disputes`, `GET /disputes`, `GET /disputes/{disputeUuid}`
(docs/transactions.md#disputes), `POST /disputes/{disputeUuid}/withdraw` (docs/disputes.md)."""

from __future__ import annotations

import uuid
from typing import Annotated, get_args

from fastapi import Path, Request

from cardservice.auth.dependencies import CallerA
from cardservice.disputes import repository, withdraw_dispute
from cardservice.disputes.records import dispute_record_of
from cardservice.disputes.schemas import DisputeRecord, DisputeStatus, OpenDisputeRequest
from cardservice.disputes.service import open_dispute
from cardservice.http.database import Db
from cardservice.http.filters import UUID, filters_parameter, one_of, read_filters
from cardservice.http.openapi import BEARER_OR_MFA, Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["disputes"])

DisputeUuid = Annotated[
    str,
    Path(
        alias="disputeUuid",
        pattern=UUID_PATTERN,
        description="The dispute's uuid (`GET /disputes`, or the `uuid` `POST /disputes` answered)",
    ),
]
DISPUTE_FILTERS = {
    "status": one_of(*get_args(DisputeStatus)).describe("Only disputes in this status"),
    "transaction_uuid": UUID.describe("Only disputes of this transaction"),
}


@router.post(
    "/disputes",
    status_code=201,
    response_model=Envelope[DisputeRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(OpenDisputeRequest)},
    summary="Dispute one of the caller's completed card purchases",
)
async def create_dispute(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Dispute one of the caller's completed card purchases within 120 days of its capture
    (else 422 `dispute_window_closed`), one open dispute per transaction. The disputed amount
    is the captured amount less refunds. Answers 201 with the dispute (`open`); the network's
    outcome (`won` credits the card, `lost` moves nothing) arrives later (`POST
    /sandbox/disputes/{disputeUuid}/resolve` in the sandbox)."""
    body = await read_json(request, OpenDisputeRequest)
    evidence = [uuid.UUID(u) for u in body.evidence_attachment_uuids or []]
    purchase = uuid.UUID(body.transaction_uuid)
    amount = to_minor(body.amount) if body.amount is not None else None
    row = await db.transact(
        lambda tx: open_dispute(
            tx,
            caller.user_uuid,
            purchase,
            body.reason,
            explanation=body.explanation,
            evidence=evidence,
            amount=amount,
        )
    )
    return ok(dispute_record_of(row), status_code=201)


@router.get(
    "/disputes",
    response_model=PagedEnvelope[list[DisputeRecord]],
    openapi_extra={**BEARER_OR_MFA, **filters_parameter(DISPUTE_FILTERS)},
    summary="The caller's disputes, newest first",
)
async def list_disputes(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """The caller's disputes, newest first, paginated."""
    filters = read_filters(request, DISPUTE_FILTERS)
    records, total = await repository.list_disputes(
        db.reader, caller.user_uuid, filters, page.offset, page.size
    )
    return ok(records, meta=page.meta(total))


@router.get(
    "/disputes/{disputeUuid:uuid36}",
    response_model=Envelope[DisputeRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one dispute",
)
async def get_dispute(caller: CallerA, db: Db, dispute_uuid: DisputeUuid) -> JSONResponse:
    """One of the caller's disputes: transaction, reason, amount, status (`open`, `won`,
    `lost`) and evidence."""
    return ok(await repository.one_dispute(db.reader, caller.user_uuid, uuid.UUID(dispute_uuid)))


@router.post(
    "/disputes/{disputeUuid:uuid36}/withdraw",
    response_model=Envelope[DisputeRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Withdraw one of the caller's disputes",
)
async def withdraw(caller: CallerA, db: Db, dispute_uuid: DisputeUuid) -> JSONResponse:
    """The caller withdraws their dispute while it is `open` or `chargeback_sent`: it becomes
    `withdrawn`, a provisional credit is taken back and the claim on the network given back
    (docs/disputes.md). Another status is 409 `dispute_wrong_status`; anybody else's is
    404."""
    dispute = uuid.UUID(dispute_uuid)
    row = await db.transact(lambda tx: withdraw_dispute(tx, caller.user_uuid, dispute, utcnow()))
    return ok(dispute_record_of(row))

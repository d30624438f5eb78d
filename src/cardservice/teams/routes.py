"""The team's endpoints (docs/teams.md#teams-budgets-requests-receipts): budgets, requests, the
receipt policy, and receipts on transactions."""

from __future__ import annotations

import uuid
from typing import Annotated, get_args

from fastapi import Path, Query, Request

from cardservice.auth.dependencies import CallerA
from cardservice.db.paging import Offset
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, one_of, read_filters
from cardservice.http.openapi import BEARER_OR_MFA, Done, Envelope, PagedEnvelope
from cardservice.http.router import (
    JSONResponse,
    Router,
    StandardPage,
    body_schema,
    done,
    ok,
    read_json,
)
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.teams import card_policy, receipts, service
from cardservice.teams.schemas import (
    BudgetRecord,
    CardPolicyRecord,
    CardPolicyRequest,
    CreateTeamRequest,
    DeclineRequest,
    LinkReceiptRequest,
    MissingReceipt,
    ReceiptPolicyRecord,
    ReceiptPolicyRequest,
    RequestStatus,
    SetBudgetRequest,
    TeamRequestRecord,
)
from cardservice.transactions import TransactionRecord
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["teams"])

UserUuid = Annotated[
    str,
    Path(alias="userUuid", pattern=UUID_PATTERN, description="A member of the caller's team"),
]
RequestUuid = Annotated[
    str,
    Path(alias="requestUuid", pattern=UUID_PATTERN, description="The request's uuid"),
]
TransactionUuid = Annotated[
    str,
    Path(alias="transactionUuid", pattern=UUID_PATTERN, description="The transaction's uuid"),
]
REQUEST_FILTERS = {"status": one_of(*get_args(RequestStatus)).describe("Only requests in it")}
BUDGET_PATH = "/team/members/{userUuid:uuid36}/budget"
RECEIPT_PATH = "/transaction/{transactionUuid:uuid36}/receipt"


@router.get(
    "/team/budgets",
    response_model=Envelope[list[BudgetRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="The team's budgets (owner) or the caller's own (member)",
)
async def list_team_budgets(caller: CallerA, db: Db) -> JSONResponse:
    """Each budget as it stands this UTC month: `amount` (with this month's approved
    increases), `spent` (the member's card purchases in its currency, approved less released
    or refunded, across all their cards and channels) and `remaining`."""
    return ok(await service.list_budgets(db.reader, caller, utcnow()))


@router.put(
    BUDGET_PATH,
    response_model=Envelope[BudgetRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(SetBudgetRequest)},
    summary="Set a member's monthly budget (owner)",
)
async def put_team_budget(
    request: Request, caller: CallerA, db: Db, user_uuid: UserUuid
) -> JSONResponse:
    """Set a member's monthly budget in one currency they hold an account in (replacing any).
    Authorizations that would take the member's month past it are declined
    `budget_exceeded`."""
    body = await read_json(request, SetBudgetRequest)
    member, amount = uuid.UUID(user_uuid), to_minor(body.amount)
    return ok(
        await db.transact(
            lambda tx: service.set_budget(tx, caller, member, amount, body.currency, utcnow())
        )
    )


@router.delete(
    BUDGET_PATH,
    response_model=Done,
    openapi_extra=BEARER_OR_MFA,
    summary="Remove a member's budget (owner)",
)
async def delete_team_budget(caller: CallerA, db: Db, user_uuid: UserUuid) -> JSONResponse:
    """Remove a member's budget: their authorizations are no longer checked against one."""
    await db.transact(lambda tx: service.delete_budget(tx, caller, uuid.UUID(user_uuid)))
    return done()


@router.post(
    "/team/requests",
    status_code=201,
    response_model=Envelope[TeamRequestRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(CreateTeamRequest)},
    summary="Ask the team's owner for a card or more budget (member)",
)
async def create_team_request(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """`kind: card` with `account_uuid` (the member's own), `bin_uuid`, `start_balance`,
    `description`; or `kind: budget_increase` with `amount`, `currency` (the budget's) and
    `reason`. Answers 201 with the pending request."""
    body = await read_json(request, CreateTeamRequest)
    record = await db.transact(lambda tx: service.create_request(tx, caller, body, utcnow()))
    return ok(record, status_code=201)


@router.get(
    "/team/requests",
    response_model=PagedEnvelope[list[TeamRequestRecord]],
    openapi_extra={**BEARER_OR_MFA, **filters_parameter(REQUEST_FILTERS)},
    summary="The team's requests (owner) or the caller's own (member), newest first",
)
async def list_team_requests(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """Requests, newest first, paginated; `filters[status]` = pending, approved or declined."""
    filters = read_filters(request, REQUEST_FILTERS)
    records, total = await service.list_requests(
        db.reader, caller, filters.get("status"), Offset(page.offset, page.size)
    )
    return ok(records, meta=page.meta(total))


@router.get(
    "/team/requests/{requestUuid:uuid36}",
    response_model=Envelope[TeamRequestRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one team request",
)
async def get_team_request(caller: CallerA, db: Db, request_uuid: RequestUuid) -> JSONResponse:
    """One request: any of the team's for its owner, their own for a member."""
    return ok(await service.one_request(db.reader, caller, uuid.UUID(request_uuid)))


@router.post(
    "/team/requests/{requestUuid:uuid36}/approve",
    response_model=Envelope[TeamRequestRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Approve a request and carry it out (owner)",
)
async def approve_team_request(
    request: Request, caller: CallerA, db: Db, request_uuid: RequestUuid
) -> JSONResponse:
    """Carry the request out in the same unit as the decision: the card bought as `POST
    /card/buy` buys it (same prices; a refusal such as 422 `insufficient_funds` leaves the
    request pending), or the month's budget raised by the amount. A decided request → 409
    `request_decided`."""
    cipher, target = request.app.state.cipher, uuid.UUID(request_uuid)
    return ok(
        await db.transact(lambda tx: service.approve_request(tx, cipher, caller, target, utcnow()))
    )


@router.post(
    "/team/requests/{requestUuid:uuid36}/decline",
    response_model=Envelope[TeamRequestRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(DeclineRequest)},
    summary="Decline a request (owner)",
)
async def decline_team_request(
    request: Request, caller: CallerA, db: Db, request_uuid: RequestUuid
) -> JSONResponse:
    """Decline, with an optional `reason` for the member. A decided request → 409
    `request_decided`."""
    body = await read_json(request, DeclineRequest)
    target = uuid.UUID(request_uuid)
    return ok(
        await db.transact(
            lambda tx: service.decline_request(tx, caller, target, body.reason, utcnow())
        )
    )


@router.put(
    "/team/receipt-policy",
    response_model=Envelope[ReceiptPolicyRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ReceiptPolicyRequest)},
    summary="Set the team's receipt policy (owner)",
)
async def put_receipt_policy(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Members' captured card purchases in `currency` of at least `min_amount` without a
    receipt: `transaction.receipt_missing` after `remind_after_days`, the card frozen
    (`frozen_reason: receipt_missing`) after `freeze_after_days`."""
    body = await read_json(request, ReceiptPolicyRequest)
    return ok(await db.transact(lambda tx: receipts.put_policy(tx, caller, body, utcnow())))


@router.get(
    "/team/receipt-policy",
    response_model=Envelope[ReceiptPolicyRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="The team's receipt policy",
)
async def get_receipt_policy(caller: CallerA, db: Db) -> JSONResponse:
    """The team's receipt policy (owner and members); 404 when none is set."""
    return ok(await receipts.get_policy(db.reader, caller))


@router.put(
    "/team/card-policy",
    response_model=Envelope[CardPolicyRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(CardPolicyRequest)},
    summary="Set whether members buy cards or ask for them (owner)",
)
async def put_card_policy(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """`member_cards`: `direct` (the default: members buy cards with `POST /card/buy`) or
    `request` (a member's `POST /card/buy` answers 403 `request_required`; the member asks with
    `POST /team/requests` and the owner approves)."""
    body = await read_json(request, CardPolicyRequest)
    return ok(
        await db.transact(lambda tx: card_policy.put_card_policy(tx, caller, body.member_cards))
    )


@router.get(
    "/team/card-policy",
    response_model=Envelope[CardPolicyRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="The team's card policy",
)
async def get_card_policy(caller: CallerA, db: Db) -> JSONResponse:
    """Whether the team's members buy cards (`direct`) or ask for them (`request`); owner and
    members."""
    return ok(await card_policy.get_card_policy(db.reader, caller))


@router.get(
    "/team/missing-receipts",
    response_model=Envelope[list[MissingReceipt]],
    openapi_extra=BEARER_OR_MFA,
    summary="Purchases the receipt policy chases (owner: the team's; member: their own)",
)
async def list_missing_receipts(
    caller: CallerA,
    db: Db,
    limit: Annotated[int, Query(ge=1, le=500, description="At most this many, oldest first")] = 100,
) -> JSONResponse:
    """The captured purchases the policy asks a receipt for that have none yet, oldest first:
    reminded or not, and whether their card is frozen for it."""
    return ok(await receipts.missing_receipts(db.reader, caller, limit))


@router.put(
    RECEIPT_PATH,
    response_model=Envelope[TransactionRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(LinkReceiptRequest)},
    summary="Link a receipt to one of the caller's transactions",
)
async def link_receipt(
    request: Request, caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Link one of the caller's attachments of type `receipt`, `invoice` or `photo` (replacing
    any). A card the receipt policy froze is unfrozen when this was its last missing receipt.
    The transaction's record shows `receipt_attachment_uuid`."""
    body = await read_json(request, LinkReceiptRequest)
    target, attachment = uuid.UUID(transaction_uuid), uuid.UUID(body.attachment_uuid)
    return ok(
        await db.transact(
            lambda tx: receipts.link_receipt(tx, caller.user_uuid, target, attachment)
        )
    )


@router.delete(
    RECEIPT_PATH,
    response_model=Envelope[TransactionRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Unlink the receipt of one of the caller's transactions",
)
async def unlink_receipt(
    caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Unlink the transaction's receipt (the attachment itself stays)."""
    target = uuid.UUID(transaction_uuid)
    return ok(await db.transact(lambda tx: receipts.unlink_receipt(tx, caller.user_uuid, target)))

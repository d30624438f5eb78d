"""The card-network simulator (docs/transactions.md#sandbox-and-cli): on only when
`CARDSERVICE_SANDBOX` is on."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Annotated, Any, TypeVar

from fastapi import Path, Request
from pydantic import BaseModel

from cardservice.auth.dependencies import CallerA
from cardservice.cards import CardRecord, FulfilmentRequest, move_fulfilment
from cardservice.db.sql import Tx
from cardservice.disputes import (
    DisputeRecord,
    ResolveDisputeRequest,
    dispute_record_of,
    resolve_dispute,
)
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Envelope
from cardservice.http.router import (
    JSONResponse,
    Router,
    body_schema,
    ok,
    parse_json,
    read_json,
    read_limited,
    require_json,
)
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.observability import metrics
from cardservice.transactions import (
    AuthorizationRequest,
    CaptureMessage,
    CaptureRequest,
    DepositRequest,
    IncrementRequest,
    RefundMessage,
    RefundRequest,
    ReversalMessage,
    ThreeDsRecord,
    ThreeDsRequest,
    TransactionRecord,
    authorization_of,
    authorize_card,
    capture_purchase,
    deposit,
    increment_purchase,
    issue_code,
    refund_purchase,
    reverse_purchase,
    transaction_record_of,
)
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/sandbox", tags=["sandbox"])
TransactionUuid = Annotated[
    str,
    Path(
        alias="transactionUuid",
        pattern=UUID_PATTERN,
        description="The transaction's uuid (`GET /transaction/report`)",
    ),
]
DisputeUuid = Annotated[
    str,
    Path(
        alias="disputeUuid",
        pattern=UUID_PATTERN,
        description="The dispute's uuid (`GET /disputes`, or the `uuid` `POST /disputes` answered)",
    ),
]
CardUuid = Annotated[
    str,
    Path(alias="cardUuid", pattern=UUID_PATTERN, description="The card's uuid (`GET /card`)"),
]
Created = Envelope[TransactionRecord]
BodyT = TypeVar("BodyT", bound=BaseModel)


def _optional_body_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema = body_schema(model)
    schema["requestBody"]["required"] = False  # no body: the whole (hold, what is left)
    return schema


@router.post(
    "/deposits",
    status_code=201,
    response_model=Created,
    openapi_extra={**BEARER_OR_MFA, **body_schema(DepositRequest)},
    summary="Simulate money arriving on an account",
)
async def create_sandbox_deposit(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Sandbox only: money arrives on one of the caller's accounts as a `deposit` transaction
    (201)."""
    body = await read_json(request, DepositRequest)
    account, amount = uuid.UUID(body.account_uuid), to_minor(body.amount)
    row = await db.transact(lambda tx: deposit(tx, caller.user_uuid, account, amount))
    return ok(transaction_record_of(row), status_code=201)


@router.post(
    "/authorizations",
    status_code=201,
    response_model=Created,
    openapi_extra={**BEARER_OR_MFA, **body_schema(AuthorizationRequest)},
    summary="Simulate a card authorization from the network",
)
async def create_sandbox_authorization(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Sandbox only: a card authorization as the network would send it. The rules run in order
    (card active and not expired, account active, card type, spending controls and blocked
    tags, currency, 3DS code, decision endpoint, funds); approval holds `amount` plus the
    `card_transaction` fee on the card (`pending`), a decline records the `error` slug and
    charges the `card_decline` fee as far as the card covers it. 201 with the transaction
    either way."""
    body = await read_json(request, AuthorizationRequest)
    card, amount = uuid.UUID(body.card_uuid), to_minor(body.amount)
    details = body.model_dump()
    message = authorization_of(card, amount, body.currency, body.merchant_name, details, "sandbox")
    state = request.app.state
    row = await authorize_card(
        db,
        state.outbound,
        state.cipher,
        caller.user_uuid,
        message,
        allow_private=state.settings.private_urls_allowed,
    )
    metrics.count_authorization(row["status"], row["error_slug"])  # once committed
    return ok(transaction_record_of(row), status_code=201)


async def _optional_body(request: Request, model: type[BodyT]) -> BodyT:
    """An optional body: none (or an empty one) is the model's defaults."""
    raw = await read_limited(request, request.app.state.settings.max_body_bytes)
    if not raw.strip():
        return model()
    require_json(request)
    return parse_json(raw, model)


@router.post(
    "/transactions/{transactionUuid:uuid36}/settle",
    status_code=201,
    response_model=Created,
    openapi_extra={**BEARER_OR_MFA, **_optional_body_schema(CaptureRequest)},
    summary="Capture a pending purchase: whole, in parts, or more than authorized (tips)",
)
async def settle_sandbox_transaction(
    request: Request, caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Sandbox only: capture a pending purchase. Without `amount` the whole hold; a smaller
    `amount` captures that part (with `final: false` the rest stays held, else it is released);
    a larger one (tips, fuel) up to 20 % above the authorization when the card can pay the
    difference, else 422 `insufficient_funds`. 201 with the purchase."""
    body = await _optional_body(request, CaptureRequest)
    amount = to_minor(body.amount) if body.amount is not None else None
    message = CaptureMessage(uuid.UUID(transaction_uuid), amount, body.final, body.rate)
    row = await capture_purchase(db, caller.user_uuid, message)
    return ok(transaction_record_of(row), status_code=201)


@router.post(
    "/transactions/{transactionUuid:uuid36}/increment",
    status_code=201,
    response_model=Created,
    openapi_extra={**BEARER_OR_MFA, **body_schema(IncrementRequest)},
    summary="Raise a pending purchase's hold (incremental authorization)",
)
async def increment_sandbox_transaction(
    request: Request, caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Sandbox only: raise a pending purchase's hold by `amount` under the rules of a new
    authorization; a refusal keeps the first hold and records a declined child purchase. No fee
    of its own. 201 with the purchase."""
    body = await read_json(request, IncrementRequest)
    state = request.app.state
    row = await increment_purchase(
        db,
        state.outbound,
        state.cipher,
        caller.user_uuid,
        uuid.UUID(transaction_uuid),
        to_minor(body.amount),
        allow_private=state.settings.private_urls_allowed,
    )
    metrics.count_authorization(row["status"], row["error_slug"])  # once committed
    return ok(transaction_record_of(row), status_code=201)


@router.post(
    "/transactions/{transactionUuid:uuid36}/reverse",
    status_code=201,
    response_model=Created,
    openapi_extra=BEARER_OR_MFA,
    summary="Reverse a pending purchase",
)
async def reverse_sandbox_transaction(
    caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Sandbox only: release a pending purchase's hold; the amount and its fee go back to the
    card (`reversed`). 201 with the purchase."""
    message = ReversalMessage(uuid.UUID(transaction_uuid))
    row = await reverse_purchase(db, caller.user_uuid, message)
    return ok(transaction_record_of(row), status_code=201)


@router.post(
    "/transactions/{transactionUuid:uuid36}/refund",
    status_code=201,
    response_model=Created,
    openapi_extra={**BEARER_OR_MFA, **_optional_body_schema(RefundRequest)},
    summary="Refund a settled purchase, in full or in part",
)
async def refund_sandbox_transaction(
    request: Request, caller: CallerA, db: Db, transaction_uuid: TransactionUuid
) -> JSONResponse:
    """Sandbox only: refund a completed purchase, all of it or `amount` of it (never more than
    captured less earlier refunds); the money goes back to the card. 201 with the purchase."""
    body = await _optional_body(request, RefundRequest)
    amount = to_minor(body.amount) if body.amount is not None else None
    message = RefundMessage(uuid.UUID(transaction_uuid), amount)
    row = await refund_purchase(db, caller.user_uuid, message)
    return ok(transaction_record_of(row), status_code=201)


@router.post(
    "/3ds",
    status_code=201,
    response_model=Envelope[ThreeDsRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ThreeDsRequest)},
    summary="Simulate a 3DS code sent for a card",
)
async def create_sandbox_three_ds_code(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Sandbox only: a 3DS one-time code for one of the caller's cards, as the ACS would send
    it (valid 10 minutes). Pass it as `three_ds_code` of an authorization of that card to use
    it up."""
    body = await read_json(request, ThreeDsRequest)
    ttl = timedelta(seconds=request.app.state.settings.three_ds_ttl_seconds)
    cipher, card, amount = (
        request.app.state.cipher,
        uuid.UUID(body.card_uuid),
        to_minor(body.amount),
    )

    async def issue(tx: Tx) -> dict[str, Any]:
        return await issue_code(
            tx, cipher, caller.user_uuid, card, body.merchant_name, amount, body.currency, ttl
        )

    return ok(await db.transact(issue), status_code=201)


@router.post(
    "/disputes/{disputeUuid:uuid36}/resolve",
    status_code=201,
    response_model=Envelope[DisputeRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ResolveDisputeRequest)},
    summary="Simulate the network's outcome of an open dispute (won credits the card)",
)
async def resolve_sandbox_dispute(
    request: Request, caller: CallerA, db: Db, dispute_uuid: DisputeUuid
) -> JSONResponse:
    """Sandbox only: the network's outcome of an open dispute. `won` credits the disputed
    amount back to the card (a `dispute_credit` transaction); `lost` moves nothing."""
    body = await read_json(request, ResolveDisputeRequest)
    dispute = uuid.UUID(dispute_uuid)
    row = await db.transact(lambda tx: resolve_dispute(tx, caller.user_uuid, dispute, body.outcome))
    return ok(dispute_record_of(row), status_code=201)


@router.post(
    "/cards/{cardUuid:uuid36}/fulfilment",
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(FulfilmentRequest)},
    summary="Simulate the card producer: move a physical card to its next fulfilment step",
)
async def sandbox_card_fulfilment(
    request: Request, caller: CallerA, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """Sandbox only: one of the caller's physical cards moves to its next fulfilment step
    (`ordered → printed → shipped → delivered`, or `returned` from `shipped`), as the
    producer's feed would (docs/cards.md#fulfilment). Out of order → 409
    `fulfilment_out_of_order`; a virtual card → 422 `card_not_physical`."""
    body = await read_json(request, FulfilmentRequest)
    card, now = uuid.UUID(card_uuid), utcnow()
    return ok(await db.transact(lambda tx: move_fulfilment(tx, caller.user_uuid, card, body, now)))

"""Endpoints 1, 4, 11, 21, 22 of the seed, and PATCH /card/{cardUuid}
(docs/controls.md#lifecycle-patch-cardcarduuid)."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Request
from fastapi.responses import Response

from cardservice.auth.dependencies import CallerA, CallerB, count_failed_attempt
from cardservice.cards import physical, pin, purchase, reveal, service
from cardservice.cards.owner_changes import change_card_as, read_card_as, team_cards
from cardservice.cards.replacement import replace_card
from cardservice.cards.schemas import (
    ActivateCardRequest,
    BuyCardsRequest,
    BuyCardsResult,
    CardChangeRequest,
    CardDetails,
    CardList,
    CardRecord,
    FavoriteRequest,
    PinKey,
    ReplaceCardRequest,
    RevealRequest,
    SetPinRequest,
    SortRequest,
    TeamCardList,
)
from cardservice.db.sql import Tx
from cardservice.encoding import dumps
from cardservice.errors import RateLimited
from cardservice.http.database import Db
from cardservice.http.filters import BOOLEAN, UUID, filters_parameter, one_of, read_filters, text
from cardservice.http.openapi import BEARER_ONLY, BEARER_OR_MFA, Done, Envelope, PagedEnvelope
from cardservice.http.router import CardPage, JSONResponse, Router, body_schema, done, ok, read_json
from cardservice.idempotency import StoredResponse, act_once
from cardservice.models.base import utcnow
from cardservice.security import MissingEncryptionKey
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["cards"])
CardUuid = Annotated[
    str,
    Path(
        alias="cardUuid",
        pattern=UUID_PATTERN,
        description="The card's uuid (`GET /card`, or `data.cards[].uuid` of `POST /card/buy`)",
    ),
]

CARD_FILTERS = {
    "status": one_of("active", "frozen", "closed").describe("Only cards in this status"),
    "account_uuid": UUID.describe("Only this account's cards"),
    "is_favorite": BOOLEAN.describe("`true`: only favorites; `false`: only the others"),
    "search": text(64).describe("Part of the last four digits, the mask or the description"),
}


@router.post(
    "/card/buy",
    status_code=201,
    response_model=Envelope[BuyCardsResult],
    openapi_extra={**BEARER_OR_MFA, **body_schema(BuyCardsRequest)},
    summary="Buy cards for an account",
)
async def buy_cards(request: Request, caller: CallerA, db: Db) -> Response:
    """Buy 1..100 cards on one account from one BIN, all or nothing. The account pays
    `cards_count × (card_issue fee + start_balance + start_balance × card_topup percent)` in
    one ledger entry, plus the `card_physical` fee per card with `form: physical` (sent to
    `shipping`, `inactive` until activated); each card starts with `start_balance`. Refusals (422):
    `account_inactive`, `insufficient_funds`, `bin_unavailable`, `bin_not_allowed`,
    `currency_mismatch`; another user's account or an unknown BIN → 404. With `external_id`, a
    repeat of the same body returns the first answer again (`Idempotent-Replayed: true`) and
    buys nothing; another body with that `external_id` → 409. A team member whose team's card
    policy is `request` → 403 `request_required` (ask with `POST /team/requests`)."""
    body = await read_json(request, BuyCardsRequest)
    await purchase.check_member_may_buy(db.reader, caller.team_uuid, caller.role)
    cipher = request.app.state.cipher

    async def buy(tx: Tx) -> StoredResponse:
        result = await purchase.buy_cards(tx, cipher, caller.user_uuid, body)
        return StoredResponse(201, dumps({"success": True, "data": result}))

    fingerprint = purchase.request_fingerprint(body)
    result = await act_once(db, caller.user_uuid, body.external_id, fingerprint, buy)
    headers = {"Idempotent-Replayed": "true"} if result.replayed else None
    return Response(
        result.body, status_code=result.status_code, headers=headers, media_type="application/json"
    )


@router.get(
    "/card",
    response_model=PagedEnvelope[CardList],
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(CARD_FILTERS),
    },
    summary="List the caller's cards in their order",
)
async def list_cards(request: Request, caller: CallerA, db: Db, page: CardPage) -> JSONResponse:
    """The caller's cards in their own order (`POST /card/sort`, then creation), 100 a page by
    default, up to 500. Card records carry the mask and last four digits, never the number."""
    filters = read_filters(request, CARD_FILTERS)
    cards, total = await service.list_cards(db.reader, caller.user_uuid, filters, page)
    return ok({"cards": cards}, meta=page.meta(total))


@router.get(
    "/team/cards",
    response_model=PagedEnvelope[TeamCardList],
    openapi_extra=BEARER_OR_MFA,
    summary="The team members' cards (the team's owner)",
)
async def list_team_cards(caller: CallerA, db: Db, page: CardPage) -> JSONResponse:
    """For a team's owner: every card of each member (role `member`) that is not closed — the
    cards the owner reads and changes with `GET`/`PATCH /card/{cardUuid}` — with its holder
    `{uuid, name}`, by holder name, then the holder's card order; 100 a page by default, up
    to 500. A member or a user of no team: 404."""
    cards, total = await team_cards(db.reader, caller, page.offset, page.size)
    return ok({"cards": cards}, meta=page.meta(total))


@router.get(
    "/card/{cardUuid:uuid36}",
    response_model=Envelope[CardRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one card",
)
async def get_card(
    caller: CallerA,
    db: Db,
    card_uuid: CardUuid,
) -> JSONResponse:
    """One of the caller's cards: balance, status, limits, holder, auto-replenish, card type. A
    team owner also reads a member's card (the one `PATCH` lets them change); anybody else's
    card → 404."""
    return ok(await read_card_as(db.reader, caller, uuid.UUID(card_uuid)))


@router.patch(
    "/card/{cardUuid:uuid36}",
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(CardChangeRequest)},
    summary="Freeze, unfreeze or close a card; change its holder, auto-replenish or controls",
)
async def patch_card(
    request: Request,
    caller: CallerA,
    db: Db,
    card_uuid: CardUuid,
) -> JSONResponse:
    """Change any of the fields sent, in one step: `status` (`active`, `frozen`, or `closed`,
    which is final: pending holds are reversed and the whole balance moves back to the account
    as a `card_close` transaction), description, holder name and address, auto-replenish,
    spending controls. Fields left out stay as they are; `null` clears a nullable field. A team
    owner may change a member's card (`status`, `spending_controls`, `description`; audited,
    a freeze shows `frozen_reason: owner`); anybody else's card → 404. Answers the card as it
    is now."""
    body = await read_json(request, CardChangeRequest)
    card, now = uuid.UUID(card_uuid), utcnow()
    request_id = getattr(request.state, "request_id", None)
    return ok(await db.transact(lambda tx: change_card_as(tx, caller, card, body, now, request_id)))


@router.post(
    "/card/favorite",
    response_model=Done,
    openapi_extra={**BEARER_OR_MFA, **body_schema(FavoriteRequest)},
    summary="Mark or unmark cards as favorite",
)
async def favorite_cards(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Mark (or, with `is_favorite: false`, unmark) up to 500 cards as favorites, all or
    nothing: a uuid that is not one of the caller's cards → 404 and nothing changes."""
    body = await read_json(request, FavoriteRequest)
    uuids = [uuid.UUID(value) for value in body.card_uuids]

    await db.transact(
        lambda tx: service.set_favorite(tx, caller.user_uuid, uuids, body.is_favorite)
    )
    return done()


@router.post(
    "/card/sort",
    response_model=Done,
    openapi_extra={**BEARER_OR_MFA, **body_schema(SortRequest)},
    summary="Put cards first, in this order",
)
async def sort_cards(request: Request, caller: CallerA, db: Db) -> JSONResponse:
    """Put these cards first, in this order (positions 1..n); the caller's other cards keep
    their relative order after them. All or nothing: a uuid that is not one of the caller's
    cards → 404."""
    body = await read_json(request, SortRequest)
    uuids = [uuid.UUID(value) for value in body.card_uuids]
    await db.transact(lambda tx: service.sort_cards(tx, caller.user_uuid, uuids))
    return done()


NO_STORE = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@router.post(
    "/card/{cardUuid:uuid36}/reveal",
    response_model=Envelope[CardDetails],
    openapi_extra={**BEARER_ONLY, **body_schema(RevealRequest)},
    summary="Show the card's number, expiry and CVV2 to its holder (bearer token + step-up)",
    description=(
        "`mfa_code` is a live MFA code of the caller (`POST /auth/mfa-code`), used up by "
        "this call. At most 10 reveals per card per hour. The answer carries "
        "`Cache-Control: no-store`; each reveal writes an audit row and the event "
        "`card.details_revealed`."
    ),
)
async def reveal_card(
    request: Request,
    caller: CallerB,
    db: Db,
    card_uuid: CardUuid,
) -> JSONResponse:
    body = await read_json(request, RevealRequest)
    asked = reveal.RevealRequest(
        user_uuid=caller.user_uuid,
        card_uuid=uuid.UUID(card_uuid),
        mfa_code=body.mfa_code,
        request_id=getattr(request.state, "request_id", None),
        now=utcnow(),
        token_uuid=caller.token_uuid,
    )
    cipher = request.app.state.cipher
    try:
        details = await db.transact(lambda tx: reveal.reveal_card(tx, cipher, asked))
    except reveal.StepUpFailed:
        # guessing codes spends the client address's authentication failures
        # (docs/api.md#authentication)
        allowance = await count_failed_attempt(request)
        if not allowance.allowed:
            raise RateLimited(allowance.retry_after) from None
        raise
    return ok(details.model_dump(), headers=NO_STORE)


@router.post(
    "/card/{cardUuid:uuid36}/replace",
    status_code=201,
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ReplaceCardRequest)},
    summary="Replace a card: a new number, the same settings and balance",
)
async def replace(
    request: Request,
    caller: CallerA,
    db: Db,
    card_uuid: CardUuid,
) -> JSONResponse:
    """Close a card and issue its replacement on the same BIN and account: a new number, expiry
    and CVV2, with the old card's description, controls, card type, favorite flag and position.
    The old card's available balance moves to the new one in one ledger entry
    (`card_transfer`); its pending holds can still be captured, and what they release later
    goes to the new card. Answers 201 with the new card (its `replaces` names the old one)."""
    body = await read_json(request, ReplaceCardRequest)
    cipher, card, now = request.app.state.cipher, uuid.UUID(card_uuid), utcnow()
    record = await db.transact(
        lambda tx: replace_card(tx, cipher, caller.user_uuid, card, body.reason, now)
    )
    return ok(record, status_code=201)


@router.post(
    "/card/{cardUuid:uuid36}/activate",
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_OR_MFA, **body_schema(ActivateCardRequest)},
    summary="Activate a physical card that has been shipped, with its last four digits",
)
async def activate_card(
    request: Request, caller: CallerA, db: Db, card_uuid: CardUuid
) -> JSONResponse:
    """Make one of the caller's physical cards `active` once it is `shipped` or `delivered`
    (docs/cards.md#activation). Before it is shipped, or once returned → 409
    `card_not_shipped`; wrong `last4` → 422 `invalid_card_details` (counted: the 5th within
    24 h freezes the card `suspected_fraud`, then 409 `card_frozen` until its holder sets it
    active); an active card → 409 `card_already_active`; a virtual card → 422
    `card_not_physical`."""
    body = await read_json(request, ActivateCardRequest)
    card, now = uuid.UUID(card_uuid), utcnow()
    activated = await db.transact(
        lambda tx: physical.activate_card(tx, caller.user_uuid, card, body.last4, now)
    )
    if activated is None:  # the wrong digits were counted and committed
        raise physical.InvalidCardDetails()
    return ok(activated)


@router.get(
    "/card/pin-key",
    response_model=Envelope[PinKey],
    openapi_extra=BEARER_OR_MFA,
    summary="The public key to encrypt a PIN with (RSA-2048, for RSA-OAEP with SHA-256)",
)
async def pin_key(request: Request, caller: CallerA) -> JSONResponse:
    """The PIN key's id and public half (PEM, SubjectPublicKeyInfo); its private half never
    leaves the key backend (the PKCS#11 token, docs/cards.md#pin-keys). Keys unavailable → 503
    `keys_unavailable`."""
    try:
        key_id, pem = request.app.state.cipher.pin_public_key()
    except MissingEncryptionKey as missing:
        reveal.log.error("PIN key not shown: %s", missing)
        raise reveal.KeysUnavailable() from None
    return ok({"key_id": key_id, "public_key_pem": pem})


@router.put(
    "/card/{cardUuid:uuid36}/pin",
    response_model=Envelope[CardRecord],
    openapi_extra={**BEARER_ONLY, **body_schema(SetPinRequest)},
    summary="Set a physical card's PIN (encrypted to the PIN key; bearer token + step-up)",
)
async def set_pin(request: Request, caller: CallerB, db: Db, card_uuid: CardUuid) -> JSONResponse:
    """Set (or change) the PIN of one of the caller's physical cards; only its Visa PVV is
    kept, and a blocked PIN is unblocked. `mfa_code` is a step-up as for a reveal (403
    `step_up_failed`). Refusals (422): `weak_pin` (not 4–6 digits, one digit repeated, a run
    up or down), `invalid_pin_block` (does not decrypt under `key_id`), `nonce_reused`,
    `card_not_physical`, `card_closed`. Event `card.pin.updated`."""
    body = await read_json(request, SetPinRequest)
    asked = pin.SetPin(
        user_uuid=caller.user_uuid,
        card_uuid=uuid.UUID(card_uuid),
        key_id=body.key_id,
        encrypted_pin=body.encrypted_pin,
        mfa_code=body.mfa_code,
        request_id=getattr(request.state, "request_id", None),
        now=utcnow(),
    )
    cipher = request.app.state.cipher
    try:
        record = await db.transact(lambda tx: pin.set_pin(tx, cipher, asked))
    except reveal.StepUpFailed:
        verdict = await count_failed_attempt(request)  # as a reveal's wrong code
        if not verdict.allowed:
            raise RateLimited(verdict.retry_after) from None
        raise
    return ok(record, headers=NO_STORE)

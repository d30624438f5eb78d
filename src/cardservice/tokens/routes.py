"""The holder's view of a card's wallet tokens (docs/network.md#wallet-tokens): list, suspend,
resume, delete."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path

from cardservice.auth.dependencies import CallerA
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_OR_MFA, Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.models.base import utcnow
from cardservice.tokens import service
from cardservice.tokens.schemas import TokenRecord
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["cards"])
CardUuid = Annotated[
    str, Path(alias="cardUuid", pattern=UUID_PATTERN, description="The card's uuid")
]
TokenUuid = Annotated[
    str,
    Path(
        alias="tokenUuid",
        pattern=UUID_PATTERN,
        description="The token's uuid (`GET /card/{cardUuid}/tokens`)",
    ),
]


@router.get(
    "/card/{cardUuid:uuid36}/tokens",
    response_model=Envelope[list[TokenRecord]],
    openapi_extra=BEARER_OR_MFA,
    summary="List a card's wallet tokens",
)
async def list_tokens(caller: CallerA, db: Db, card_uuid: CardUuid) -> JSONResponse:
    """The digital-wallet tokens (Apple Pay, Google Pay, …) of one of the caller's cards,
    oldest first: wallet, device, the last four digits of the device PAN, status. A team
    owner also reads a member's card's (read-only: its actions stay the holder's); another
    user's card → 404."""
    tokens = await service.card_tokens(
        db.reader, caller.user_uuid, caller.owned_team, uuid.UUID(card_uuid)
    )
    return ok(tokens)


async def _change(
    caller: CallerA, db: Db, card_uuid: str, token_uuid: str, action: str
) -> JSONResponse:
    card, token, now = uuid.UUID(card_uuid), uuid.UUID(token_uuid), utcnow()
    return ok(
        await db.transact(
            lambda tx: service.change_token(tx, caller.user_uuid, card, token, action, now)
        )
    )


@router.post(
    "/card/{cardUuid:uuid36}/tokens/{tokenUuid:uuid36}/suspend",
    response_model=Envelope[TokenRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Suspend a wallet token",
)
async def suspend_token(
    caller: CallerA, db: Db, card_uuid: CardUuid, token_uuid: TokenUuid
) -> JSONResponse:
    """The wallet's payments are declined (`token_inactive`) until the token is resumed. A
    token still waiting for its activation code → 422 `token_requires_activation`; a deleted
    one → 422 `token_deleted`."""
    return await _change(caller, db, card_uuid, token_uuid, "suspend")


@router.post(
    "/card/{cardUuid:uuid36}/tokens/{tokenUuid:uuid36}/resume",
    response_model=Envelope[TokenRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Resume a suspended wallet token",
)
async def resume_token(
    caller: CallerA, db: Db, card_uuid: CardUuid, token_uuid: TokenUuid
) -> JSONResponse:
    """The token pays again. A deleted token → 422 `token_deleted`."""
    return await _change(caller, db, card_uuid, token_uuid, "resume")


@router.post(
    "/card/{cardUuid:uuid36}/tokens/{tokenUuid:uuid36}/delete",
    response_model=Envelope[TokenRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Delete a wallet token",
)
async def delete_token(
    caller: CallerA, db: Db, card_uuid: CardUuid, token_uuid: TokenUuid
) -> JSONResponse:
    """The token is removed from its wallet for good: its payments are answered as an
    unknown card's."""
    return await _change(caller, db, card_uuid, token_uuid, "delete")

"""Endpoints 18 and 20 of the seed."""

from __future__ import annotations

from fastapi import Request

from cardservice.auth.dependencies import CallerA, CallerB
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_ONLY, BEARER_OR_MFA, Envelope
from cardservice.http.router import JSONResponse, Router, ok
from cardservice.models.base import utcnow
from cardservice.transactions import ThreeDsRecord, unassigned_codes
from cardservice.users.schemas import UserSummary
from cardservice.users.summary import user_summary

router = Router(tags=["users"])


@router.get(
    "/user/summary",
    response_model=Envelope[UserSummary],
    openapi_extra=BEARER_OR_MFA,
    summary="Balances, counts and spend of the caller",
)
async def get_user_summary(caller: CallerA, db: Db) -> JSONResponse:
    """The caller at a glance: who they are, balances per currency (accounts and cards),
    accounts by status, cards by status and favorites, spend per currency today, the last 7
    days and this month, and how many 3DS codes wait unused."""
    return ok(await user_summary(db.reader, caller.user_uuid, utcnow()))


@router.get(
    "/user/3ds-unassigned",
    response_model=Envelope[list[ThreeDsRecord]],
    openapi_extra=BEARER_ONLY,
    summary="3DS codes not yet used, newest first (bearer token only)",
)
async def list_unassigned_three_ds_codes(request: Request, caller: CallerB, db: Db) -> JSONResponse:
    """3DS codes received for the caller's cards that are neither used nor expired, newest
    first. Bearer token only: an MFA code as the credential → 403."""
    cipher = request.app.state.cipher
    return ok(await unassigned_codes(db.reader, cipher, caller.user_uuid, utcnow()))

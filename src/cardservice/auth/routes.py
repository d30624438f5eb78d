"""`POST /auth/mfa-code`: a signed-in user issues themself a short-lived MFA code."""

from __future__ import annotations

from datetime import datetime, timedelta

from fastapi import Request
from pydantic import BaseModel

from cardservice.auth.credentials import issue_mfa_code
from cardservice.auth.dependencies import CallerB
from cardservice.db.sql import Tx
from cardservice.http.database import Db
from cardservice.http.openapi import BEARER_ONLY, Envelope
from cardservice.http.router import JSONResponse, Router, ok

router = Router(tags=["auth"])


class MfaCodeRecord(BaseModel):
    code: str
    expires_at: datetime


@router.post(
    "/auth/mfa-code",
    status_code=201,
    response_model=Envelope[MfaCodeRecord],
    openapi_extra=BEARER_ONLY,
    summary="Issue an MFA code",
)
async def create_mfa_code(request: Request, caller: CallerB, db: Db) -> JSONResponse:
    """Issue an MFA code for the caller (bearer only); it is shown once and dies with the
    token that minted it."""
    ttl = timedelta(seconds=request.app.state.settings.mfa_ttl_seconds)

    async def work(tx: Tx) -> tuple[str, datetime]:
        return await issue_mfa_code(tx, caller.user_uuid, ttl, caller.token_uuid)

    code, expires_at = await db.transact(work)
    return ok(MfaCodeRecord(code=code, expires_at=expires_at), status_code=201)

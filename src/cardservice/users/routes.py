"""Endpoints 18 and 20 of the seed, and spend in view."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from fastapi import Query, Request

from cardservice.auth.dependencies import CallerA, CallerB
from cardservice.errors import ValidationFailed
from cardservice.http.database import Db
from cardservice.http.filters import DATE
from cardservice.http.openapi import BEARER_ONLY, BEARER_OR_MFA, Envelope
from cardservice.http.router import JSONResponse, NoNul, QueryText, Router, ok
from cardservice.models.base import utcnow
from cardservice.transactions import ThreeDsRecord, unassigned_codes
from cardservice.users.schemas import SpendRow, UserSummary
from cardservice.users.spend import SpendGroup, SpendKind, spend, window
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


@router.get(
    "/user/spend",
    response_model=Envelope[list[SpendRow]],
    openapi_extra=BEARER_OR_MFA,
    summary="Where the money went: spend per merchant, card, tag or member",
)
async def get_user_spend(
    caller: CallerA,
    db: Db,
    since: Annotated[
        QueryText | None,
        Query(alias="from", description="First UTC day, YYYY-MM-DD; default the 1st of this month"),
    ] = None,
    until: Annotated[
        QueryText | None,
        Query(alias="to", description="Last UTC day (inclusive), YYYY-MM-DD; default today"),
    ] = None,
    group_by: Annotated[
        SpendGroup, NoNul, Query(description="merchant, card, tag or member (default merchant)")
    ] = "merchant",
    limit: Annotated[int, Query(ge=1, le=500, description="At most this many rows")] = 100,
    kind: Annotated[
        SpendKind | None,
        NoNul,
        Query(alias="type", description="card_purchase or atm_withdrawal only (default both)"),
    ] = None,
) -> JSONResponse:
    """Approved card purchases and ATM withdrawals less refunds, created in the window, per
    group and currency, largest first: `[{key, name, count, amount, currency}]`
    (docs/transactions.md#spend-in-view); per merchant, the withdrawals are one row (`key`
    null). A team owner's includes the team's users; `group_by=member` gives one row per
    person."""
    first, last = window(_day(since, "from"), _day(until, "to"), utcnow().date())
    if last < first:
        raise ValidationFailed(errors={"to": ["must be on or after from"]})
    rows = await spend(
        db.reader, caller.user_uuid, caller.owned_team, group_by, first, last, limit, kind
    )
    return ok(rows)


def _day(text: str | None, name: str) -> date | None:
    """A `YYYY-MM-DD` query parameter as the report's date filters read it; else 422."""
    if text is None:
        return None
    try:
        day: date = DATE.parse(text)
    except ValueError as exc:
        raise ValidationFailed(errors={name: [str(exc)]}) from None
    return day

"""Endpoints 5 and 9 of the seed."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import APIRouter, Path, Request

from cardservice.accounts import listing, service
from cardservice.accounts.schemas import AccountRecord, AccountsPage
from cardservice.auth.dependencies import CallerA
from cardservice.catalogue.loader import load_catalogue
from cardservice.openapi import (
    BEARER_OR_MFA,
    UUID_PATTERN,
    Envelope,
    PagedEnvelope,
    filters_parameter,
)
from cardservice.web import (
    JSONResponse,
    StandardPage,
    ok,
    one_of,
    read_filters,
    text_filter,
)

router = APIRouter(tags=["accounts"])


def _currency(value: str) -> str:
    if not service.CURRENCY_PATTERN.match(value):
        raise ValueError("must be an ISO 4217 code such as USD")
    return value


# The account-types dictionary is the shipped catalogue's (migrations copy it into the table).
ACCOUNT_TYPES = tuple(entry["slug"] for entry in load_catalogue()["account_types"])
ACCOUNT_FILTERS = {
    "status": one_of(*service.ACCOUNT_STATUSES),
    "type": one_of(*ACCOUNT_TYPES),
    "currency": _currency,
    "search": text_filter(120),
}


@router.get(
    "/accounts",
    response_model=PagedEnvelope[AccountsPage],
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(
            {
                "status": {"type": "string", "enum": list(service.ACCOUNT_STATUSES)},
                "type": {"type": "string", "enum": list(ACCOUNT_TYPES)},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "search": {"type": "string", "minLength": 1, "maxLength": 120},
            }
        ),
    },
    summary="List the caller's accounts and, for a team owner, the team's",
)
async def list_accounts(request: Request, caller: CallerA, page: StandardPage) -> JSONResponse:
    filters = read_filters(request, ACCOUNT_FILTERS)
    reader = request.app.state.db.reader
    items, related, total = await listing.list_accounts(reader, caller, filters, page)
    return ok({"items": items, "related_team_accounts": related}, meta=page.meta(total))


@router.get(
    "/account/{userAccountUuid:uuid36}",
    response_model=Envelope[AccountRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one account",
)
async def get_account(
    request: Request,
    caller: CallerA,
    account_uuid: Annotated[str, Path(alias="userAccountUuid", pattern=UUID_PATTERN)],
) -> JSONResponse:
    async with request.app.state.db.read() as session:
        return ok(await service.get_account(session, caller, uuid.UUID(account_uuid)))

"""Endpoints 5 and 9 of the seed."""

from __future__ import annotations

import uuid
from typing import Annotated

from fastapi import Path, Request

from cardservice.accounts import service
from cardservice.accounts.schemas import AccountRecord, AccountsPage
from cardservice.auth.dependencies import CallerA
from cardservice.catalogue import load_catalogue
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, matching, one_of, read_filters, text
from cardservice.http.openapi import BEARER_OR_MFA, Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, ok
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["accounts"])


# The account-types dictionary is the shipped catalogue's (migrations copy it into the table).
ACCOUNT_TYPES = tuple(entry["slug"] for entry in load_catalogue()["account_types"])
ACCOUNT_FILTERS = {
    "status": one_of(*service.ACCOUNT_STATUSES).describe("Only accounts in this status"),
    "type": one_of(*ACCOUNT_TYPES).describe("Only accounts of this type"),
    "currency": matching("[A-Z]{3}", "must be an ISO 4217 code such as USD").describe(
        "Only accounts in this currency (ISO 4217, upper case, e.g. `USD`)"
    ),
    "search": text(120).describe("Part of the account's name, any case"),
}


@router.get(
    "/accounts",
    response_model=PagedEnvelope[AccountsPage],
    openapi_extra={
        **BEARER_OR_MFA,
        **filters_parameter(ACCOUNT_FILTERS),
    },
    summary="List the caller's accounts and, for a team owner, the team's",
)
async def list_accounts(
    request: Request, caller: CallerA, db: Db, page: StandardPage
) -> JSONResponse:
    """The caller's accounts in `data.items` (paginated, oldest first, `meta` as usual) and,
    for a team owner, the team members' accounts in `data.related_team_accounts` (read-only, at
    most 500, unpaginated). Both honour the same filters."""
    filters = read_filters(request, ACCOUNT_FILTERS)
    items, related, total = await service.list_accounts(db.reader, caller, filters, page)
    return ok({"items": items, "related_team_accounts": related}, meta=page.meta(total))


@router.get(
    "/account/{userAccountUuid:uuid36}",
    response_model=Envelope[AccountRecord],
    openapi_extra=BEARER_OR_MFA,
    summary="Read one account",
)
async def get_account(
    caller: CallerA,
    db: Db,
    account_uuid: Annotated[
        str,
        Path(
            alias="userAccountUuid",
            pattern=UUID_PATTERN,
            description="The account's uuid (`GET /accounts`)",
        ),
    ],
) -> JSONResponse:
    """One account: balance in its currency, status, number of cards and `card_info` (its first
    card, in the caller's card order, that is not closed). A team owner may read a member's
    account; anyone else's answers 404."""
    return ok(await service.get_account(db.reader, caller, uuid.UUID(account_uuid)))

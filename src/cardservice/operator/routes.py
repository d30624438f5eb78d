"""`/operator/*` (docs/operations.md#running-a-program): users and funding. Every route takes an
operator key with its scope (operator/dependencies.py)."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Annotated, Any

from fastapi import Depends, Path, Request

from cardservice.accounts import AccountRecord
from cardservice.db.sql import Tx
from cardservice.http.database import Db
from cardservice.http.filters import filters_parameter, one_of, read_filters, text
from cardservice.http.openapi import Envelope, PagedEnvelope
from cardservice.http.router import JSONResponse, Router, StandardPage, body_schema, ok, read_json
from cardservice.operator import funding, service
from cardservice.operator.acting import Acting
from cardservice.operator.api_keys import Operator
from cardservice.operator.dependencies import OPERATOR_KEY, acting, operator_with
from cardservice.operator.schemas import (
    ChangeAccountRequest,
    ChangeUserRequest,
    CreateAccountRequest,
    CreateUserRequest,
    IssuedToken,
    IssueTokenRequest,
    MoneyRequest,
    SignInLink,
    UserRecord,
)
from cardservice.transactions import TransactionRecord
from cardservice.values.patterns import UUID_PATTERN

router = Router(tags=["operator"])

Users = Annotated[Operator, Depends(operator_with("users"))]
Funding = Annotated[Operator, Depends(operator_with("funding"))]
UserUuid = Annotated[
    str,
    Path(
        alias="userUuid",
        pattern=UUID_PATTERN,
        description="The user's uuid (`GET /operator/users`)",
    ),
]
AccountUuid = Annotated[
    str,
    Path(
        alias="accountUuid",
        pattern=UUID_PATTERN,
        description="The account's uuid (`POST /operator/accounts`'s)",
    ),
]
USER_FILTERS = {
    "email": text(254).describe("The user with this email (case and surrounding spaces ignored)"),
    "status": one_of("active", "suspended").describe("Only users in this status"),
}


def _extra(body: Any = None, **more: Any) -> dict[str, Any]:
    return {**OPERATOR_KEY, **(body_schema(body) if body else {}), **more}


@router.post(
    "/operator/users",
    status_code=201,
    response_model=Envelope[UserRecord],
    openapi_extra=_extra(CreateUserRequest),
    summary="Onboard a user",
)
async def create_user(request: Request, operator: Users, db: Db) -> JSONResponse:
    """Onboard a cardholder (scope `users`): email (unique, else 409 `email_taken`), name,
    optional team and role, optional program. Answers 201 with the user; issue a token or a
    sign-in link next."""
    body = await read_json(request, CreateUserRequest)
    by = acting(request, operator)
    return ok(await db.transact(lambda tx: service.onboard_user(tx, by, body)), status_code=201)


@router.get(
    "/operator/users",
    response_model=PagedEnvelope[list[UserRecord]],
    openapi_extra=_extra(**filters_parameter(USER_FILTERS)),
    summary="List users, oldest first",
)
async def list_users(
    request: Request, _operator: Users, db: Db, page: StandardPage
) -> JSONResponse:
    """Every user, oldest first, paginated (scope `users`)."""
    filters = read_filters(request, USER_FILTERS)
    users, total = await service.list_users(db.reader, filters, page)
    return ok(users, meta=page.meta(total))


@router.get(
    "/operator/users/{userUuid:uuid36}",
    response_model=Envelope[UserRecord],
    openapi_extra=_extra(),
    summary="Read a user",
)
async def get_user(_operator: Users, db: Db, user_uuid: UserUuid) -> JSONResponse:
    """One user (scope `users`)."""
    return ok(await service.get_user(db.reader, uuid.UUID(user_uuid)))


@router.patch(
    "/operator/users/{userUuid:uuid36}",
    response_model=Envelope[UserRecord],
    openapi_extra=_extra(ChangeUserRequest),
    summary="Rename, suspend or re-activate a user, or change their program",
)
async def patch_user(
    request: Request, operator: Users, db: Db, user_uuid: UserUuid
) -> JSONResponse:
    """Change a user's name, program, or status (scope `users`): a `suspended` user's
    credentials answer 401 and their cards decline `account_inactive` until re-activated."""
    body = await read_json(request, ChangeUserRequest)
    user, by = uuid.UUID(user_uuid), acting(request, operator)
    return ok(await db.transact(lambda tx: service.change_user(tx, by, user, body)))


@router.post(
    "/operator/users/{userUuid:uuid36}/tokens",
    status_code=201,
    response_model=Envelope[IssuedToken],
    openapi_extra=_extra(IssueTokenRequest),
    summary="Issue a bearer token for a user (shown once)",
)
async def issue_token(
    request: Request, operator: Users, db: Db, user_uuid: UserUuid
) -> JSONResponse:
    """A bearer token (`cs_…`) for the user, shown once (scope `users`); it expires after
    `expires_in_days`."""
    body = await read_json(request, IssueTokenRequest)
    user, by = uuid.UUID(user_uuid), acting(request, operator)
    days = body.expires_in_days
    expires = timedelta(days=days) if days else None

    async def work(tx: Tx) -> dict[str, Any]:
        token, expires_at = await service.issue_user_token(tx, by, user, body.name, expires)
        return {"token": token, "expires_at": expires_at}

    return ok(await db.transact(work), status_code=201, headers={"Cache-Control": "no-store"})


@router.post(
    "/operator/users/{userUuid:uuid36}/sign-in-links",
    status_code=201,
    response_model=Envelope[SignInLink],
    openapi_extra=_extra(),
    summary="A one-time dashboard sign-in link for a user",
)
async def sign_in_link(
    request: Request, operator: Users, db: Db, user_uuid: UserUuid
) -> JSONResponse:
    """A one-time link that signs the user in to the dashboard, valid 15 minutes (scope
    `users`)."""
    user, base, by = uuid.UUID(user_uuid), str(request.base_url), acting(request, operator)

    async def work(tx: Tx) -> dict[str, Any]:
        url, expires_at = await service.sign_in_link(tx, by, user, base)
        return {"url": url, "expires_at": expires_at}

    return ok(await db.transact(work), status_code=201, headers={"Cache-Control": "no-store"})


@router.post(
    "/operator/accounts",
    status_code=201,
    response_model=Envelope[AccountRecord],
    openapi_extra=_extra(CreateAccountRequest),
    summary="Open an account for a user",
)
async def create_account(request: Request, operator: Funding, db: Db) -> JSONResponse:
    """Open an account for a user in one currency (scope `funding`). Answers 201 with the
    account (balance 0; fund it with a credit)."""
    body = await read_json(request, CreateAccountRequest)
    by = acting(request, operator)
    return ok(await db.transact(lambda tx: funding.open_account(tx, by, body)), status_code=201)


@router.patch(
    "/operator/accounts/{accountUuid:uuid36}",
    response_model=Envelope[AccountRecord],
    openapi_extra=_extra(ChangeAccountRequest),
    summary="Freeze, close or re-activate an account",
)
async def patch_account(
    request: Request, operator: Funding, db: Db, account_uuid: AccountUuid
) -> JSONResponse:
    """Freeze, close or re-activate an account (scope `funding`). A frozen or closed account's
    cards decline `account_inactive`."""
    body = await read_json(request, ChangeAccountRequest)
    account, by = uuid.UUID(account_uuid), acting(request, operator)
    return ok(
        await db.transact(lambda tx: funding.change_account_status(tx, by, account, body.status))
    )


async def _money(
    request: Request, by: Acting, db: Db, account_uuid: str, direction: funding.Direction
) -> JSONResponse:
    body = await read_json(request, MoneyRequest)
    record, replayed = await funding.move_money(db, by, direction, uuid.UUID(account_uuid), body)
    headers = {"Idempotent-Replayed": "true"} if replayed else None
    return ok(record, status_code=200 if replayed else 201, headers=headers)


@router.post(
    "/operator/accounts/{accountUuid:uuid36}/credits",
    status_code=201,
    response_model=Envelope[TransactionRecord],
    openapi_extra=_extra(MoneyRequest),
    summary="Credit an account (a deposit), once per external_id",
)
async def credit_account(
    request: Request, operator: Funding, db: Db, account_uuid: AccountUuid
) -> JSONResponse:
    """Money arrived for the account (scope `funding`): a `deposit` transaction, once per
    `external_id` — the same body again answers 200 with the same transaction, another body
    409."""
    return await _money(request, acting(request, operator), db, account_uuid, "credit")


@router.post(
    "/operator/accounts/{accountUuid:uuid36}/debits",
    status_code=201,
    response_model=Envelope[TransactionRecord],
    openapi_extra=_extra(MoneyRequest),
    summary="Debit an account (a withdrawal), once per external_id",
)
async def debit_account(
    request: Request, operator: Funding, db: Db, account_uuid: AccountUuid
) -> JSONResponse:
    """Take money out of the account (scope `funding`): a `withdrawal` transaction, once per
    `external_id`; 422 `insufficient_funds` when the account cannot pay. The same body again
    answers 200 with the same transaction, another body 409."""
    return await _money(request, acting(request, operator), db, account_uuid, "debit")

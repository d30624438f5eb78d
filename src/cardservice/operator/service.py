"""The operator's use cases for users: onboarding, suspension, tokens and sign-in links.

The CLI's `users`, `tokens` and `dashboard link` commands call these same functions.
A suspended user's tokens, MFA codes and dashboard sessions are refused at once in this
process (its token cache is dropped) and within `auth_cache_seconds` in the others; their
cards decline `account_inactive` (transactions/engine.py).
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from cardservice.auth import forget_cached_callers, issue_token
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx, as_datetime
from cardservice.errors import NotFound, RuleViolation, ValidationFailed
from cardservice.operator import repository
from cardservice.operator.acting import Acting
from cardservice.operator.schemas import ChangeUserRequest, CreateUserRequest
from cardservice.users import create_sign_in_link, create_user, user_record

DEFAULT_TOKEN_NAME = "operator"  # noqa: S105 - a label, not a secret


class UserNotFound(NotFound):
    message = "User not found."


class UserSuspended(RuleViolation):
    code, message = "user_suspended", "The user is suspended."


async def onboard_user(tx: Tx, acting: Acting, body: CreateUserRequest) -> dict[str, Any]:
    """A new active user (409 `email_taken`), in a program when named; its record."""
    program = uuid.UUID(body.program_uuid) if body.program_uuid else None
    user_uuid = await create_user(tx, body.email, body.name, body.team, body.role, program)
    await acting.record(tx, "user.created", "user", user_uuid)
    return await get_user(tx, user_uuid)


async def list_users(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    rows, total = await repository.page_of_users(reader, filters, page.offset, page.size)
    return [user_record(row) for row in rows], total


async def get_user(reader: Reader | Tx, user_uuid: uuid.UUID) -> dict[str, Any]:
    row = await repository.user_row(reader, user_uuid)
    if row is None:
        raise UserNotFound()
    return user_record(row)


async def change_user(
    tx: Tx, acting: Acting, user_uuid: uuid.UUID, body: ChangeUserRequest
) -> dict[str, Any]:
    """Rename, suspend or re-activate a user, or move them to another program (or none)."""
    if await repository.lock_user(tx, user_uuid) is None:
        raise UserNotFound()
    sent = body.model_fields_set
    columns: dict[str, Any] = {}
    if "name" in sent:
        if body.name is None:
            raise ValidationFailed(errors={"name": ["must be 1..120 characters"]})
        columns["name"] = body.name.strip()
    if "status" in sent:
        if body.status is None:
            raise ValidationFailed(errors={"status": ["must be active or suspended"]})
        columns["status"] = body.status
    if "program_uuid" in sent:
        program = uuid.UUID(body.program_uuid) if body.program_uuid else None
        if program is not None and not await repository.program_exists(tx, program):
            raise ValidationFailed(errors={"program_uuid": ["no such program"]})
        columns["program_uuid"] = program
    if columns:
        await repository.update_user(tx, user_uuid, columns)
        changed = {k: str(v) if isinstance(v, uuid.UUID) else v for k, v in columns.items()}
        await acting.record(tx, "user.updated", "user", user_uuid, changed)
    if columns.get("status") == "suspended":
        forget_cached_callers()
    return await get_user(tx, user_uuid)


async def issue_user_token(
    tx: Tx, acting: Acting, user_uuid: uuid.UUID, name: str | None, expires_in: timedelta | None
) -> tuple[str, datetime | None]:
    """A bearer token for an active user: the plaintext (shown once) and its expiry."""
    user = await repository.lock_user(tx, user_uuid)
    if user is None:
        raise UserNotFound()
    if user["status"] != "active":
        raise UserSuspended()
    token_uuid, plaintext = await issue_token(
        tx, user_uuid, name or DEFAULT_TOKEN_NAME, expires_in, acting.operator_key
    )
    await acting.record(tx, "user.token_issued", "user", user_uuid, {"token_uuid": str(token_uuid)})
    expires_at = await repository.token_expiry(tx, token_uuid)
    return plaintext, as_datetime(expires_at)


async def sign_in_link(
    tx: Tx, acting: Acting, user_uuid: uuid.UUID, base_url: str
) -> tuple[str, datetime]:
    """A one-time dashboard sign-in link for an active user, and when it expires."""
    user = await repository.lock_user(tx, user_uuid)
    if user is None:
        raise UserNotFound()
    if user["status"] != "active":
        raise UserSuspended()
    secret, expires_at = await create_sign_in_link(tx, user["email"])
    await acting.record(tx, "user.sign_in_link_created", "user", user_uuid)
    return f"{base_url.rstrip('/')}/app/login?link={secret}", expires_at

"""Account rules: creation, status changes, and who may see which account."""

from __future__ import annotations

import re
import uuid
from typing import Any

from cardservice.accounts import repository
from cardservice.accounts.records import account_record
from cardservice.auth.credentials import Principal
from cardservice.errors import AccountNotFound, ValidationFailed
from cardservice.models.base import utcnow
from cardservice.pages import Page
from cardservice.sql import Reader, Tx

ACCOUNT_STATUSES = ("active", "frozen", "closed")
CURRENCY_PATTERN = re.compile(r"^[A-Z]{3}$")


async def create_account(
    tx: Tx, user_uuid: uuid.UUID, name: str, currency: str, type_: str = "main"
) -> uuid.UUID:
    """A new active account with a zero balance; its uuid."""
    errors: dict[str, list[str]] = {}
    if not name.strip() or len(name) > 120:
        errors["name"] = ["must be 1..120 characters"]
    if not CURRENCY_PATTERN.match(currency):
        errors["currency"] = ["must be an ISO 4217 code such as USD"]
    if not await repository.account_type_exists(tx, type_):
        errors["type"] = ["must be one of the account-types dictionary"]
    if errors:
        raise ValidationFailed(errors=errors)
    account_uuid = uuid.uuid4()
    await repository.insert_account(
        tx, account_uuid, user_uuid, name.strip(), type_, currency, utcnow()
    )
    return account_uuid


async def set_account_status(tx: Tx, account_uuid: uuid.UUID, status: str) -> str:
    """Freeze, close or re-activate an account (operator action); the new status."""
    if status not in ACCOUNT_STATUSES:
        raise ValidationFailed(errors={"status": [f"must be one of {', '.join(ACCOUNT_STATUSES)}"]})
    changed = await repository.set_status(tx, account_uuid, status, utcnow())
    if changed is None:
        raise AccountNotFound()
    return str(changed)


def _owned_team(caller: Principal) -> uuid.UUID | None:
    return caller.team_uuid if caller.is_team_owner else None


async def list_accounts(
    reader: Reader, caller: Principal, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The caller's accounts (a page, oldest first) and, for a team owner, the members'
    (read-only, same filters)."""
    rows, total = await repository.page_of_accounts(
        reader, caller.user_uuid, filters, page.offset, page.size
    )
    related: list[dict[str, Any]] = []
    team = _owned_team(caller)
    if team is not None:
        members = await repository.team_accounts(reader, team, caller.user_uuid, filters)
        related = [account_record(row) for row in members]
    return [account_record(row) for row in rows], related, total


async def get_account(reader: Reader, caller: Principal, account_uuid: uuid.UUID) -> dict[str, Any]:
    """An own account, or a team member's for the team owner; otherwise 404."""
    row = await repository.visible_account(
        reader, account_uuid, caller.user_uuid, _owned_team(caller)
    )
    if row is None:
        raise AccountNotFound()
    return account_record(row)

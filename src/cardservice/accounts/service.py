"""Account rules: creation, status changes, and who may see which account."""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.accounts import repository
from cardservice.accounts.records import account_record
from cardservice.auth import Principal
from cardservice.catalogue import account_currencies
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx
from cardservice.errors import AccountNotFound, ValidationFailed
from cardservice.models.base import utcnow

ACCOUNT_STATUSES = ("active", "frozen", "closed")


async def create_account(
    tx: Tx, user_uuid: uuid.UUID, name: str, currency: str, type_: str = "main"
) -> uuid.UUID:
    """A new active account with a zero balance, in one of the catalogue's currencies as
    spelled there (`catalogue.loader.account_currencies`: `eur` is refused); its uuid."""
    errors: dict[str, list[str]] = {}
    if not name.strip() or len(name) > 120:
        errors["name"] = ["must be 1..120 characters"]
    if currency not in account_currencies():  # exact: the catalogue's spelling, upper case
        known = ", ".join(account_currencies())
        errors["currency"] = [f"must be one of the catalogue's currencies: {known}"]
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


async def list_accounts(
    reader: Reader, caller: Principal, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], int]:
    """The caller's accounts (a page, oldest first) and, for a team owner, the members'
    (read-only, same filters)."""
    records, total = await own_accounts(reader, caller.user_uuid, filters, page)
    related: list[dict[str, Any]] = []
    team = caller.owned_team
    if team is not None:
        members = await repository.team_accounts(reader, team, caller.user_uuid, filters)
        related = [account_record(row) for row in members]
    return records, related, total


async def own_accounts(
    reader: Reader, user_uuid: uuid.UUID, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """A page of the user's own accounts, oldest first, and how many match."""
    rows, total = await repository.page_of_accounts(
        reader, user_uuid, filters, page.offset, page.size
    )
    return [account_record(row) for row in rows], total


async def every_account(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """A page of every user's accounts, oldest first (the operator's read-back: `filters`
    may name a `user_uuid`), and how many match."""
    rows, total = await repository.page_of_accounts(reader, None, filters, page.offset, page.size)
    return [account_record(row) for row in rows], total


async def get_account(reader: Reader, caller: Principal, account_uuid: uuid.UUID) -> dict[str, Any]:
    """An own account, or a team member's for the team owner; otherwise 404."""
    row = await repository.visible_account(
        reader, account_uuid, caller.user_uuid, caller.owned_team
    )
    if row is None:
        raise AccountNotFound()
    return account_record(row)


async def any_account(reader: Reader | Tx, account_uuid: uuid.UUID) -> dict[str, Any]:
    """Any user's account (the operator's read: no owner check); otherwise 404."""
    row = await repository.any_account(reader, account_uuid)
    if row is None:
        raise AccountNotFound()
    return account_record(row)


async def account_in(source: Reader | Tx, user_uuid: uuid.UUID, currency: str) -> uuid.UUID | None:
    """An account of the user's in `currency`, or None."""
    return await repository.account_in(source, user_uuid, currency)

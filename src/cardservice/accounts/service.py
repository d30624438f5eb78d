"""Account rules: creation, status changes, and who may see which account."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.accounts import repository
from cardservice.accounts.schemas import AccountRecord, Owner
from cardservice.auth.credentials import Principal
from cardservice.cards.records import card_record
from cardservice.errors import NotFound, ValidationFailed
from cardservice.ledger.money import from_minor
from cardservice.models import Account, DictionaryEntry

ACCOUNT_STATUSES = ("active", "frozen", "closed")
CURRENCY_PATTERN = re.compile(r"^[A-Z]{3}$")


class AccountNotFound(NotFound):
    message = "Account not found."


async def create_account(
    session: AsyncSession, user_uuid: uuid.UUID, name: str, currency: str, type_: str = "main"
) -> Account:
    """A new active account with a zero balance."""
    errors: dict[str, list[str]] = {}
    if not name.strip() or len(name) > 120:
        errors["name"] = ["must be 1..120 characters"]
    if not CURRENCY_PATTERN.match(currency):
        errors["currency"] = ["must be an ISO 4217 code such as USD"]
    known_types = await session.scalars(
        select(DictionaryEntry.slug).where(DictionaryEntry.kind == "account_type")
    )
    if type_ not in set(known_types):
        errors["type"] = ["must be one of the account-types dictionary"]
    if errors:
        raise ValidationFailed(errors=errors)
    account = Account(
        user_uuid=user_uuid,
        name=name.strip(),
        currency=currency,
        type=type_,
        status="active",
        balance=0,
    )
    session.add(account)
    await session.flush()
    return account


async def set_account_status(
    session: AsyncSession, account_uuid: uuid.UUID, status: str
) -> Account:
    """Freeze, close or re-activate an account (operator action)."""
    if status not in ACCOUNT_STATUSES:
        raise ValidationFailed(errors={"status": [f"must be one of {', '.join(ACCOUNT_STATUSES)}"]})
    account = await session.get(Account, account_uuid, with_for_update=True, populate_existing=True)
    if account is None:
        raise AccountNotFound()
    account.status = status
    await session.flush()
    return account


async def _records(session: AsyncSession, rows: Sequence[Any]) -> list[AccountRecord]:
    uuids = [row[0].uuid for row in rows]
    primary = await repository.primary_cards(session, uuids)
    counts = await repository.card_counts(session, uuids)
    records = []
    for account, owner_name in rows:
        card = primary.get(account.uuid)
        records.append(
            AccountRecord(
                uuid=account.uuid,
                name=account.name,
                type=account.type,
                status=account.status,
                currency=account.currency,
                balance=from_minor(account.balance),
                cards_count=counts.get(account.uuid, 0),
                card_info=card_record(card) if card else None,
                owner=Owner(uuid=account.user_uuid, name=owner_name),
                created_at=account.created_at,
                updated_at=account.updated_at,
            )
        )
    return records


async def get_account(
    session: AsyncSession, caller: Principal, account_uuid: uuid.UUID
) -> AccountRecord:
    """An own account, or a team member's for the team owner; otherwise 404."""
    owners: Any = [caller.user_uuid]
    if caller.is_team_owner and caller.team_uuid is not None:
        members = list(
            await session.scalars(repository.team_members(caller.team_uuid, caller.user_uuid))
        )
        owners = [caller.user_uuid, *members]
    row = await repository.visible_account(session, account_uuid, owners)
    if row is None:
        raise AccountNotFound()
    return (await _records(session, [row]))[0]

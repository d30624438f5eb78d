"""Locked and fresh reads of the rows money moves through (Core selects: no ORM identity map
to go stale, no unit of work to flush)."""

from __future__ import annotations

import uuid

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.dictionaries.fees import OVERRIDES
from cardservice.models import Account, Card, TransactionTag
from cardservice.models.base import AnyRow, table_of

ACCOUNTS = table_of(Account)
CARDS = table_of(Card)
TAGS = table_of(TransactionTag)

CARD_COLUMNS = (
    CARDS.c.uuid,
    CARDS.c.user_uuid,
    CARDS.c.account_uuid,
    CARDS.c.currency,
    CARDS.c.balance,
    CARDS.c.status,
    CARDS.c.expiry_month,
    CARDS.c.expiry_year,
    CARDS.c.auto_replenish_amount,
    CARDS.c.auto_replenish_min_balance,
)


async def lock_card_account(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID
) -> AnyRow | None:
    """The account (uuid, status, balance) of one of the user's cards, locked and read as it
    is now; None when the card is not the user's. Only the account row is locked."""
    return (
        await session.execute(
            select(ACCOUNTS.c.uuid, ACCOUNTS.c.status, ACCOUNTS.c.balance)
            .select_from(CARDS.join(ACCOUNTS, ACCOUNTS.c.uuid == CARDS.c.account_uuid))
            .where(CARDS.c.uuid == card_uuid, CARDS.c.user_uuid == user_uuid)
            .with_for_update(of=ACCOUNTS)
        )
    ).one_or_none()


async def lock_card_with_fees(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID, tag: str | None
) -> list[AnyRow]:
    """The card row, locked and read as it is now, joined with the user's fee overrides (one
    row per override, or one row with none) and the merchant tag when one is named
    (`tag_slug` is None when no such tag exists). Only the card row is locked."""
    joined = CARDS.outerjoin(OVERRIDES, OVERRIDES.c.user_uuid == user_uuid)
    columns = [
        *CARD_COLUMNS,
        OVERRIDES.c.slug.label("fee_slug"),
        OVERRIDES.c.kind.label("fee_kind"),
        OVERRIDES.c.value.label("fee_value"),
    ]
    if tag is not None:
        joined = joined.outerjoin(TAGS, TAGS.c.slug == tag)
        columns += [TAGS.c.slug.label("tag_slug"), TAGS.c.restriction.label("tag_restriction")]
    rows = await session.execute(
        select(*columns)
        .select_from(joined)
        .where(CARDS.c.uuid == card_uuid)
        .with_for_update(of=CARDS)
    )
    return list(rows)


def overrides_in(rows: list[AnyRow]) -> set[tuple[str, str, int]]:
    """The fee overrides `(slug, kind, value)` carried by the rows of `lock_card_with_fees`."""
    return {(r.fee_slug, r.fee_kind, r.fee_value) for r in rows if r.fee_slug is not None}

"""Locked and fresh reads of the rows money moves through (Core selects: no ORM identity map
to go stale, no unit of work to flush)."""

from __future__ import annotations

import uuid

from sqlalchemy import bindparam, select
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


# Built once, executed with parameters (:card, :user, :tag).
_LOCK_CARD_ACCOUNT = (
    select(ACCOUNTS.c.uuid, ACCOUNTS.c.status, ACCOUNTS.c.balance)
    .select_from(CARDS.join(ACCOUNTS, ACCOUNTS.c.uuid == CARDS.c.account_uuid))
    .where(CARDS.c.uuid == bindparam("card"), CARDS.c.user_uuid == bindparam("user"))
    .with_for_update(of=ACCOUNTS)
)
_CARD_WITH_FEES = (
    select(
        *CARD_COLUMNS,
        OVERRIDES.c.slug.label("fee_slug"),
        OVERRIDES.c.kind.label("fee_kind"),
        OVERRIDES.c.value.label("fee_value"),
    )
    .select_from(CARDS.outerjoin(OVERRIDES, OVERRIDES.c.user_uuid == bindparam("user")))
    .where(CARDS.c.uuid == bindparam("card"))
    .with_for_update(of=CARDS)
)
_CARD_WITH_FEES_AND_TAG = _CARD_WITH_FEES.outerjoin(
    TAGS, TAGS.c.slug == bindparam("tag")
).add_columns(TAGS.c.slug.label("tag_slug"), TAGS.c.restriction.label("tag_restriction"))


async def lock_card_account(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID
) -> AnyRow | None:
    """The account (uuid, status, balance) of one of the user's cards, locked and read as it
    is now; None when the card is not the user's. Only the account row is locked."""
    found = await session.execute(_LOCK_CARD_ACCOUNT, {"card": card_uuid, "user": user_uuid})
    return found.one_or_none()


async def lock_card_with_fees(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID, tag: str | None
) -> list[AnyRow]:
    """The card row, locked and read as it is now, joined with the user's fee overrides (one
    row per override, or one row with none) and the merchant tag when one is named
    (`tag_slug` is None when no such tag exists). Only the card row is locked."""
    if tag is None:
        rows = await session.execute(_CARD_WITH_FEES, {"card": card_uuid, "user": user_uuid})
    else:
        rows = await session.execute(
            _CARD_WITH_FEES_AND_TAG, {"card": card_uuid, "user": user_uuid, "tag": tag}
        )
    return list(rows)


def overrides_in(rows: list[AnyRow]) -> set[tuple[str, str, int]]:
    """The fee overrides `(slug, kind, value)` carried by the rows of `lock_card_with_fees`."""
    return {(r.fee_slug, r.fee_kind, r.fee_value) for r in rows if r.fee_slug is not None}

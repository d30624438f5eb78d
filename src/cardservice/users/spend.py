"""Spend in view (docs/transactions.md#spend-in-view): where the money went, per merchant, card,
tag or team member, over a window of UTC days — for the caller, and for a team owner their
team's users too (`auth/visibility.py`). The one query behind `GET /user/spend` and the
dashboard's overview (which reads that endpoint).

What counts is what the card limits and team budgets count (docs/controls.md#spending-controls,
docs/teams.md#budgets-and-how-spent-is-counted): approved card purchases and ATM withdrawals
(held, captured or refunded) less what was refunded; a declined or reversed one counts
nothing. Per merchant, the withdrawals are one line of their own (key None); `kind` narrows
the answer to one of the two."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

from cardservice.auth import readable_by
from cardservice.db.sql import Reader, text_uuid
from cardservice.ledger.minor_units import from_minor
from cardservice.security import mask
from cardservice.users import repository

SpendGroup = Literal["merchant", "card", "tag", "member"]
SpendKind = Literal["card_purchase", "atm_withdrawal"]
NO_TAG = "No tag"


def window(since: date | None, until: date | None, today: date) -> tuple[date, date]:
    """The window's first and last UTC day (inclusive): by default this month so far."""
    return since or today.replace(day=1), until or today


def _start_of(day: date) -> datetime:
    return datetime.combine(day, time.min, tzinfo=UTC)


def _name(group: str, key: Any, name: Any) -> str:
    if group == "card":
        bin_prefix, _space, last4 = str(name).partition(" ")
        return mask(bin_prefix, last4)
    if group == "tag" and key is None:
        return NO_TAG
    return str(name)


async def spend(
    reader: Reader,
    user_uuid: uuid.UUID,
    owned_team: uuid.UUID | None,
    group: SpendGroup,
    since: date,
    until: date,
    limit: int,
    kind: SpendKind | None = None,
) -> list[dict[str, Any]]:
    """`[{key, name, count, amount, currency}]` of the users the caller reads, per `group`,
    for purchases and withdrawals (or those of `kind`) created on the UTC days
    `since`..`until` (inclusive), largest amount first (then by name), at most `limit` rows.
    `key`: the merchant's name (None for the withdrawals), the card's or the member's uuid,
    the tag's slug (None for those without a tag)."""
    who = readable_by("t.user_uuid", 1, user_uuid, owned_team)
    types = repository.SPENT_TYPES if kind is None else (kind,)
    rows = await repository.spend_by(
        reader, group, who, _start_of(since), _start_of(until + timedelta(days=1)), limit, types
    )
    return [
        {
            "key": text_uuid(row["key"]) if group in ("card", "member") else row["key"],
            "name": _name(group, row["key"], row["name"]),
            "count": int(row["n"]),
            "amount": from_minor(int(row["spent"])),
            "currency": row["currency"],
        }
        for row in rows
    ]

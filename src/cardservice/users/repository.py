"""The statements of users, teams and sign-in links (service.py and sessions.py hold the
rules), and of the user's summary (summary.py): the user with their counts, the balances, the
spend."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import date, datetime

from cardservice.db.sql import Reader, Row, Tx, as_uuid, insert_sql

_USER_BY_EMAIL = "SELECT uuid FROM users WHERE email = $1"
_INSERT_USER = insert_sql(
    "users",
    ("uuid", "email", "name", "team_uuid", "role", "created_at", "status", "program_uuid"),
)
_PROGRAM = "SELECT uuid FROM programs WHERE uuid = $1"
_TEAM_BY_NAME = "SELECT uuid FROM teams WHERE name = $1"
_INSERT_TEAM = insert_sql("teams", ("uuid", "name", "created_at"))
_INSERT_LINK = insert_sql(
    "sign_in_links", ("uuid", "user_uuid", "secret_hash", "expires_at", "created_at")
)
# An active user's unused, unexpired link, spent in one statement (two uses cannot both win).
_USE_LINK = """
UPDATE sign_in_links SET used_at = $1
WHERE secret_hash = $2 AND used_at IS NULL AND expires_at > $1
  AND user_uuid IN (SELECT uuid FROM users WHERE status = 'active')
RETURNING user_uuid
"""


async def user_by_email(tx: Tx, email: str) -> uuid.UUID | None:
    """The uuid of the user with this (normalised) email, or None."""
    return as_uuid(await tx.value(_USER_BY_EMAIL, email))


async def insert_user(
    tx: Tx,
    user_uuid: uuid.UUID,
    email: str,
    name: str,
    team: tuple[uuid.UUID | None, str | None],
    program_uuid: uuid.UUID | None,
    now: datetime,
) -> None:
    """A new active user; `team` is (team, role), both None outside a team."""
    team_uuid, role = team
    await tx.execute(
        _INSERT_USER, user_uuid, email, name, team_uuid, role, now, "active", program_uuid
    )


async def program_exists(tx: Tx, program_uuid: uuid.UUID) -> bool:
    return await tx.value(_PROGRAM, program_uuid) is not None


async def team_by_name(tx: Tx, name: str) -> uuid.UUID | None:
    return as_uuid(await tx.value(_TEAM_BY_NAME, name))


async def insert_team(tx: Tx, team_uuid: uuid.UUID, name: str, now: datetime) -> None:
    await tx.execute(_INSERT_TEAM, team_uuid, name, now)


async def insert_sign_in_link(
    tx: Tx, user_uuid: uuid.UUID, secret_hash: str, expires_at: datetime, now: datetime
) -> None:
    await tx.execute(_INSERT_LINK, uuid.uuid4(), user_uuid, secret_hash, expires_at, now)


async def use_sign_in_link(tx: Tx, secret_hash: str, now: datetime) -> uuid.UUID | None:
    """Spend the link with this hash: its user, or None when unknown, used or expired."""
    row = await tx.row(_USE_LINK, now, secret_hash)
    return None if row is None else as_uuid(row["user_uuid"])


_USER_AND_COUNTS = """
SELECT u.uuid, u.email, u.name, u.role, t.uuid AS team_uuid, t.name AS team_name,
  (SELECT count(*) FROM accounts a WHERE a.user_uuid = u.uuid AND a.status = 'active')
    AS accounts_active,
  (SELECT count(*) FROM accounts a WHERE a.user_uuid = u.uuid AND a.status = 'frozen')
    AS accounts_frozen,
  (SELECT count(*) FROM accounts a WHERE a.user_uuid = u.uuid AND a.status = 'closed')
    AS accounts_closed,
  (SELECT count(*) FROM cards c WHERE c.user_uuid = u.uuid AND c.status = 'active')
    AS cards_active,
  (SELECT count(*) FROM cards c WHERE c.user_uuid = u.uuid AND c.status = 'frozen')
    AS cards_frozen,
  (SELECT count(*) FROM cards c WHERE c.user_uuid = u.uuid AND c.status = 'closed')
    AS cards_closed,
  (SELECT count(*) FROM cards c WHERE c.user_uuid = u.uuid AND c.is_favorite)
    AS cards_favorite,
  (SELECT count(*) FROM three_ds_codes d
    WHERE d.user_uuid = u.uuid AND d.used_at IS NULL AND d.expires_at > $2) AS codes
FROM users u LEFT JOIN teams t ON t.uuid = u.team_uuid
WHERE u.uuid = $1
"""

_BALANCES = """
SELECT currency, sum(on_accounts) AS accounts_total, sum(on_cards) AS cards_total FROM (
  SELECT currency, balance AS on_accounts, 0 AS on_cards FROM accounts WHERE user_uuid = $1
  UNION ALL
  SELECT currency, 0, balance FROM cards WHERE user_uuid = $1
) balances
GROUP BY currency ORDER BY currency
"""

_SPEND = """
SELECT currency,
  sum(CASE WHEN spent_on >= $2 THEN amount ELSE 0 END) AS today,
  sum(CASE WHEN spent_on >= $3 THEN amount ELSE 0 END) AS last_7_days,
  sum(CASE WHEN spent_on >= $4 THEN amount ELSE 0 END) AS this_month
FROM daily_spend
WHERE user_uuid = $1 AND spent_on >= $5 AND amount > 0
GROUP BY currency ORDER BY currency
"""


async def user_and_counts(reader: Reader, user_uuid: uuid.UUID, now: datetime) -> Row | None:
    """The user, their team and role, the counts of accounts and cards by status, of
    favourite cards and of unassigned 3DS codes still valid at `now`."""
    return await reader.row(_USER_AND_COUNTS, user_uuid, now)


async def balances(reader: Reader, user_uuid: uuid.UUID) -> Sequence[Row]:
    """Per currency, the sum of the user's account balances and of their card balances."""
    return await reader.rows(_BALANCES, user_uuid)


async def spend(
    reader: Reader, user_uuid: uuid.UUID, today: date, week: date, month: date
) -> Sequence[Row]:
    """Per currency, the user's spend since each of the three days (from `daily_spend`)."""
    return await reader.rows(_SPEND, user_uuid, today, week, month, min(today, week, month))


# Spend in view (spend.py): the card purchases and ATM withdrawals that moved money
# (approved: held, captured or refunded) less what was refunded, per group and currency,
# created in [$from, $to). `{who}` is `visibility.readable_by`'s condition on `t.user_uuid`,
# `{types}` the transaction types counted; the last placeholders are the window, then the
# limit. Per merchant, the withdrawals are one group of their own (key NULL, `ATM_CASH`).
SPENT_TYPES = ("card_purchase", "atm_withdrawal")
ATM_CASH = "Cash withdrawals (ATM)"
_MERCHANT = "CASE WHEN t.type = 'atm_withdrawal' THEN {} ELSE coalesce(t.merchant_name, '') END"
SPEND_GROUPS = {
    "merchant": (_MERCHANT.format("NULL"), _MERCHANT.format(f"'{ATM_CASH}'"), ""),
    "card": ("t.card_uuid", "c.bin || ' ' || c.last4", "JOIN cards c ON c.uuid = t.card_uuid"),
    "tag": ("t.tag_slug", "g.name", "LEFT JOIN transaction_tags g ON g.slug = t.tag_slug"),
    "member": ("t.user_uuid", "u.name", "JOIN users u ON u.uuid = t.user_uuid"),
}
_SPEND_BY = """
SELECT {key} AS key, {name} AS name, t.currency, count(*) AS n,
  sum(t.amount - t.refunded_amount) AS spent
FROM transactions t {join}
WHERE {who} AND t.type IN ({types}) AND t.status IN ('pending', 'completed', 'refunded')
  AND t.created_at >= ${since} AND t.created_at < ${until}
GROUP BY {key}, {name}, t.currency
ORDER BY spent DESC, name, t.currency
LIMIT ${limit}"""


async def spend_by(
    reader: Reader,
    group: str,
    who: tuple[str, list[object]],
    since: datetime,
    until: datetime,
    limit: int,
    types: Sequence[str] = SPENT_TYPES,
) -> Sequence[Row]:
    """The spend (`key`, `name`, `currency`, `n`, `spent` in minor units) per `group` of
    `SPEND_GROUPS` of the users `who` names, of the transactions of `types` (some of
    `SPENT_TYPES`) created from `since` until before `until`, largest first; at most `limit`
    rows."""
    key, name, join = SPEND_GROUPS[group]
    condition, args = who
    n = len(args)
    kinds = ", ".join(f"'{kind}'" for kind in SPENT_TYPES if kind in types)
    sql = _SPEND_BY.format(
        key=key, name=name, join=join, who=condition, types=kinds,
        since=n + 1, until=n + 2, limit=n + 3,
    )  # fmt: skip
    return await reader.scan(sql, *args, since, until, limit)

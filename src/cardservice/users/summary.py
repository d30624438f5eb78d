"""The user summary: SQL aggregates over the same rows the endpoints list, three statements.

Spend (card purchases pending or completed) is read from `daily_spend`, which triggers keep
per user, currency and UTC day (migration 20261122_05): at most 31 rows per currency.

Read through `cardservice.sql` (the summary is polled by dashboards); the record has the
shape of `UserSummary`.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from cardservice.ledger.money import from_minor
from cardservice.sql import Reader, text_uuid

STATUSES = ("active", "frozen", "closed")

USER_AND_COUNTS = """
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
BALANCES = """
SELECT currency, sum(on_accounts) AS accounts_total, sum(on_cards) AS cards_total FROM (
  SELECT currency, balance AS on_accounts, 0 AS on_cards FROM accounts WHERE user_uuid = $1
  UNION ALL
  SELECT currency, 0, balance FROM cards WHERE user_uuid = $1
) balances
GROUP BY currency ORDER BY currency
"""
SPEND = """
SELECT currency,
  sum(CASE WHEN spent_on >= $2 THEN amount ELSE 0 END) AS today,
  sum(CASE WHEN spent_on >= $3 THEN amount ELSE 0 END) AS last_7_days,
  sum(CASE WHEN spent_on >= $4 THEN amount ELSE 0 END) AS this_month
FROM daily_spend
WHERE user_uuid = $1 AND spent_on >= $5 AND amount > 0
GROUP BY currency ORDER BY currency
"""


async def user_summary(reader: Reader, user_uuid: uuid.UUID, now: datetime) -> dict[str, Any]:
    """Balances, counts, spend (today, last 7 days including today, this month; UTC) and
    the number of unassigned 3DS codes of one user."""
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week, month = today - timedelta(days=6), today.replace(day=1)
    user = await reader.row(USER_AND_COUNTS, user_uuid, now)
    assert user is not None, "an authenticated caller exists"
    balances = await reader.rows(BALANCES, user_uuid)
    days = (today.date(), week.date(), month.date())
    spend = await reader.rows(SPEND, user_uuid, *days, min(days))
    team = None
    if user["team_uuid"] is not None:
        team = {
            "uuid": text_uuid(user["team_uuid"]),
            "name": user["team_name"],
            "role": user["role"],
        }
    by_status = {s: int(user[f"accounts_{s}"]) for s in STATUSES}
    cards = {s: int(user[f"cards_{s}"]) for s in STATUSES}
    return {
        "user": {
            "uuid": text_uuid(user["uuid"]),
            "email": user["email"],
            "name": user["name"],
            "team": team,
        },
        "balances": [
            {
                "currency": row["currency"],
                "accounts_total": from_minor(int(row["accounts_total"])),
                "cards_total": from_minor(int(row["cards_total"])),
            }
            for row in balances
        ],
        "accounts": {"total": sum(by_status.values()), "by_status": by_status},
        "cards": {
            "total": sum(cards.values()),
            **cards,
            "favorite": int(user["cards_favorite"]),
        },
        "spend": [
            {
                "currency": row["currency"],
                "today": from_minor(int(row["today"])),
                "last_7_days": from_minor(int(row["last_7_days"])),
                "this_month": from_minor(int(row["this_month"])),
            }
            for row in spend
        ],
        "unassigned_3ds_codes": int(user["codes"]),
    }

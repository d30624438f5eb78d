"""The user summary: SQL aggregates over the same rows the endpoints list, three statements.

Spend (card purchases pending or completed) is read from `daily_spend`, which triggers keep
per user, currency and UTC day (migration 20261122_05): at most 31 rows per currency.

Read through `cardservice.db.sql` (the summary is polled by dashboards); the record has the
shape of `UserSummary`.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from cardservice.db.sql import Reader, text_uuid
from cardservice.ledger.minor_units import from_minor
from cardservice.users import repository

STATUSES = ("active", "frozen", "closed")


async def user_summary(reader: Reader, user_uuid: uuid.UUID, now: datetime) -> dict[str, Any]:
    """Balances, counts, spend (today, last 7 days including today, this month; UTC) and
    the number of unassigned 3DS codes of one user."""
    today = now.replace(hour=0, minute=0, second=0, microsecond=0)
    week, month = today - timedelta(days=6), today.replace(day=1)
    user = await repository.user_and_counts(reader, user_uuid, now)
    assert user is not None, "an authenticated caller exists"
    balances = await repository.balances(reader, user_uuid)
    spend = await repository.spend(reader, user_uuid, today.date(), week.date(), month.date())
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

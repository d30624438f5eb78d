"""The statements of the user's summary (summary.py): the user with their counts, the
balances, the spend."""

from __future__ import annotations

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

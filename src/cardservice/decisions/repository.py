"""The statements of `authorization_endpoints` (the user's decision endpoint, one row per
user): read, put, delete, and its health (endpoints.py holds the rules)."""

from __future__ import annotations

ENDPOINT_COLUMNS = (
    "url, secret_ciphertext, timeout_ms, on_timeout, consecutive_failures, stand_in_until,"
    " created_at, updated_at"
)

READ_ENDPOINT = f"SELECT {ENDPOINT_COLUMNS} FROM authorization_endpoints WHERE user_uuid = $1"  # noqa: S608

PUT_ENDPOINT = f"""
INSERT INTO authorization_endpoints (user_uuid, {ENDPOINT_COLUMNS})
VALUES ($1, $2, $3, $4, $5, 0, NULL, $6, $6)
ON CONFLICT (user_uuid) DO UPDATE SET url = EXCLUDED.url,
  secret_ciphertext = EXCLUDED.secret_ciphertext, timeout_ms = EXCLUDED.timeout_ms,
  on_timeout = EXCLUDED.on_timeout, consecutive_failures = 0, stand_in_until = NULL,
  updated_at = EXCLUDED.updated_at
RETURNING {ENDPOINT_COLUMNS}"""  # noqa: S608 - constant columns

DELETE_ENDPOINT = "DELETE FROM authorization_endpoints WHERE user_uuid = $1 RETURNING user_uuid"

# $1 user, $2 the end of a stand-in if this failure starts one, $3 STAND_IN_AFTER
NOTE_FAILURE = """
UPDATE authorization_endpoints SET consecutive_failures = consecutive_failures + 1,
  stand_in_until = CASE WHEN consecutive_failures + 1 >= $3 THEN $2 ELSE stand_in_until END
WHERE user_uuid = $1"""

NOTE_RECOVERY = (
    "UPDATE authorization_endpoints SET consecutive_failures = 0, stand_in_until = NULL"
    " WHERE user_uuid = $1"
)

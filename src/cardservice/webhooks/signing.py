"""Standard Webhooks signatures: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per
live secret; secrets are `whsec_` + base64 of 24 random bytes. Proved against the
`standardwebhooks` package in tests/webhooks/test_signing.py."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence

SECRET_PREFIX = "whsec_"  # noqa: S105 - the prefix, not a secret
SECRET_BYTES = 24


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def masked(secret: str) -> str:
    """What lists show of a secret: the prefix and its last four characters."""
    return f"{SECRET_PREFIX}****{secret[-4:]}"


def signature_header(
    live_secrets: Sequence[str], message_id: str, timestamp: int, body: bytes
) -> str:
    """The `webhook-signature` header: one `v1,…` per secret, space-separated."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return " ".join(
        "v1," + base64.b64encode(hmac.new(_key(s), signed, hashlib.sha256).digest()).decode()
        for s in live_secrets
    )


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))

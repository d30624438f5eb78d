"""Dashboard sessions and one-time sign-in links.

A session is a bearer token of its own (named `dashboard`, 12 hours), kept in an HttpOnly
cookie and revoked on sign-out; the token the person pasted is never stored. A sign-in link
carries a random secret that works once, within minutes; only its SHA-256 hash is stored.
"""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime, timedelta

from cardservice.auth import digest, issue_token, revoke_named_token
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from cardservice.users import repository
from cardservice.users.service import user_by_email

SESSION_LIFETIME = timedelta(hours=12)
SESSION_TOKEN_NAME = "dashboard"  # noqa: S105 - the token's label, not a secret
LINK_LIFETIME = timedelta(minutes=15)
LINK_BYTES = 32


async def start_session(tx: Tx, user_uuid: uuid.UUID) -> str:
    """Issue the session's own bearer token for `user_uuid`; the plaintext is returned once."""
    _token_uuid, plaintext = await issue_token(tx, user_uuid, SESSION_TOKEN_NAME, SESSION_LIFETIME)
    return plaintext


async def end_session(tx: Tx, session_token: str) -> None:
    """Revoke a dashboard session token (only those: a pasted API token is never touched)."""
    await revoke_named_token(tx, session_token, SESSION_TOKEN_NAME)


async def create_sign_in_link(tx: Tx, email: str) -> tuple[str, datetime]:
    """A single-use sign-in secret for the user with `email`, valid for 15 minutes."""
    return await sign_in_link_for(tx, await user_by_email(tx, email))


async def sign_in_link_for(tx: Tx, user_uuid: uuid.UUID) -> tuple[str, datetime]:
    """A single-use sign-in secret for the user, valid for 15 minutes, and its expiry."""
    secret = secrets.token_urlsafe(LINK_BYTES)
    now = utcnow()
    expires_at = now + LINK_LIFETIME
    await repository.insert_sign_in_link(tx, user_uuid, digest(secret), expires_at, now)
    return secret, expires_at


async def use_sign_in_link(tx: Tx, secret: str) -> str | None:
    """Spend a sign-in secret and start a session; None when it is unknown, used or expired."""
    user_uuid = await repository.use_sign_in_link(tx, digest(secret), utcnow())
    if user_uuid is None:
        return None
    return await start_session(tx, user_uuid)

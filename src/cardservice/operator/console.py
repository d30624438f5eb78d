"""The operator console's sign-in (docs/operations.md#the-operator-console): the dashboard's
mechanism, for the operator. `cardservice operator console-link` makes a one-time link (a
random secret, valid 15 minutes, only its hash kept); spending it opens a 12-hour session
whose own random token lives in an HttpOnly cookie (only its hash kept), ended by signing
out. No key is ever typed into a page. Every console write is audited with the session as
the actor (`console`, the sign-in's uuid)."""

from __future__ import annotations

import secrets
import uuid
from datetime import datetime

from cardservice.audit import Actor
from cardservice.auth import digest
from cardservice.db.sql import Reader, Tx
from cardservice.models.base import utcnow
from cardservice.operator import repository
from cardservice.operator.acting import Acting
from cardservice.users import LINK_BYTES, LINK_LIFETIME, SESSION_LIFETIME

CONSOLE_PATH = "/console"


def console_actor(session: uuid.UUID, request_id: str | None) -> Acting:
    """Who a console write is recorded as: its session, under its request id."""
    return Acting(Actor("console", str(session)), request_id)


async def create_console_link(tx: Tx, by: Acting, base_url: str) -> tuple[str, datetime]:
    """A one-time console sign-in link and when it expires (audited, never the secret)."""
    secret, session, now = secrets.token_urlsafe(LINK_BYTES), uuid.uuid4(), utcnow()
    expires_at = now + LINK_LIFETIME
    await repository.insert_console_link(tx, session, digest(secret), expires_at, now)
    await by.record(tx, "console.link_created", "console_session", session)
    return f"{base_url.rstrip('/')}{CONSOLE_PATH}/login?link={secret}", expires_at


async def sign_in(tx: Tx, link: str, request_id: str | None) -> str | None:
    """Spend a console link: the new session's token (returned once), or None when the link
    is unknown, already used or expired — then nothing changes."""
    token, now = secrets.token_urlsafe(LINK_BYTES), utcnow()
    session = await repository.spend_console_link(
        tx, digest(link), digest(token), now + SESSION_LIFETIME, now
    )
    if session is None:
        return None
    await console_actor(session, request_id).record(
        tx, "console.signed_in", "console_session", session
    )
    return token


async def session_of(reader: Reader, token: str) -> uuid.UUID | None:
    """The live console session of this cookie's token, or None."""
    return await repository.console_session(reader, digest(token), utcnow())


async def sign_out(tx: Tx, token: str, request_id: str | None) -> None:
    """End the session of this token (audited); nothing when it was not live."""
    session = await repository.end_console_session(tx, digest(token), utcnow())
    if session is not None:
        await console_actor(session, request_id).record(
            tx, "console.signed_out", "console_session", session
        )

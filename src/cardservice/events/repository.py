"""Events that no table change makes (the triggers of migration 20261123_15 make the rest):
inserted with `data` NULL, which the unit fills with the object's record before it commits
(`events.outbox.complete_events`), so they are sequenced and delivered like any other."""

from __future__ import annotations

import uuid
from datetime import datetime

from cardservice.sql import Tx

_INSERT = (
    "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6)"
)


async def insert_event(
    tx: Tx,
    type_: str,
    user_uuid: uuid.UUID,
    object_type: str,
    object_uuid: uuid.UUID,
    now: datetime,
) -> uuid.UUID:
    """One event of the object in the caller's unit; its uuid."""
    event = uuid.uuid4()
    await tx.execute(_INSERT, event, type_, user_uuid, object_type, object_uuid, now)
    return event

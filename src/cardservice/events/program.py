"""The operator's own events (docs/events.md#the-operators-own-events): a change that belongs
to no cardholder — a clearing file ingested, a BIN locked by the card-testing guard — told
in the unit that makes it. The row goes into the same `events` table with no owner
(`user_uuid` NULL) and its data written at insert (there is no object row to build it from
at commit); the outbox numbers it as any other and the queue gives it to the program-wide
endpoints only (`webhooks.queue.queue_for_events`). Never a card number in `data`."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.db.sql import Tx
from cardservice.encoding import dumps
from cardservice.events import repository
from cardservice.events.schemas import OperatorEventType


async def record_operator_event(
    tx: Tx,
    type_: OperatorEventType,
    object_type: str,
    object_uuid: uuid.UUID | None,
    data: dict[str, Any],
    now: datetime,
) -> uuid.UUID:
    """One operator event in the caller's unit, `data` its body's `data`; its uuid. An event
    of no stored object (`object_uuid` None) is its own object."""
    text = dumps(data).decode()
    return await repository.insert_operator_event(tx, type_, object_type, object_uuid, text, now)

"""The events outbox: one row per change of a card, transaction, 3DS code or attachment,
and the operator's own events (no owner: `user_uuid` NULL, migration 20261127_54).

A new transaction's event (`transactions.repository.transactions_insert`) and the
operator's own events are written with their `data` (`written_event`, the row of an event
written complete); the other objects' events are inserted by database triggers (migration
20261123_15) in the transaction of the change, with `data` NULL, and the unit of work fills
`data` before it commits (`events.outbox.complete_events`); a change of an object that its
trigger does not watch (a dispute's step that keeps its status) is inserted the same way by
its code (`written_event` with `data` None). `sequence` is given later, in commit order, by
`events.outbox.sequence_events`: `id` is the insertion order, which concurrent units can
commit out of. No foreign keys: the log outlives what it describes.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy import BigInteger, Index, String, Text, text
from sqlalchemy.orm import Mapped, mapped_column

from cardservice.models.base import Base, BigId


class Event(Base):
    __tablename__ = "events"
    __table_args__ = (
        Index("ix_events_user_sequence", "user_uuid", "sequence"),
        Index("ix_events_pending", "id", postgresql_where=text("data IS NULL"),
              sqlite_where=text("data IS NULL")),
        Index("ix_events_unsequenced", "id", postgresql_where=text("sequence IS NULL"),
              sqlite_where=text("sequence IS NULL")),
    )  # fmt: skip

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    sequence: Mapped[int | None] = mapped_column(
        BigInteger, unique=True, doc="strictly increasing in commit order; NULL until sequenced"
    )
    uuid: Mapped[UUID] = mapped_column(unique=True, doc="the webhook-id of every delivery")
    type: Mapped[str] = mapped_column(String(40), doc="card.created, transaction.updated, …")
    user_uuid: Mapped[UUID | None] = mapped_column(
        doc="the owner of the object; NULL: the operator's own event (program-wide endpoints only)"
    )
    object_type: Mapped[str] = mapped_column(String(24))
    object_uuid: Mapped[UUID]
    created_at: Mapped[datetime]
    data: Mapped[str | None] = mapped_column(Text, doc="the object's API record, JSON text")


WRITTEN_EVENT_COLUMNS = (
    "uuid", "type", "user_uuid", "object_type", "object_uuid", "created_at", "data",
)  # fmt: skip


def written_event(
    type_: str,
    user_uuid: UUID | None,
    object_type: str,
    object_uuid: UUID | None,
    created_at: datetime,
    data: str | None,
) -> dict[str, Any]:
    """The row (`WRITTEN_EVENT_COLUMNS`) of an event written with its data (JSON text), a
    fresh uuid its webhook-id; an event of no stored object (`object_uuid` None) is its own
    object. `data` None: as a trigger writes one, the unit fills it with the object's record
    at commit (`events.outbox.complete_events`)."""
    event = uuid.uuid4()
    return {
        "uuid": event, "type": type_, "user_uuid": user_uuid, "object_type": object_type,
        "object_uuid": object_uuid or event, "created_at": created_at, "data": data,
    }  # fmt: skip

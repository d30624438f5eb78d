"""The statements of the attachments table (the rules are in service.py)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from cardservice.attachments.records import ATTACHMENT_FIELDS, attachment_columns
from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, insert_sql

_COLUMNS = attachment_columns("a")
_INSERT = insert_sql("attachments", ("user_uuid", *ATTACHMENT_FIELDS))
_OWN = f"SELECT {_COLUMNS} FROM attachments a WHERE a.uuid = $1 AND a.user_uuid = $2"  # noqa: S608


async def insert_attachment(tx: Tx, user_uuid: uuid.UUID, row: dict[str, Any]) -> None:
    """The metadata row (`row` holds `ATTACHMENT_FIELDS`) of the user's upload."""
    await tx.execute(_INSERT, user_uuid, *(row[name] for name in ATTACHMENT_FIELDS))


async def page_of_attachments(
    reader: Reader, user_uuid: uuid.UUID, type_: str | None, offset: int, limit: int
) -> tuple[Sequence[Row], int]:
    """A page of the user's own attachments, newest first (ties by uuid), and how many match."""
    where = "a.user_uuid = $1"
    args: list[Any] = [user_uuid]
    if type_ is not None:
        where += " AND a.type = $2"
        args.append(type_)
    return await paginate(
        reader,
        f"SELECT {_COLUMNS}, $TOTAL AS total FROM attachments a WHERE {where}"  # noqa: S608
        " ORDER BY a.created_at DESC, a.uuid DESC",
        args,
        Offset(offset, limit),
        count=f"SELECT count(*) FROM attachments a WHERE {where}",  # noqa: S608
        walk=True,
    )


async def own_attachment(
    reader: Reader | Tx, user_uuid: uuid.UUID, attachment_uuid: uuid.UUID
) -> Row | None:
    """One of the user's attachments, or None."""
    return await reader.row(_OWN, attachment_uuid, user_uuid)

"""Queries for programs (`$n` SQL); the record is built in `records.py`."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from cardservice.db.paging import Offset, paginate
from cardservice.db.sql import Reader, Row, Tx, in_list, text_uuid

_COLUMNS = (
    "uuid, name, bin_uuids, spending_controls, card_validity_months, created_at, updated_at,"
    " provisional_credit"
)
_INSERT = f"INSERT INTO programs ({_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $6, $7)"  # noqa: S608


async def insert(tx: Tx, program: dict[str, Any]) -> None:
    await tx.execute(
        _INSERT,
        program["uuid"],
        program["name"],
        program["bin_uuids"],
        program["spending_controls"],
        program["card_validity_months"],
        program["created_at"],
        program["provisional_credit"],
    )


async def one(reader: Reader | Tx, program_uuid: uuid.UUID, *, lock: bool = False) -> Row | None:
    suffix = " FOR UPDATE" if lock else ""
    return await reader.row(
        f"SELECT {_COLUMNS} FROM programs WHERE uuid = $1{suffix}",  # noqa: S608 - fixed text
        program_uuid,
    )


async def page_of_programs(reader: Reader, offset: int, limit: int) -> tuple[Sequence[Row], int]:
    """A page of the programs, oldest first (ties by uuid), and how many there are."""
    return await paginate(
        reader,
        f"SELECT $TOTAL AS total, {_COLUMNS} FROM programs ORDER BY created_at, uuid",  # noqa: S608
        [],
        Offset(offset, limit),
        count="SELECT count(*) FROM programs",
    )


async def update(tx: Tx, program_uuid: uuid.UUID, columns: dict[str, Any]) -> None:
    sets = ", ".join(f"{name} = ${i}" for i, name in enumerate(columns, start=2))
    await tx.execute(f"UPDATE programs SET {sets} WHERE uuid = $1", program_uuid, *columns.values())  # noqa: S608


async def known_bins(tx: Tx, bin_uuids: list[uuid.UUID]) -> set[str]:
    rows = await tx.rows(
        f"SELECT uuid FROM bins WHERE uuid IN {in_list(len(bin_uuids))}",  # noqa: S608
        *bin_uuids,
    )
    return {str(text_uuid(row["uuid"])) for row in rows}


async def known_tags(tx: Tx, slugs: list[str]) -> set[str]:
    rows = await tx.rows(
        f"SELECT slug FROM transaction_tags WHERE slug IN {in_list(len(slugs))}",  # noqa: S608
        *slugs,
    )
    return {row["slug"] for row in rows}

"""Programs (docs/operations.md#running-a-program, `cards` scope): create, read, change. What a
program does to its users' purchases and authorizations is in transactions/program_rules.py."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

import orjson

from cardservice.cards import SpendingControls, controls
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx
from cardservice.errors import NotFound, ValidationFailed
from cardservice.operator import Acting
from cardservice.programs import repository
from cardservice.programs.records import program_record
from cardservice.programs.schemas import ChangeProgramRequest, CreateProgramRequest


class ProgramNotFound(NotFound):
    message = "Program not found."


async def _bins(tx: Tx, values: list[str]) -> str:
    """The BINs as stored (JSON, lower-case, sorted, distinct); 422 when one is unknown."""
    wanted = sorted({value.lower() for value in values})
    unknown = set(wanted) - await repository.known_bins(tx, [uuid.UUID(v) for v in wanted])
    if unknown:
        raise ValidationFailed(
            errors={"bin_uuids": [f"unknown BINs: {', '.join(sorted(unknown))}"]}
        )
    return orjson.dumps(wanted).decode()


async def _controls(tx: Tx, body: SpendingControls | None) -> str | None:
    if body is None:
        return None
    named = sorted({*(body.allowed_tags or ()), *body.blocked_tags})
    unknown = set(named) - (await repository.known_tags(tx, named) if named else set())
    if unknown:
        raise ValidationFailed(
            errors={"spending_controls": [f"unknown tags: {', '.join(sorted(unknown))}"]}
        )
    return controls.stored(body)


async def create_program(
    tx: Tx, acting: Acting, body: CreateProgramRequest, now: datetime
) -> dict[str, Any]:
    program_uuid = uuid.uuid4()
    program: dict[str, Any] = {
        "uuid": program_uuid,
        "name": body.name.strip(),
        "bin_uuids": await _bins(tx, body.bin_uuids),
        "spending_controls": await _controls(tx, body.spending_controls),
        "card_validity_months": body.card_validity_months,
        "provisional_credit": body.provisional_credit,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(tx, program)
    await acting.record(tx, "program.created", "program", program_uuid)
    return program_record(program)


async def get_program(reader: Reader | Tx, program_uuid: uuid.UUID) -> dict[str, Any]:
    row = await repository.one(reader, program_uuid)
    if row is None:
        raise ProgramNotFound()
    return program_record(row)


async def list_programs(reader: Reader, page: Page) -> tuple[list[dict[str, Any]], int]:
    """The programs, oldest first, and how many there are."""
    rows, total = await repository.page_of_programs(reader, page.offset, page.size)
    return [program_record(row) for row in rows], total


async def change_program(
    tx: Tx, acting: Acting, program_uuid: uuid.UUID, body: ChangeProgramRequest, now: datetime
) -> dict[str, Any]:
    """The fields sent change; they apply to the program's users' next purchases and
    authorizations (cards already issued keep their expiry)."""
    if await repository.one(tx, program_uuid, lock=True) is None:
        raise ProgramNotFound()
    sent = body.model_fields_set
    columns: dict[str, Any] = {}
    if body.name is not None:
        columns["name"] = body.name.strip()
    if body.bin_uuids is not None:
        columns["bin_uuids"] = await _bins(tx, body.bin_uuids)
    if "spending_controls" in sent:
        columns["spending_controls"] = await _controls(tx, body.spending_controls)
    if body.card_validity_months is not None:
        columns["card_validity_months"] = body.card_validity_months
    if body.provisional_credit is not None:
        columns["provisional_credit"] = body.provisional_credit
    if columns:
        await repository.update(tx, program_uuid, {**columns, "updated_at": now})
        await acting.record(
            tx, "program.updated", "program", program_uuid, {"fields": sorted(columns)}
        )
    return await get_program(tx, program_uuid)

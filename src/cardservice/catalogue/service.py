"""The operator's catalogue (docs/operations.md#your-own-catalogue, scope `catalogue`): BINs
to issue from, a program's fees over the schedule, FX rates in force from a given instant.
The shipped catalogue (`catalogue/data`, loaded by migration) stays the default underneath:
a BIN without a price charges the schedule's `card_issue`, a program without fees the
schedule's, a pair without an operator's rate the catalogue's. Every change is audited, its
amounts as the API writes them."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

import orjson

from cardservice.catalogue import repository
from cardservice.catalogue.loader import account_currencies
from cardservice.catalogue.records import (
    PROGRAM_FEE_FIELDS,
    bin_record,
    program_fees_record,
    rate_entry,
)
from cardservice.catalogue.schemas import (
    AddFxRateRequest,
    ChangeBinRequest,
    CreateBinRequest,
    ProgramFeesRequest,
)
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx, as_datetime
from cardservice.dictionaries import Override, default_plan, program_fees, with_overrides
from cardservice.errors import NotFound, ServiceError, ValidationFailed
from cardservice.ledger.minor_units import to_minor


class Acting(Protocol):
    """Who makes the change, recording it on the audit log (`operator.acting.Acting`; a
    protocol, as the operator's package sits above this one)."""

    async def record(
        self,
        tx: Tx,
        action: str,
        object_type: str,
        object_uuid: uuid.UUID | str | None,
        details: Mapping[str, Any] | None = None,
    ) -> None: ...


class ProgramNotFound(NotFound):
    message = "Program not found."


class BinNotFound(NotFound):
    message = "BIN not found."


class BinTaken(ServiceError):
    status_code, code = 409, "bin_taken"
    message = "A BIN with these digits, or overlapping them, exists."


class RatePredatesAuthorization(ServiceError):
    status_code, code = 409, "rate_predates_authorization"
    message = (
        "An authorization converted this pair at or after effective_at: a rate cannot rewrite"
        " it. Give an effective_at after the pair's last authorization."
    )


def _brand_matches(brand: str, digits: str) -> bool:
    if brand == "visa":
        return digits.startswith("4")
    return 51 <= int(digits[:2]) <= 55 or 2221 <= int(digits[:4]) <= 2720


def _account_currency(field: str, code: str) -> None:
    if code not in account_currencies():
        known = ", ".join(account_currencies())
        raise ValidationFailed(errors={field: [f"must be one of the account currencies: {known}"]})


async def create_bin(tx: Tx, acting: Acting, body: CreateBinRequest) -> dict[str, Any]:
    """A new BIN to issue from; 409 `bin_taken` when its digits overlap an existing BIN's."""
    if not _brand_matches(body.brand, body.bin):
        raise ValidationFailed(
            errors={"bin": ["a visa BIN starts with 4, a mastercard BIN with 51-55 or 2221-2720"]}
        )
    _account_currency("currency", body.currency)
    if await repository.overlapping_bin(tx, body.bin) is not None:
        raise BinTaken()
    bin_uuid = uuid.uuid4()
    row = {"uuid": bin_uuid, "bin": body.bin, "brand": body.brand, "currency": body.currency,
           "status": body.status, "card_price": to_minor(body.card_price)}  # fmt: skip
    await repository.insert_bin(tx, row)
    record = bin_record(row)
    details = {key: record[key] for key in ("bin", "brand", "currency", "status", "card_price")}
    await acting.record(tx, "bin.created", "bin", bin_uuid, details)
    return record


async def change_bin(
    tx: Tx, acting: Acting, bin_uuid: uuid.UUID, body: ChangeBinRequest
) -> dict[str, Any]:
    """A BIN's status or card price (the shipped BINs' too); cards already bought keep theirs."""
    if await repository.one_bin(tx, bin_uuid, lock=True) is None:
        raise BinNotFound()
    columns: dict[str, Any] = {}
    if body.status is not None:
        columns["status"] = body.status
    if body.card_price is not None:
        columns["card_price"] = to_minor(body.card_price)
    if columns:
        await repository.update_bin(tx, bin_uuid, columns)
    row = await repository.one_bin(tx, bin_uuid)
    assert row is not None, "a BIN is never deleted"
    record = bin_record(row)
    if columns:
        details = {key: record[key] for key in columns}
        await acting.record(tx, "bin.updated", "bin", bin_uuid, details)
    return record


def _stored_fees(body: ProgramFeesRequest) -> list[Override]:
    sent = body.model_dump()
    return [
        (slug, kind, to_minor(sent[field]))
        for field, (slug, kind) in PROGRAM_FEE_FIELDS.items()
        if sent[field] is not None
    ]


async def _fees_record(source: Reader | Tx, program_uuid: uuid.UUID, stored: Any) -> dict[str, Any]:
    overrides = program_fees(stored)
    schedule = with_overrides(await default_plan(source), [], overrides)
    return program_fees_record(program_uuid, overrides, schedule)


async def set_program_fees(
    tx: Tx, acting: Acting, program_uuid: uuid.UUID, body: ProgramFeesRequest, now: datetime
) -> dict[str, Any]:
    """Replace the program's fees as a whole: its cardholders' next purchases and
    authorizations are charged them (their own overrides still come first)."""
    exists, _before = await repository.program_fees(tx, program_uuid, lock=True)
    if not exists:
        raise ProgramNotFound()
    overrides = _stored_fees(body)
    stored = orjson.dumps(sorted(overrides)).decode() if overrides else None
    await repository.set_program_fees(tx, program_uuid, stored, now)
    record = await _fees_record(tx, program_uuid, stored)
    details = {field: record[field] for field in PROGRAM_FEE_FIELDS}
    await acting.record(tx, "program.fees_set", "program", program_uuid, details)
    return record


async def get_program_fees(reader: Reader, program_uuid: uuid.UUID) -> dict[str, Any]:
    exists, stored = await repository.program_fees(reader, program_uuid)
    if not exists:
        raise ProgramNotFound()
    return await _fees_record(reader, program_uuid, stored)


async def add_fx_rate(
    tx: Tx, acting: Acting, body: AddFxRateRequest, now: datetime
) -> dict[str, Any]:
    """A rate in force from `effective_at` until the pair's next; refused when an authorization
    converted the pair at or after `effective_at` (it would rewrite what was charged)."""
    if body.base == body.quote:
        raise ValidationFailed(errors={"quote": ["must differ from base"]})
    _account_currency("quote", body.quote)
    last = as_datetime(await repository.last_use(tx, body.base, body.quote))
    if last is not None and body.effective_at <= last:
        raise RatePredatesAuthorization()
    rate_uuid = uuid.uuid4()
    row = {"uuid": rate_uuid, "base": body.base, "quote": body.quote, "rate": f"{body.rate:f}",
           "effective_at": body.effective_at, "created_at": now}  # fmt: skip
    await repository.insert_rate(tx, row)
    entry = rate_entry(row)
    details = {key: entry[key] for key in ("base", "quote", "rate", "effective_at")}
    await acting.record(tx, "fx_rate.created", "fx_rate", rate_uuid, details)
    return entry


async def list_fx_rates(
    reader: Reader, filters: dict[str, Any], page: Page
) -> tuple[list[dict[str, Any]], int]:
    """The rates the operator set, the latest `effective_at` first, and how many match."""
    rows, total = await repository.page_of_rates(reader, filters, page.offset, page.size)
    return [rate_entry(row) for row in rows], total

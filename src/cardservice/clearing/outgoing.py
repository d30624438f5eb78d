"""The issuer's outgoing clearing file of a date (docs/disputes.md#the-outgoing-file), whichever
channel asks (`POST /operator/clearing-outgoing`, `cardservice clearing outgoing`): a
Mastercard IPM file, written by `cardutil` (`clearing.ipm`), of a 1442 for each dispute waiting
to be sent (`disputes.take_outgoing`).

A date's file is written once, in one unit: the disputes it carries move to
`chargeback_sent` (or their pre-arbitration is marked sent) with their claims on the network,
and the file's bytes are kept with it. The same date again answers the kept bytes and moves
nothing; a crash before the commit wrote nothing, so the next run writes the same file. A
date after today (UTC) is refused.
"""

from __future__ import annotations

import hashlib
import io
import uuid
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from cardservice.clearing import ipm, repository
from cardservice.db.database import Database
from cardservice.db.sql import (
    INTEGRITY_ERRORS,
    Reader,
    Row,
    Tx,
    as_datetime,
    text_uuid,
)
from cardservice.disputes import Chargeback, take_outgoing
from cardservice.errors import ValidationFailed
from cardservice.models.base import utcnow
from cardservice.network.fields import NUMERIC_CURRENCIES
from cardservice.operator import Acting
from cardservice.security import CardCipher


@dataclass(frozen=True, slots=True)
class Outgoing:
    record: dict[str, Any]  # as the API lists it
    content: bytes
    created: bool  # False: the date's file written before, answered again


def file_id_of(day: date) -> str:
    """PDS 0105 of the date's outgoing file."""
    return f"ISSUER-OUT-{day:%Y%m%d}"


def outgoing_record(row: Row | dict[str, Any]) -> dict[str, Any]:
    created = as_datetime(row["created_at"])
    assert created is not None
    day = row["date"]
    return {
        "uuid": text_uuid(row["uuid"]),
        "file_id": row["file_id"],
        "date": day if isinstance(day, str) else day.isoformat(),
        "messages": int(row["messages"]),
        "sha256": row["sha256"],
        "created_at": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def encode(file_id: str, chargebacks: list[Chargeback]) -> bytes:
    """The IPM file of the chargebacks (header, 1442s in their order, trailer)."""
    out = io.BytesIO()
    messages = (
        ipm.chargeback_message(
            ipm.ChargebackMessage(
                c.message_number,
                c.function,
                c.pan,
                c.amount,
                NUMERIC_CURRENCIES.get(c.currency, c.currency),
                c.reason_code,
                c.arn,
            )
        )
        for c in chargebacks
    )
    ipm.write_messages(out, file_id, messages)
    return out.getvalue()


async def _stored(reader: Reader | Tx, cipher: CardCipher, day: date) -> Outgoing | None:
    row = await repository.outgoing_of(reader, day)
    if row is None:
        return None
    content = cipher.decrypt(bytes(row["content_ciphertext"])).encode("latin-1")
    return Outgoing(outgoing_record(row), content, False)


async def write_outgoing(
    db: Database, cipher: CardCipher, day: date, by: Acting, now: datetime | None = None
) -> Outgoing:
    """The date's outgoing file: written now (see the module), or as it was written."""
    now = now or utcnow()
    if day > now.date():
        raise ValidationFailed(errors={"date": ["the outgoing file of a future date is refused"]})
    if (found := await _stored(db.reader, cipher, day)) is not None:
        return found
    file_id = file_id_of(day)

    async def unit(tx: Tx) -> Outgoing:
        if (again := await _stored(tx, cipher, day)) is not None:
            return again
        chargebacks = await take_outgoing(tx, file_id, cipher.decrypt, now)
        content = encode(file_id, chargebacks)
        file_uuid = uuid.uuid4()
        row: dict[str, Any] = {
            "uuid": file_uuid, "date": day, "file_id": file_id,
            "messages": len(chargebacks) + 2,  # header and trailer
            "sha256": hashlib.sha256(content).hexdigest(),
            # the 1442s carry card numbers: kept under the card-data key (docs/security.md)
            "content_ciphertext": cipher.encrypt(content.decode("latin-1")),
            "created_at": now,
        }  # fmt: skip
        await repository.insert_outgoing(tx, row)
        await by.record(
            tx, "clearing_outgoing.write", "clearing_outgoing", file_uuid,
            {"date": day.isoformat(), "file_id": file_id, "sha256": row["sha256"]},
        )  # fmt: skip
        return Outgoing(outgoing_record(row), content, True)

    try:
        return await db.transact(unit)
    except INTEGRITY_ERRORS:  # another writer wrote the date's file first: that one stands
        found = await _stored(db.reader, cipher, day)
        assert found is not None
        return found


async def outgoing_files(
    reader: Reader, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The outgoing files written, newest date first, and how many there are."""
    rows, total = await repository.outgoing_page(reader, offset, limit)
    return [outgoing_record(row) for row in rows], total

"""Second presentments in an incoming clearing file (docs/disputes.md#second-presentments): the
one record kind the ingest (`clearing.service`) stages and books beside the first
presentments, through the same steps.

Staged as a `clearing_records` row of kind `second` (DE 31 its `arn`, DE 72 its `message`),
booked in its turn by `disputes.receive_representment`: `representment` when it answers a
chargeback, `unmatched` (`no chargeback`) or `exception` (more than the chargeback) when it
moves nothing. The report counts them under `representments`.
"""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.clearing import ipm, repository
from cardservice.db.sql import Reader, Row, Tx, text_uuid
from cardservice.disputes import SecondPresentment, receive_representment
from cardservice.models.base import utcnow
from cardservice.network.fields import CURRENCIES
from cardservice.security import CardCipher

SECOND = "second"  # clearing_records.kind
REPRESENTMENT, EXCEPTION = "representment", "exception"  # its outcomes beside `unmatched`


def staged_row(
    file_uuid: uuid.UUID, item: ipm.SecondPresentment, cipher: CardCipher
) -> dict[str, Any]:
    """The `clearing_records` row of a second presentment (its DE 72 written by
    `repository.keep_texts`)."""
    return {
        "file_uuid": file_uuid, "message_number": item.message_number, "kind": SECOND,
        "fingerprint": cipher.fingerprint(item.pan), "amount": item.amount,
        "currency": CURRENCIES.get(item.currency, item.currency), "approval_code": None,
        "arn": item.arn, "merchant_name": None, "merchant_city": None,
        "merchant_country": None, "merchant_id": None, "mcc": None,
    }  # fmt: skip


async def book_second(tx: Tx, file_uuid: uuid.UUID, record: Row) -> tuple[str, Any, Any]:
    """A second presentment booked: its outcome, reason and disputed purchase."""
    item = SecondPresentment(
        arn=str(record["arn"]),
        amount=int(record["amount"]),
        currency=str(record["currency"]),
        file_id=await repository.file_id_of(tx, file_uuid),
        message_number=int(record["message_number"]),
        message=await repository.message_of(tx, int(record["id"])),
    )
    answer = await receive_representment(tx, item, utcnow())
    return answer.outcome, answer.reason, answer.transaction_uuid


async def representments(reader: Reader, file_uuid: uuid.UUID, received: int) -> dict[str, Any]:
    """The report's `representments`: how many were booked, and the exceptions refused."""
    rows = await repository.exceptions(reader, file_uuid)
    exceptions = [
        {
            "message_number": int(row["message_number"]),
            "reason": row["reason"],
            "transaction_uuid": text_uuid(row["transaction_uuid"]),
        }
        for row in rows
    ]
    return {"received": received, "exceptions": exceptions}

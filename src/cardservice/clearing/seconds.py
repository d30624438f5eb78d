"""The dispute's records in an incoming clearing file, which the ingest (`clearing.service`)
stages and books beside the first presentments, through the same steps: second presentments
(docs/disputes.md#second-presentments) and the acquirer's answers to a pre-arbitration
(docs/disputes.md#the-acquirers-answer-to-a-pre-arbitration).

A second presentment is staged as a `clearing_records` row of kind `second` (DE 31 its `arn`,
DE 72 its `message`), booked in its turn by `disputes.receive_representment`:
`representment` when it answers a chargeback, `unmatched` (`no chargeback`) or `exception`
(more than the chargeback) when it moves nothing. An answer is a row of kind `accepted` or
`declined`, booked by `disputes.receive_pre_arbitration_answer`: `answered`, or `unmatched`
(`no pre-arbitration`). The report counts them under `representments`.
"""

from __future__ import annotations

import uuid
from typing import Any

from cardservice.clearing import ipm, repository
from cardservice.db.sql import Reader, Row, Tx, text_uuid
from cardservice.disputes import (
    PreArbitrationAnswer,
    SecondPresentment,
    receive_pre_arbitration_answer,
    receive_representment,
)
from cardservice.models.base import utcnow
from cardservice.network.fields import CURRENCIES
from cardservice.security import CardCipher

SECOND = "second"  # clearing_records.kind
REPRESENTMENT, EXCEPTION = "representment", "exception"  # its outcomes beside `unmatched`
ACCEPTED, DECLINED = "accepted", "declined"  # the kinds of a pre-arbitration's answer
ANSWERED = "answered"  # their outcome beside `unmatched`
DISPUTE_KINDS = (SECOND, ACCEPTED, DECLINED)


def staged_row(
    file_uuid: uuid.UUID,
    item: ipm.SecondPresentment | ipm.PreArbitrationAnswer,
    cipher: CardCipher,
) -> dict[str, Any]:
    """The `clearing_records` row of a second presentment or an answer (its DE 72 written by
    `repository.keep_texts`)."""
    if isinstance(item, ipm.PreArbitrationAnswer):
        kind = ACCEPTED if item.accepted else DECLINED
    else:
        kind = SECOND
    return {
        "file_uuid": file_uuid, "message_number": item.message_number, "kind": kind,
        "fingerprint": cipher.fingerprint(item.pan), "amount": item.amount,
        "currency": CURRENCIES.get(item.currency, item.currency), "approval_code": None,
        "arn": item.arn, "merchant_name": None, "merchant_city": None,
        "merchant_country": None, "merchant_id": None, "mcc": None,
    }  # fmt: skip


async def book_second(tx: Tx, file_uuid: uuid.UUID, record: Row) -> tuple[str, Any, Any]:
    """A second presentment or an answer booked: its outcome, reason and disputed purchase."""
    if record["kind"] in (ACCEPTED, DECLINED):
        answer = await receive_pre_arbitration_answer(
            tx,
            PreArbitrationAnswer(
                arn=str(record["arn"]),
                accepted=record["kind"] == ACCEPTED,
                file_id=await repository.file_id_of(tx, file_uuid),
                message_number=int(record["message_number"]),
                message=await repository.message_of(tx, int(record["id"])),
            ),
            utcnow(),
        )
        return answer.outcome, answer.reason, answer.transaction_uuid
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


async def representments(
    reader: Reader, file_uuid: uuid.UUID, received: int, accepted: int, declined: int
) -> dict[str, Any]:
    """The report's `representments`: how many were booked, the exceptions refused, and the
    pre-arbitrations' answers booked."""
    rows = await repository.exceptions(reader, file_uuid)
    exceptions = [
        {
            "message_number": int(row["message_number"]),
            "reason": row["reason"],
            "transaction_uuid": text_uuid(row["transaction_uuid"]),
        }
        for row in rows
    ]
    return {
        "received": received,
        "exceptions": exceptions,
        "pre_arbitration": {"accepted": accepted, "declined": declined},
    }

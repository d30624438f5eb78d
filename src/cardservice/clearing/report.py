"""A clearing file's report (docs/network.md#clearing-files), built once from its records' outcomes
and kept with the file as JSON (the same file again answers it as it was).

`presentments.matched` counts the purchase and ATM presentments that found their
authorization and moved money (captures, and amount differences, which are listed too);
`duplicates` those that found it captured at the same amount; `force_posted` those booked as
new purchases (or withdrawals).
`refunds` counts the refund presentments booked or found booked (an online refund's
duplicate). `representments` counts the second presentments booked and lists the ones
refused as exceptions (docs/disputes.md#second-presentments). `totals` are per currency
(DE 49) of the first presentments booked or found booked (all but the unmatched): their
count, and the amount the file presents — purchases less refunds; what the day's settlement
report counts of the file (docs/network.md, "Settling the day").
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.clearing import repository
from cardservice.clearing.seconds import (
    ACCEPTED,
    ANSWERED,
    DECLINED,
    DISPUTE_KINDS,
    REPRESENTMENT,
    SECOND,
    representments,
)
from cardservice.db.sql import Reader, Row, as_datetime, text_uuid
from cardservice.ledger.minor_units import from_minor

MATCHED_OUTCOMES = ("matched", "amount_difference")
PRESENTED = ("purchase", "atm")  # the kinds `presentments` counts


@dataclass(frozen=True, slots=True)
class Report:
    data: dict[str, Any]  # as the API shows it
    stored: str  # as `clearing_files.report` keeps it


def _totals(rows: list[Row]) -> list[dict[str, Any]]:
    totals: dict[str, dict[str, int]] = {}
    for row in rows:
        if row["outcome"] == "unmatched" or row["kind"] in DISPUTE_KINDS:
            continue
        item = totals.setdefault(str(row["currency"]), {"count": 0, "amount": 0})
        item["count"] += int(row["records"])
        sign = -1 if row["kind"] == "refund" else 1
        item["amount"] += sign * int(row["amount"])
    return [
        {"currency": currency, "count": item["count"], "amount": item["amount"]}
        for currency, item in sorted(totals.items())
    ]


def _z(value: object) -> str:
    moment = as_datetime(value)
    assert moment is not None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _count(rows: list[Row], kinds: str | tuple[str, ...], *outcomes: str) -> int:
    kinds = (kinds,) if isinstance(kinds, str) else kinds
    return sum(
        int(row["records"]) for row in rows if row["kind"] in kinds and row["outcome"] in outcomes
    )


async def report_of(reader: Reader, file: Row) -> Report:
    """The report of a file whose records are all booked (amounts in minor units stored)."""
    file_uuid = uuid.UUID(str(file["uuid"]))
    counted = list(await repository.outcomes(reader, file_uuid))
    differences, unmatched = [], []
    for row in await repository.listed(reader, file_uuid):
        if row["outcome"] == "unmatched":
            unmatched.append(
                {"message_number": int(row["message_number"]), "reason": row["reason"]}
            )
        else:
            differences.append(
                {"message_number": int(row["message_number"]),
                 "transaction_uuid": text_uuid(row["transaction_uuid"]),
                 "authorized": int(row["authorized"]), "presented": int(row["amount"])}
            )  # fmt: skip
    stored = {
        "uuid": str(file_uuid),
        "file_id": file["file_id"],
        "sha256": file["sha256"],
        "received_at": _z(file["received_at"]),
        "messages": int(file["messages"]),
        "presentments": {
            "matched": _count(counted, PRESENTED, *MATCHED_OUTCOMES),
            "duplicates": _count(counted, PRESENTED, "duplicate"),
            "force_posted": _count(counted, PRESENTED, "force_posted"),
        },
        "refunds": _count(counted, "refund", "refund", "duplicate"),
        "representments": await representments(
            reader,
            file_uuid,
            _count(counted, SECOND, REPRESENTMENT),
            _count(counted, ACCEPTED, ANSWERED),
            _count(counted, DECLINED, ANSWERED),
        ),
        "amount_differences": differences,
        "unmatched": unmatched,
        "ignored": int(file["ignored"]),
        "totals": _totals(counted),
    }
    text = orjson.dumps(stored).decode()
    return Report(shown(stored), text)


def shown(stored: dict[str, Any]) -> dict[str, Any]:
    """The stored report with its amounts as the API writes money."""
    return {
        **stored,
        "amount_differences": [
            {
                **item,
                "authorized": from_minor(item["authorized"]),
                "presented": from_minor(item["presented"]),
            }
            for item in stored["amount_differences"]
        ],
        "totals": [{**item, "amount": from_minor(item["amount"])} for item in stored["totals"]],
    }


def stored_report(file: Row) -> dict[str, Any]:
    """A booked file's report as the API shows it."""
    return shown(orjson.loads(file["report"]))

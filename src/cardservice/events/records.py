"""The event record (as served and delivered), and where the data of each kind of object's
events comes from: its table, its columns and the builder of its record (`SOURCES`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from cardservice.attachments.records import ATTACHMENT_FIELDS, attachment_columns
from cardservice.attachments.records import attachment_record as _attachment_record
from cardservice.cards import CARD_FIELDS, card_columns, card_record
from cardservice.db.sql import Row, iso_z, text_uuid
from cardservice.disputes.records import DISPUTE_FIELDS, dispute_columns, dispute_record
from cardservice.teams.records import REQUEST_FIELDS, request_columns, request_record
from cardservice.tokens import TOKEN_FIELDS, token_columns, token_record
from cardservice.transactions import (
    TRANSACTION_FIELDS,
    three_ds_code_record,
    transaction_columns,
    transaction_record,
)

EVENT_COLUMNS = "e.sequence, e.uuid, e.type, e.created_at, e.data"


def event_record(row: Row) -> dict[str, Any]:
    """A row of EVENT_COLUMNS → the event as served and delivered; `data` as stored."""
    return {
        "uuid": text_uuid(row["uuid"]),
        "sequence": row["sequence"],
        "type": row["type"],
        "created_at": iso_z(row["created_at"]),
        "data": orjson.Fragment(row["data"]),
    }


@dataclass(frozen=True, slots=True)
class Source:
    """Where the records of one object type come from: its table (as `alias`) joined to its
    pending events, the select list `columns` (the object's uuid first), and the builder of
    its record from those values."""

    object_type: str
    table: str
    alias: str
    columns: str
    width: int
    build: Callable[[Sequence[Any]], dict[str, Any]]
    also: str = ""  # a further join the columns need


def _named(names: tuple[str, ...], build: Callable[[dict[str, Any]], Any]) -> Callable[..., Any]:
    """A builder that reads columns by name, fed the values of `names` in that order."""
    return lambda values: build(dict(zip(names, values, strict=True)))


def _attachment(row: dict[str, Any]) -> dict[str, Any]:
    return _attachment_record(row).model_dump()


_THREE_DS_NAMES = ("uuid", "card_uuid", "bin", "last4", "merchant_name", "amount", "currency",
                   "created_at", "expires_at")  # fmt: skip
SOURCES = (
    Source("card", "cards", "c", card_columns("c"), len(CARD_FIELDS), card_record),
    Source("transaction", "transactions", "t", transaction_columns("t"),
           len(TRANSACTION_FIELDS), transaction_record),
    Source("three_ds_code", "three_ds_codes", "d",
           "d.uuid, d.card_uuid, dc.bin, dc.last4, d.merchant_name, d.amount, d.currency,"
           " d.created_at, d.expires_at",
           len(_THREE_DS_NAMES), _named(_THREE_DS_NAMES, three_ds_code_record),
           also="LEFT JOIN cards dc ON dc.uuid = d.card_uuid"),
    Source("attachment", "attachments", "a", attachment_columns("a"),
           len(ATTACHMENT_FIELDS), _named(ATTACHMENT_FIELDS, _attachment)),
    Source("dispute", "disputes", "p", dispute_columns("p"), len(DISPUTE_FIELDS),
           dispute_record),
    Source("team_request", "team_requests", "q", request_columns("q", "qr", "qd"),
           len(REQUEST_FIELDS) + 2, request_record,
           also="LEFT JOIN users qr ON qr.uuid = q.user_uuid"
                " LEFT JOIN users qd ON qd.uuid = q.decided_by"),
    Source("card_token", "card_tokens", "k", token_columns("k"), len(TOKEN_FIELDS),
           token_record),
)  # fmt: skip

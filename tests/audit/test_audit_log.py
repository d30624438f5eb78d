"""The audit trail's repository (issue 29): a row per action in the action's own unit (none
when the unit rolls back), and a filtered, paged list, newest first."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from fastapi import FastAPI

from cardservice.audit.records import audit_record
from cardservice.audit.repository import (
    Actor,
    AuditFilters,
    count_actions_since,
    page_of_audit,
    record_audit,
)
from cardservice.db.sql import Tx
from cardservice.http.router import dumps
from cardservice.models.base import utcnow


async def test_a_row_is_written_in_the_unit_and_listed(app: FastAPI) -> None:
    card, user = uuid.uuid4(), uuid.uuid4()

    async def unit(tx: Tx) -> uuid.UUID:
        return await record_audit(
            tx, Actor.user(user), "card.reveal", "card", card, request_id="req-1",
            details={"reason": "checkout"},
        )  # fmt: skip

    entry = await app.state.db.transact(unit)
    rows, total = await page_of_audit(app.state.db.reader, AuditFilters(), 0, 20)
    assert total == 1
    record = audit_record(rows[0])
    assert record["uuid"] == str(entry)
    assert record["actor"] == {"type": "user", "id": str(user)}
    assert record["action"] == "card.reveal" and record["object_type"] == "card"
    assert record["object_uuid"] == str(card) and record["request_id"] == "req-1"
    assert record["details"] == {"reason": "checkout"}
    assert dumps(record["created_at"]).decode().endswith('Z"')  # as every timestamp


async def test_a_rolled_back_unit_leaves_no_row(app: FastAPI) -> None:
    class Refused(Exception):
        pass

    async def unit(tx: Tx) -> None:
        await record_audit(tx, Actor("operator_key", "ok_123"), "user.update", "user", None)
        raise Refused

    with pytest.raises(Refused):
        await app.state.db.transact(unit)
    assert (await page_of_audit(app.state.db.reader, AuditFilters(), 0, 20))[1] == 0


async def test_filters_paging_and_counts(app: FastAPI) -> None:
    card, other = uuid.uuid4(), uuid.uuid4()
    start = utcnow()

    async def unit(tx: Tx) -> None:
        for i in range(5):
            at = start + timedelta(seconds=i)
            await record_audit(tx, Actor.user(card), "card.reveal", "card", card, at=at)
        await record_audit(tx, Actor("operator_key", "ok_1"), "card.update", "card", other)
        await record_audit(tx, Actor("system"), "keys.rotate", "key", None)

    await app.state.db.transact(unit)
    reader = app.state.db.reader
    rows, total = await page_of_audit(reader, AuditFilters(action="card.reveal"), 0, 2)
    assert total == 5 and [r["created_at"] for r in rows] == sorted(
        (r["created_at"] for r in rows), reverse=True
    )
    walked = [
        audit_record(r)["uuid"]
        for offset in (0, 2, 4)
        for r in (await page_of_audit(reader, AuditFilters(action="card.reveal"), offset, 2))[0]
    ]
    assert len(walked) == len(set(walked)) == 5
    operator = AuditFilters(actor_type="operator_key", actor_id="ok_1")
    assert (await page_of_audit(reader, operator, 0, 20))[1] == 1
    assert (await page_of_audit(reader, AuditFilters(object_uuid=other), 0, 20))[1] == 1
    window = AuditFilters(since=start + timedelta(seconds=1), until=start + timedelta(seconds=3))
    assert (await page_of_audit(reader, window, 0, 20))[1] == 2
    assert await count_actions_since(reader, "card.reveal", "card", card, start) == 4
    system = audit_record(
        (await page_of_audit(reader, AuditFilters(actor_type="system"), 0, 1))[0][0]
    )
    assert system["actor"] == {"type": "system", "id": None} and system["object_uuid"] is None

"""The outbox: every change writes its event in its own transaction, numbered in commit
order; `GET /events` walks them once, in order, and only the caller's (and, for a team
owner, the members')."""

from __future__ import annotations

import os
import uuid
from typing import Any

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.encoding import dumps
from cardservice.events.outbox import sequence_events
from cardservice.models.base import utcnow
from cardservice.transactions.records import transaction_columns, transaction_record
from tests.factories import authorize, make_card, make_user
from tests.webhooks.drive import EVERY_TYPE, every_change, post

ATTACHMENT = """
INSERT INTO attachments (uuid, user_uuid, type, mime_type, size, sha256, created_at)
VALUES ($1, $2, 'receipt', 'application/pdf', 1, $3, $4)"""


async def walk(
    client: httpx.AsyncClient, headers: dict[str, str], **params: Any
) -> list[dict[str, Any]]:
    """Every event through `after`, two per page."""
    seen: list[dict[str, Any]] = []
    after = 0
    while True:
        response = await client.get(
            "/events", params={"after": after, "limit": 2, **params}, headers=headers
        )
        assert response.status_code == 200, response.text
        body = response.json()
        seen += body["data"]
        assert body["meta"]["next_after"] == (
            body["data"][-1]["sequence"] if body["data"] else after
        )
        after = body["meta"]["next_after"]
        if not body["meta"]["has_more"]:
            return seen


async def stored(app: FastAPI, sql: str, *args: Any) -> list[Any]:
    return list(await app.state.db.reader.rows(sql, *args))


async def test_every_change_has_its_event_walked_once_in_order(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = await every_change(app, client, user)
    events = await walk(client, user.headers)
    sequences = [e["sequence"] for e in events]
    assert sequences == sorted(sequences) and len(set(sequences)) == len(sequences)
    assert {e["type"] for e in events} == EVERY_TYPE
    rows = await stored(app, "SELECT uuid, data FROM events ORDER BY sequence")
    assert len(rows) == len(events) and all(r["data"] is not None for r in rows)
    assert [str(uuid.UUID(str(r["uuid"]))) for r in rows] == [e["uuid"] for e in events]
    updated = [e for e in events if e["type"] == "card.updated"]
    assert [e["data"]["holder_name"] for e in updated] == ["Ada Lovelace"]
    assert updated[0]["data"]["uuid"] == card
    code = next(e for e in events if e["type"] == "three_ds.code_created")["data"]
    assert "code" not in code and code["card_uuid"] == card  # never the code itself
    for event in events:
        assert "number" not in event["data"] and "pan" not in str(event["data"])
    transactions = await client.get("/transaction/report", headers=user.headers)
    created = {e["data"]["uuid"] for e in events if e["type"] == "transaction.created"}
    assert created == {t["uuid"] for t in transactions.json()["data"]}
    only = await walk(client, user.headers, **{"filters[type]": "card.updated"})
    assert [e["uuid"] for e in only] == [e["uuid"] for e in updated]
    one = await client.get(f"/events/{events[0]['uuid']}", headers=user.headers)
    assert one.status_code == 200 and one.json()["data"] == events[0]


async def test_a_balance_change_alone_is_no_card_event(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await every_change(app, client, user)
    before = len(await walk(client, user.headers, **{"filters[type]": "card.updated"}))
    await app.state.db.transact(lambda tx: tx.execute("UPDATE cards SET balance = balance + 0"))
    assert len(await walk(client, user.headers, **{"filters[type]": "card.updated"})) == before


async def test_an_events_data_is_its_record_byte_for_byte_whatever_its_text_holds(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """PostgreSQL writes the data with the COMMIT, its text written into the statement
    (dollar-quoted): quotes, dollar tags, backslashes and non-ASCII text come back as built."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    name = 'O\'Neil $q$ $q1$ \\ "é" ;-- $$'
    response = await authorize(client, user, card, "1", merchant_name=name)
    assert response.status_code == 201, response.text
    transaction = uuid.UUID(response.json()["data"]["uuid"])
    rows = await stored(
        app,
        f"SELECT {transaction_columns('t')} FROM transactions t WHERE t.uuid = $1",
        transaction,
    )
    built = dumps(transaction_record(rows[0])).decode()
    data = await stored(
        app, "SELECT data FROM events WHERE type = 'transaction.created' AND object_uuid = $1",
        transaction,
    )  # fmt: skip
    assert [row["data"] for row in data] == [built]
    assert f'"name":{dumps(name).decode()}' in built


async def test_another_users_events_are_404_and_a_team_owner_reads_members(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app, team="Crew", role="owner")
    member = await make_user(app, team="Crew", role="member")
    stranger = await make_user(app)
    await every_change(app, client, member)
    events = await walk(client, member.headers)
    assert events
    assert await walk(client, stranger.headers) == []
    response = await client.get(f"/events/{events[0]['uuid']}", headers=stranger.headers)
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert [e["uuid"] for e in await walk(client, owner.headers)] == [e["uuid"] for e in events]
    assert await walk(client, member.headers) == events  # a member does not see the owner's
    await every_change(app, client, owner)
    assert len(await walk(client, member.headers)) == len(events)


async def test_bad_cursor_limit_or_filter_is_422(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for params in ({"after": -1}, {"limit": 0}, {"limit": 101}, {"filters[type]": "card.deleted"},
                   {"filters[kind]": "x"}):  # fmt: skip
        response = await client.get("/events", params=params, headers=user.headers)
        assert response.status_code == 422, (params, response.text)


async def test_a_rolled_back_change_leaves_no_event(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)

    async def work(tx: Tx) -> None:
        await tx.execute(ATTACHMENT, uuid.uuid4(), user.uuid, "0" * 64, utcnow())
        raise RuntimeError("the unit fails after its change")

    with pytest.raises(RuntimeError):
        await app.state.db.transact(work)
    assert await stored(app, "SELECT id FROM events") == []
    unknown = {"account_uuid": str(uuid.uuid4()), "bin_uuid": str(uuid.uuid4()), "start_balance": 1}
    refused = await post(client, user, "/card/buy", unknown)
    assert refused.status_code in (404, 422)
    assert await stored(app, "SELECT id FROM events") == []


async def test_an_object_made_and_removed_in_one_unit_leaves_no_event(app: FastAPI) -> None:
    user = await make_user(app)
    attachment = uuid.uuid4()

    async def work(tx: Tx) -> None:
        await tx.execute(ATTACHMENT, attachment, user.uuid, "d" * 64, utcnow())
        await tx.execute("DELETE FROM attachments WHERE uuid = $1", attachment)

    await app.state.db.transact(work)
    assert await stored(app, "SELECT id FROM events") == []


async def test_sequence_follows_commit_order_not_insert_order(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Unit A inserts its event first, unit B second; B commits, a reader walks past it,
    then A commits: the reader still gets A, after B."""
    if app.state.db.is_sqlite:
        pytest.skip("SQLite has one writer: units cannot interleave, insert order is commit order")
    user = await make_user(app)
    db = app.state.db

    async def second(tx: Tx) -> None:
        await tx.execute(ATTACHMENT, uuid.uuid4(), user.uuid, "b" * 64, utcnow())

    async def first(tx: Tx) -> list[dict[str, Any]]:
        await tx.execute(ATTACHMENT, uuid.uuid4(), user.uuid, "a" * 64, utcnow())
        await db.transact(second)  # another unit, committed while this one is open
        walked: list[dict[str, Any]] = await walk(client, user.headers)
        return walked

    seen = await db.transact(first)
    assert [e["data"]["sha256"][0] for e in seen] == ["b"]  # walked before `first` committed
    later = await client.get(
        "/events", params={"after": seen[-1]["sequence"]}, headers=user.headers
    )
    assert [e["data"]["sha256"][0] for e in later.json()["data"]] == ["a"]
    assert later.json()["data"][0]["sequence"] > seen[-1]["sequence"]
    ids = await stored(app, "SELECT id FROM events ORDER BY sequence")
    assert [r["id"] for r in ids] == [2, 1]  # numbered in commit order, not insertion order
    assert await db.transact(sequence_events) == []


async def test_postgresql_refuses_an_event_committed_without_data(app: FastAPI) -> None:
    """A write that bypasses the unit of work (here a bare connection) cannot commit."""
    if app.state.db.is_sqlite:
        pytest.skip("the deferred check is PostgreSQL's; SQLite's next unit completes it")
    user = await make_user(app)
    dsn = os.environ.get("CARDSERVICE_TEST_PG", "")
    url = app.state.settings.database_url
    connection = await asyncpg.connect(url or dsn)
    try:
        with pytest.raises(asyncpg.CheckViolationError):
            async with connection.transaction():
                await connection.execute(ATTACHMENT, uuid.uuid4(), user.uuid, "c" * 64, utcnow())
    finally:
        await connection.close()
    assert await stored(app, "SELECT uuid FROM attachments") == []


async def test_a_unit_that_says_its_events_are_written_yet_leaves_one_runs_again_with_them(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A unit that sets `events_written` skips the outbox's read on PostgreSQL; when it left a
    trigger's event after all, the deferred check fails its COMMIT and the unit runs again
    with the read: the event is committed once, with its record. (SQLite reads always.)"""
    user = await make_user(app)
    attachment = uuid.uuid4()
    runs = []

    async def work(tx: Tx) -> None:
        runs.append(1)
        tx.events_written = True
        await tx.execute(ATTACHMENT, attachment, user.uuid, "e" * 64, utcnow())

    await app.state.db.transact(work)
    assert len(runs) == (1 if app.state.db.is_sqlite else 2)
    events = await walk(client, user.headers)
    assert [(e["type"], e["data"]["uuid"]) for e in events] == [
        ("attachment.created", str(attachment))
    ]
    assert len(await stored(app, "SELECT uuid FROM attachments")) == 1

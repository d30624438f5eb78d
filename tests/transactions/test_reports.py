"""GET /transaction/report, GET /transaction/{uuid}, GET /transaction/jpg/{uuid}."""

from __future__ import annotations

import asyncio
import io
import sqlite3
import time
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image
from sqlalchemy import update

from cardservice.models import Transaction
from cardservice.models.base import utcnow
from cardservice.sql import sqlite_path
from tests.factories import around, assert_ledger_consistent, authorize, make_card, make_user


async def test_report_is_newest_first_and_pages_cleanly(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for cents in range(1, 8):
        await authorize(client, user, card, f"0.{cents:02d}")
    everything = (
        await client.get("/transaction/report", headers=user.headers, params={"per_page": 100})
    ).json()
    rows = everything["data"]
    assert everything["meta"] == {"current_page": 1, "per_page": 100, "total": 9, "last_page": 1}
    stamps = [row["created_at"] for row in rows]  # to the second; finer order is stable too
    assert stamps == sorted(stamps, reverse=True)
    walked: list[str] = []
    for page in range(1, 6):
        body = (
            await client.get(
                "/transaction/report", headers=user.headers, params={"per_page": 2, "page": page}
            )
        ).json()
        assert body["meta"]["last_page"] == 5
        walked += [row["uuid"] for row in body["data"]]
    assert walked == [row["uuid"] for row in rows]
    assert {row["type"] for row in rows} == {"card_purchase", "card_issue", "deposit"}
    past = await client.get("/transaction/report", headers=user.headers, params={"page": 3})
    assert past.json()["data"] == []
    assert past.json()["meta"] == {"current_page": 3, "per_page": 20, "total": 9, "last_page": 1}
    purchases = {"filters[type]": "card_purchase", "per_page": 3}
    filtered = await client.get("/transaction/report", headers=user.headers, params=purchases)
    assert filtered.json()["meta"]["total"] == 7 and len(filtered.json()["data"]) == 3
    beyond = await client.get(
        "/transaction/report", headers=user.headers, params={**purchases, "page": 4}
    )
    assert beyond.json()["data"] == [] and beyond.json()["meta"]["total"] == 7
    await assert_ledger_consistent(app)


async def test_report_filters(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user)
    _other_account, other_card = await make_card(app, client, user)
    old = (await authorize(client, user, card, "1")).json()["data"]["uuid"]
    await authorize(client, user, other_card, "2")
    async with around(app) as session:
        await session.execute(
            update(Transaction)
            .where(Transaction.uuid == uuid.UUID(old))
            .values(created_at=utcnow() - timedelta(days=10))
        )

    async def uuids(**params: str) -> list[str]:
        response = await client.get("/transaction/report", headers=user.headers, params=params)
        assert response.status_code == 200, response.text
        return [row["uuid"] for row in response.json()["data"]]

    by_card = await uuids(**{"filters[card_uuid]": card, "filters[type]": "card_purchase"})
    assert by_card == [old]
    assert len(await uuids(**{"filters[account_uuid]": str(account)})) == 3
    today = utcnow().date().isoformat()
    ten_days_ago = (utcnow() - timedelta(days=10)).date().isoformat()
    assert old not in await uuids(**{"filters[date_from]": today})
    assert await uuids(
        **{"filters[date_from]": ten_days_ago, "filters[date_to]": ten_days_ago}
    ) == [old]
    assert await uuids(**{"filters[status]": "refunded"}) == []
    for bad in (
        {"filters[date_from]": "2026-13-01"},
        {"filters[date_to]": "yesterday"},
        {"filters[status]": "lost"},
        {"filters[card_uuid]": "x"},
        {"filters[amount]": "1"},
        {"per_page": "0"},
        {"page": "-1"},
    ):
        response = await client.get("/transaction/report", headers=user.headers, params=bad)
        assert response.status_code == 422, bad


async def test_report_and_reads_are_private(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, owner)
    txn = (await authorize(client, owner, card, "3")).json()["data"]["uuid"]
    assert (await client.get("/transaction/report", headers=stranger.headers)).json()["data"] == []
    mine = await client.get(f"/transaction/{txn}", headers=owner.headers)
    assert mine.status_code == 200 and mine.json()["data"]["uuid"] == txn
    for path in (f"/transaction/{txn}", f"/transaction/jpg/{txn}"):
        response = await client.get(path, headers=stranger.headers)
        assert response.status_code == 404
    missing = await client.get(f"/transaction/jpg/{uuid.uuid4()}", headers=owner.headers)
    assert missing.status_code == 404
    assert missing.json() == {
        "success": False,
        "message": "Transaction not found",
        "code": "not_found",
    }


async def test_receipt_is_a_jpeg_with_etag(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    approved = (await authorize(client, user, card, "12.50", tag="amazon")).json()["data"]["uuid"]
    declined = (await authorize(client, user, card, "5000")).json()["data"]["uuid"]
    for txn in (approved, declined):
        response = await client.get(f"/transaction/jpg/{txn}", headers=user.headers)
        assert response.status_code == 200 and response.headers["content-type"] == "image/jpeg"
        assert response.headers["cache-control"] == "private, no-cache"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "JPEG" and image.width >= 400
        etag = response.headers["etag"]
        for presented in (etag, f'"other", W/{etag}'):
            again = await client.get(
                f"/transaction/jpg/{txn}", headers={**user.headers, "If-None-Match": presented}
            )
            assert again.status_code == 304 and again.headers["etag"] == etag
    first = await client.get(f"/transaction/jpg/{approved}", headers=user.headers)
    await client.post(f"/sandbox/transactions/{approved}/settle", headers=user.headers)
    changed = await client.get(f"/transaction/jpg/{approved}", headers=user.headers)
    assert changed.headers["etag"] != first.headers["etag"]  # the status is on the picture


async def test_a_deep_report_page_never_stalls_the_worker(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """SQLite runs a report page on a thread: while a deep page is read, `/health` on the
    same worker (this process, this event loop) is answered within 20 ms every time."""
    if not app.state.db.is_sqlite:
        pytest.skip("PostgreSQL's statements never run on the event loop")
    user = await make_user(app)
    account, card = await make_card(app, client, user)
    _bulk_history(app, user.uuid, uuid.UUID(str(account)), uuid.UUID(card), 200_000)
    deep = {"page": 9_000, "per_page": 20, "filters[type]": "card_purchase"}
    started = time.perf_counter()
    alone = await client.get("/transaction/report", headers=user.headers, params=deep)
    took = time.perf_counter() - started
    assert alone.status_code == 200 and len(alone.json()["data"]) == 20
    assert took > 0.1, f"the page must be slow to prove anything: {took:.3f} s"
    page = asyncio.create_task(client.get("/transaction/report", headers=user.headers, params=deep))
    delays = []
    while not page.done():
        started = time.perf_counter()
        assert (await client.get("/health")).status_code == 200
        delays.append(time.perf_counter() - started)
        await asyncio.sleep(0.005)
    assert (await page).status_code == 200
    assert len(delays) >= 5 and max(delays) < 0.020, (len(delays), max(delays))


def _bulk_history(
    app: FastAPI, user: uuid.UUID, account: uuid.UUID, card: uuid.UUID, count: int
) -> None:
    """`count` settled purchases written straight into SQLite (history for reading only)."""
    path = sqlite_path(app.state.settings.resolved_database_url)
    now = utcnow()
    with sqlite3.connect(path) as connection:
        connection.executemany(
            "INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,"
            " direction, amount, currency, fee, refunded_amount, flagged, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, 'card_purchase', 'completed', 'debit', 100, 'USD', 0, 0, 0,"
            " ?, ?)",
            (
                (uuid.uuid4().hex, user.hex, account.hex, card.hex, stamp, stamp)
                for i in range(count)
                for stamp in [(now - timedelta(seconds=i)).strftime("%Y-%m-%d %H:%M:%S.%f")]
            ),
        )

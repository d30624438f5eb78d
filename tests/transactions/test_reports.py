"""GET /transaction/report, GET /transaction/{uuid}, GET /transaction/jpg/{uuid}."""

from __future__ import annotations

import asyncio
import csv
import io
import threading
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI
from PIL import Image

from cardservice.models.base import utcnow
from cardservice.transactions.repository import SHORT_OFFSET
from tests.factories import assert_ledger_consistent, authorize, make_card, make_user


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
    assert everything["meta"] == {
        **{"current_page": 1, "per_page": 100, "total": 9, "last_page": 1},
        "next_starting_after": None,  # the last page: nothing follows
        "totals": None,  # unfiltered: the whole history's are the statements'
    }
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
    assert past.json()["meta"] == {
        **{"current_page": 3, "per_page": 20, "total": 9, "last_page": 1},
        "next_starting_after": None,
        "totals": None,
    }
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
    # a purchase of ten days ago: no service makes a transaction in the past
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE transactions SET created_at = $1 WHERE uuid = $2",
            utcnow() - timedelta(days=10),
            uuid.UUID(old),
        )
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
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite runs a deep report page on a thread: while the page's statement is held there
    (its connection waits for the test), `/health` on the same worker (this process, this
    event loop) is answered, and the page after it. A statement run on the event loop would
    hold the loop with it: nothing answered until the hold ended, the page before `/health`."""
    if not app.state.db.is_sqlite:
        pytest.skip("PostgreSQL's statements never run on the event loop")
    user = await make_user(app)
    account, card = await make_card(app, client, user)
    deep_rows = SHORT_OFFSET + 20  # a page past SHORT_OFFSET walks the index
    await _bulk_history(app, user.uuid, uuid.UUID(str(account)), uuid.UUID(card), deep_rows)
    deep = {"page": SHORT_OFFSET // 20 + 1, "per_page": 20, "filters[type]": "card_purchase"}
    reader = app.state.db.reader
    run, arrived, released = reader._run, threading.Event(), threading.Event()

    def held(sql: str, args: tuple[object, ...]) -> object:
        if "FROM transactions t" in sql and not released.is_set():
            arrived.set()
            released.wait(60)  # the test releases it at once; a held loop only after this
        return run(sql, args)

    monkeypatch.setattr(reader, "_run", held)
    page = asyncio.create_task(client.get("/transaction/report", headers=user.headers, params=deep))
    assert await asyncio.to_thread(arrived.wait, 60)
    assert (await client.get("/health")).status_code == 200
    assert not page.done()  # answered while the page's statement was held
    released.set()
    answer = await page
    assert answer.status_code == 200 and len(answer.json()["data"]) == 20


# `$4` settled purchases of the card, one a second back from now (SQLite's own clock, UTC)
_HISTORY = """
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < $4 - 1)
INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status, direction,
  amount, currency, fee, refunded_amount, flagged, created_at, updated_at)
SELECT lower(hex(randomblob(16))), $1, $2, $3, 'card_purchase', 'completed', 'debit', 100,
  'USD', 0, 0, 0, stamp, stamp
FROM (SELECT strftime('%Y-%m-%d %H:%M:%S', 'now', '-' || i || ' seconds') || '.000000' AS stamp
      FROM n)"""


async def _bulk_history(
    app: FastAPI, user: uuid.UUID, account: uuid.UUID, card: uuid.UUID, count: int
) -> None:
    """`count` settled purchases (history for reading only), in one statement of one unit
    of work: through the services they would take minutes."""
    await app.state.db.transact(lambda tx: tx.execute(_HISTORY, user, account, card, count))


async def test_keyset_pages_walk_every_row_once_in_order(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for cents in range(1, 8):
        await authorize(client, user, card, f"0.{cents:02d}")
    everything = (
        await client.get("/transaction/report", headers=user.headers, params={"per_page": 100})
    ).json()["data"]
    first = (
        await client.get("/transaction/report", headers=user.headers, params={"per_page": 2})
    ).json()
    assert first["meta"]["next_starting_after"] == first["data"][-1]["uuid"]
    walked, after = [row["uuid"] for row in first["data"]], first["meta"]["next_starting_after"]
    while after is not None:
        params = {"per_page": 2, "starting_after": after}
        body = (await client.get("/transaction/report", headers=user.headers, params=params)).json()
        assert set(body["meta"]) == {"per_page", "total", "next_starting_after", "totals"}
        assert body["meta"]["total"] == 9
        walked += [row["uuid"] for row in body["data"]]
        after = body["meta"]["next_starting_after"]
    assert walked == [row["uuid"] for row in everything]
    purchases = {"filters[type]": "card_purchase", "per_page": 3, "starting_after": walked[0]}
    filtered = (
        await client.get("/transaction/report", headers=user.headers, params=purchases)
    ).json()
    assert [row["type"] for row in filtered["data"]] == ["card_purchase"] * 3
    assert filtered["meta"]["total"] == 7


async def test_keyset_refusals(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, stranger = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user)
    theirs = (await authorize(client, user, card, "1")).json()["data"]["uuid"]

    async def get(owner: object, **params: object) -> httpx.Response:
        return await client.get(
            "/transaction/report",
            headers=owner.headers,
            params=params,  # type: ignore[attr-defined]
        )

    both = await get(user, page=1, starting_after=theirs)
    assert both.status_code == 422 and both.json()["code"] == "validation_error"
    assert (await get(user, starting_after="not-a-uuid")).status_code == 422
    foreign = await get(stranger, starting_after=theirs)
    assert foreign.status_code == 404 and foreign.json()["code"] == "not_found"
    assert (await get(user, starting_after=str(uuid.uuid4()))).status_code == 404


async def test_csv_export_streams_every_matching_row(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user)
    await make_card(app, client, stranger)
    for amount in ("1.50", "2", "3.05"):
        await authorize(client, user, card, amount)
    response = await client.get("/transaction/report.csv", headers=user.headers)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/csv")
    assert response.headers["content-disposition"].startswith("attachment")
    rows = list(csv.DictReader(io.StringIO(response.text)))
    report = (
        await client.get("/transaction/report", headers=user.headers, params={"per_page": 100})
    ).json()["data"]
    assert [row["uuid"] for row in rows] == [record["uuid"] for record in report]
    purchases = [row for row in rows if row["type"] == "card_purchase"]
    assert [row["amount"] for row in purchases] == ["3.05", "2.00", "1.50"]
    assert purchases[0]["merchant_name"] == "Netflix" and purchases[0]["fee"] == "0.10"
    assert rows[0]["created_at"].endswith("Z") and "\r\n" in response.text
    only = await client.get(
        "/transaction/report.csv", headers=user.headers, params={"filters[type]": "deposit"}
    )
    assert [row["type"] for row in csv.DictReader(io.StringIO(only.text))] == ["deposit"]
    bad = await client.get(
        "/transaction/report.csv", headers=user.headers, params={"filters[type]": "gift"}
    )
    assert bad.status_code == 422
    assert (await client.get("/transaction/report.csv")).status_code == 401


async def test_search_finds_the_merchant_or_description_in_any_case(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """`filters[search]`: part of the merchant's name or the description, any case; LIKE's
    wildcards are plain characters; the count and the pages agree; too long → 422."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user)  # its card_issue: "Card issue"
    for merchant in ("Netflix", "Amazon Prime", "100% Organic"):
        assert (await authorize(client, user, card, "1", merchant_name=merchant)).is_success

    async def found(search: str, **more: str) -> list[str]:
        params = {"per_page": 100, "filters[search]": search, **more}
        answer = await client.get("/transaction/report", headers=user.headers, params=params)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["meta"]["total"] == len(body["data"])
        return sorted((row["merchant"] or {}).get("name") or row["type"] for row in body["data"])

    assert await found("FLIX") == ["Netflix"]
    assert await found("prime") == ["Amazon Prime"]
    assert await found("%") == ["100% Organic"]  # a percent sign, not "anything"
    assert await found("_") == []
    assert await found("a", **{"filters[status]": "declined"}) == []
    assert await found("card issue") == ["card_issue"]  # the description
    too_long = {"filters[search]": "x" * 65}
    refused = await client.get("/transaction/report", headers=user.headers, params=too_long)
    assert refused.status_code == 422 and "filters[search]" in refused.json()["errors"]

"""The program read back (docs/operations.md, "Reading the program back"; scope `reports`):
every user's programs, accounts, cards and transactions, paged and filtered, each record as
its holder reads it, never a full card number; transactions and the audit log as CSV."""

from __future__ import annotations

import csv
import io
import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import text_uuid
from tests.factories import Caller, authorize, make_card, make_user
from tests.ledger.activity import activity
from tests.operator.helpers import as_operator, operator_key, send

LISTS = ("/operator/programs", "/operator/accounts", "/operator/cards", "/operator/transactions")


async def _numbers(app: FastAPI) -> list[str]:
    """Every card's full number, read back from the vault."""
    rows = await app.state.db.reader.rows("SELECT pan_ciphertext FROM cards")
    return [app.state.cipher.decrypt(bytes(row["pan_ciphertext"])) for row in rows]


async def _get(client: httpx.AsyncClient, key: str, path: str) -> dict[str, Any]:
    answer = await send(client, "GET", path, key)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


async def _as_holder(client: httpx.AsyncClient, user: Caller, path: str) -> Any:
    answer = await client.get(path, headers=user.headers)
    assert answer.status_code == 200, answer.text
    return answer.json()["data"]


async def _two_holders(app: FastAPI, client: httpx.AsyncClient) -> tuple[Caller, str, Caller, str]:
    first, second = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, first)
    _other_account, other_card = await make_card(app, client, second, start_balance="50")
    assert (await authorize(client, first, card, "12.50")).status_code == 201
    assert (await authorize(client, second, other_card, "3")).status_code == 201
    return first, card, second, other_card


async def test_every_holders_records_read_back_as_the_holder_sees_them(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    first, card, second, other_card = await _two_holders(app, client)
    key = await operator_key(app, "reports")
    accounts = await _get(client, key, "/operator/accounts")
    assert accounts["meta"] == {"current_page": 1, "per_page": 20, "total": 2, "last_page": 1}
    for user in (first, second):
        [own] = (await _as_holder(client, user, "/accounts"))["items"]
        assert own in accounts["data"]
    cards = (await _get(client, key, "/operator/cards"))["data"]
    assert [c["uuid"] for c in cards] == [card, other_card]  # oldest first
    assert cards[0] == await _as_holder(client, first, f"/card/{card}")
    assert cards[1] == await _as_holder(client, second, f"/card/{other_card}")
    transactions = await _get(client, key, "/operator/transactions")
    records = transactions["data"]
    assert transactions["meta"]["total"] == len(records) > 2
    mine = await _as_holder(client, first, "/transaction/report")
    theirs = await _as_holder(client, second, "/transaction/report")
    assert sorted(records, key=lambda r: r["uuid"]) == sorted(
        mine + theirs, key=lambda r: r["uuid"]
    )
    newest_first = await app.state.db.reader.rows(
        "SELECT uuid FROM transactions ORDER BY created_at DESC, uuid DESC"
    )
    assert [r["uuid"] for r in records] == [str(text_uuid(row["uuid"])) for row in newest_first]


async def test_filters_narrow_each_list(app: FastAPI, client: httpx.AsyncClient) -> None:
    first, card, second, other_card = await _two_holders(app, client)
    key = await operator_key(app, "reports", "cards", "users")
    bins = await app.state.db.reader.rows("SELECT uuid FROM bins WHERE currency = 'USD'")
    program = await send(
        client, "POST", "/operator/programs", key,
        {"name": "Gold", "bin_uuids": [str(text_uuid(row["uuid"])) for row in bins]},
    )  # fmt: skip
    program_uuid = program.json()["data"]["uuid"]
    moved = await send(
        client, "PATCH", f"/operator/users/{second.uuid}", key, {"program_uuid": program_uuid}
    )
    assert moved.status_code == 200, moved.text
    await send(client, "POST", f"/operator/cards/{card}/freeze", key)

    async def uuids(path: str) -> list[str]:
        return [record["uuid"] for record in (await _get(client, key, path))["data"]]

    assert await uuids(f"/operator/cards?filters[user_uuid]={second.uuid}") == [other_card]
    assert await uuids(f"/operator/cards?filters[program_uuid]={program_uuid}") == [other_card]
    assert await uuids("/operator/cards?filters[status]=frozen") == [card]
    last4 = {
        str(text_uuid(row["uuid"])): row["last4"]
        for row in await app.state.db.reader.rows("SELECT uuid, last4 FROM cards")
    }
    searched = await uuids(f"/operator/cards?filters[search]={last4[card]}")
    assert searched == [c for c in (card, other_card) if last4[c] == last4[card]]  # by age
    assert await uuids("/operator/programs") == [program_uuid]
    accounts = await _get(client, key, f"/operator/accounts?filters[user_uuid]={first.uuid}")
    assert [a["owner"]["uuid"] for a in accounts["data"]] == [str(first.uuid)]
    assert await uuids("/operator/accounts?filters[status]=frozen") == []
    by_card = await _get(client, key, f"/operator/transactions?filters[card_uuid]={card}")
    assert {t["card_uuid"] for t in by_card["data"]} == {card}
    purchases = (
        f"/operator/transactions?filters[user_uuid]={second.uuid}&filters[type]=card_purchase"
    )
    [purchase] = (await _get(client, key, purchases))["data"]
    assert purchase["card_uuid"] == other_card and purchase["status"] == "pending"
    pending = await uuids("/operator/transactions?filters[status]=pending")
    assert len(pending) == 2
    day = purchase["created_at"][:10]
    same_day = f"/operator/transactions?filters[date_from]={day}&filters[date_to]={day}"
    assert (
        len(await uuids(same_day))
        == (await _get(client, key, "/operator/transactions"))["meta"]["total"]
    )
    assert await uuids("/operator/transactions?filters[date_to]=2000-01-01") == []


async def test_pages_walk_every_row_once(app: FastAPI, client: httpx.AsyncClient) -> None:
    await activity(app, client)
    key = await operator_key(app, "reports")
    whole = (await _get(client, key, "/operator/transactions?per_page=100"))["data"]
    walked: list[str] = []
    for page in range(1, len(whole) + 2):
        body = await _get(client, key, f"/operator/transactions?per_page=3&page={page}")
        assert body["meta"]["total"] == len(whole)
        walked += [t["uuid"] for t in body["data"]]
    assert walked == [t["uuid"] for t in whole]


async def test_no_full_card_number_in_any_list_or_csv(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    await _two_holders(app, client)
    await activity(app, client)
    key = await operator_key(app, "reports")
    numbers = await _numbers(app)
    assert len(numbers) == 3
    csv_accept = {**as_operator(key), "Accept": "text/csv"}
    answers = [await send(client, "GET", f"{path}?per_page=100", key) for path in LISTS]
    answers += [
        await client.get(path, headers=csv_accept)
        for path in ("/operator/transactions", "/operator/audit-log")
    ]
    for answer in answers:
        assert answer.status_code == 200, answer.text
        for number in numbers:
            assert number not in answer.text and number[6:] not in answer.text


async def test_transactions_as_csv_are_the_holders_export_for_everyone(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    first, card, second, _other_card = await _two_holders(app, client)
    key = await operator_key(app, "reports")
    headers = {**as_operator(key), "Accept": "text/csv"}
    answer = await client.get("/operator/transactions", headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/csv")
    assert answer.headers["content-disposition"].startswith("attachment")
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    own = await client.get("/transaction/report.csv", headers=first.headers)
    theirs = await client.get("/transaction/report.csv", headers=second.headers)
    expected = [*csv.DictReader(io.StringIO(own.text)), *csv.DictReader(io.StringIO(theirs.text))]
    assert sorted(rows, key=lambda r: r["uuid"]) == sorted(expected, key=lambda r: r["uuid"])
    narrowed = await client.get(
        f"/operator/transactions?filters[card_uuid]={card}", headers=headers
    )
    assert {r["card_uuid"] for r in csv.DictReader(io.StringIO(narrowed.text))} == {card}
    json_first = await client.get(
        "/operator/transactions",
        headers={**as_operator(key), "Accept": "application/json, text/csv"},
    )
    assert json_first.json()["success"] is True


async def test_the_audit_log_as_csv(app: FastAPI, client: httpx.AsyncClient) -> None:
    key = await operator_key(app, "users", "reports")
    for n in range(3):
        body = {"email": f"csv-{n}@example.com", "name": f"=HYPERLINK({n})"}
        assert (await send(client, "POST", "/operator/users", key, body)).status_code == 201
    headers = {**as_operator(key), "Accept": "text/csv"}
    answer = await client.get("/operator/audit-log?filters[action]=user.created", headers=headers)
    assert answer.status_code == 200, answer.text
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    listed = (await _get(client, key, "/operator/audit-log?filters[action]=user.created"))["data"]
    assert [r["uuid"] for r in rows] == [r["uuid"] for r in listed] and len(rows) == 3
    assert {r["actor_type"] for r in rows} == {"operator_key"}
    assert all(r["object_type"] == "user" and r["created_at"].endswith("Z") for r in rows)


@pytest.mark.parametrize(
    "query",
    [
        "/operator/accounts?filters[owner]=x",
        "/operator/accounts?filters[status]=open",
        "/operator/accounts?filters[user_uuid]=nope",
        "/operator/cards?filters[status]=lost",
        "/operator/cards?filters[program_uuid]=1",
        "/operator/cards?filters[search]=" + "4" * 65,
        "/operator/transactions?filters[type]=gift",
        "/operator/transactions?filters[status]=done",
        "/operator/transactions?filters[date_from]=2026-02-30",
        "/operator/transactions?filters[account_uuid]=00000000-0000-4000-8000-000000000000",
        "/operator/transactions?per_page=101",
        "/operator/cards?per_page=0",
        "/operator/programs?page=0",
        "/operator/accounts?per_page=500",
    ],
)
async def test_bad_filters_and_pages_are_422(
    app: FastAPI, client: httpx.AsyncClient, query: str
) -> None:
    key = await operator_key(app, "reports")
    for headers in (as_operator(key), {**as_operator(key), "Accept": "text/csv"}):
        answer = await client.get(query, headers=headers)
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["success"] is False and body["code"] == "validation_error" and body["errors"]


async def test_reading_back_needs_the_reports_scope(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    other = await operator_key(app, "users", "funding", "cards", "network")
    holder = await make_user(app)
    for path in (*LISTS, "/operator/audit-log"):
        refused = await send(client, "GET", path, other)
        assert refused.status_code == 403 and refused.json()["code"] == "forbidden", path
        assert (await client.get(path, headers=holder.headers)).status_code == 403
        assert (await client.get(path)).status_code == 401


async def test_one_program_reads_with_cards_or_reports(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    cards, reports = await operator_key(app, "cards"), await operator_key(app, "reports")
    bins = await app.state.db.reader.rows("SELECT uuid FROM bins WHERE currency = 'USD'")
    body = {"name": "Silver", "bin_uuids": [str(text_uuid(bins[0]["uuid"]))]}
    created = (await send(client, "POST", "/operator/programs", cards, body)).json()["data"]
    for key in (cards, reports):
        read = await send(client, "GET", f"/operator/programs/{created['uuid']}", key)
        assert read.status_code == 200 and read.json()["data"] == created
    assert (await send(client, "GET", "/operator/programs", cards)).status_code == 403
    missing = await send(client, "GET", f"/operator/programs/{uuid.uuid4()}", reports)
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"

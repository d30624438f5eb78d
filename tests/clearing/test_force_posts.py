"""A unit's force posts are decided one after the other and written together
(docs/network.md#units-of-records, `transactions.force_post`): the same file booked with every
force post written alone (a set of one, as a unit booked again one at a time does) leaves
exactly the same transactions, entries, events and balances; a set the database refuses is
booked again one force post at a time, and the refused record never undoes its neighbours."""

from __future__ import annotations

import uuid
from decimal import Decimal
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.clearing import booking, service
from cardservice.http.router import dumps
from cardservice.transactions import engine
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.factories import Caller, assert_ledger_consistent, bin_uuid
from tests.network.conftest import issue_card
from tests.operator.helpers import operator_key

ROLES = ("plain", "replenished", "single_use", "locked")


async def _card(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, account: str, **extra: object
) -> tuple[str, str]:
    """Another card on the account (uuid, number)."""
    body = {"account_uuid": account, "bin_uuid": await bin_uuid(app), **extra}
    response = await client.post(
        "/card/buy", content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )  # fmt: skip
    assert response.status_code == 201, response.text
    card_uuid: str = response.json()["data"]["cards"][0]["uuid"]
    row = await app.state.db.reader.row(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card_uuid)
    )
    assert row is not None
    return card_uuid, app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))


async def _account_of_four(
    app: FastAPI, client: httpx.AsyncClient
) -> tuple[str, dict[str, tuple[str, str]]]:
    """One account (funds 50.00) with four cards: `plain` 5.00, `replenished` 3.00 topped up
    by 2.00 under 1.00, a `single_use` 4.00 and a `merchant_locked` 10.00: their uuids and
    numbers by role."""
    user, first = await issue_card(app, client, funds="50", start_balance="5")
    account = str(first.account)
    cards = {"plain": (first.uuid, first.pan)}
    cards["replenished"] = await _card(
        app, client, user, account, start_balance=Decimal(3),
        auto_replenish_amount=Decimal(2), auto_replenish_min_balance=Decimal(1),
    )  # fmt: skip
    cards["single_use"] = await _card(
        app, client, user, account, start_balance=Decimal(4), card_type="single_use"
    )
    cards["locked"] = await _card(
        app, client, user, account, start_balance=Decimal(10), card_type="merchant_locked"
    )
    return account, cards


def _file(file_id: str, cards: dict[str, tuple[str, str]]) -> bytes:
    """Force posts over the account's cards: the plain card run down to a shortfall, the
    replenished one below its threshold, the single_use one presented after its close, the
    locked one bound; a refund between them (its credit moves money: the force posts before
    it are written first)."""
    pan = {role: number for role, (_uuid, number) in cards.items()}
    items = [
        presentment(pan["plain"], 200), presentment(pan["replenished"], 150),
        presentment(pan["plain"], 200), presentment(pan["single_use"], 100),
        presentment(pan["plain"], 200), presentment(pan["locked"], 300, merchant="Acme"),
        presentment(pan["replenished"], 150), presentment(pan["single_use"], 100),
        presentment(pan["plain"], 100), presentment(pan["plain"], 50, refund=True),
        presentment(pan["plain"], 100), presentment(pan["replenished"], 400),
    ]  # fmt: skip
    return ipm_file(file_id, items)


async def _what_moved(
    app: FastAPI, account: str, cards: dict[str, tuple[str, str]]
) -> dict[str, Any]:
    """Everything the file left on the account, without uuids and times: each card's
    transactions in order with their entries' postings and their `transaction.created`
    data, the cards' balances and statuses, the account's balance."""
    reader = app.state.db.reader
    role_of = {uuid.UUID(card_uuid): role for role, (card_uuid, _pan) in cards.items()}
    moved: dict[str, Any] = {}
    for role, (card_uuid, _pan) in cards.items():
        rows = await reader.rows(
            "SELECT uuid, type, status, direction, amount, fee, shortfall, captured_amount,"
            " channel, stand_in, decision, merchant_name, clearing FROM transactions"
            " WHERE card_uuid = $1 ORDER BY created_at, type, uuid",
            uuid.UUID(card_uuid),
        )
        listed = []
        for row in rows:
            postings = await reader.rows(
                "SELECT e.kind, p.card_uuid, p.account_uuid, p.system_book, p.amount"
                " FROM journal_entries e JOIN postings p ON p.entry_id = e.id"
                " WHERE e.reference = $1 ORDER BY e.id, p.amount, p.system_book",
                row["uuid"],
            )
            events = await reader.rows(
                "SELECT type, data FROM events WHERE object_uuid = $1 ORDER BY id", row["uuid"]
            )
            listed.append(
                (
                    [row[k] for k in row.keys() if k not in ("uuid", "clearing")],  # noqa: SIM118
                    row["clearing"] is not None,
                    [
                        (
                            p["kind"],
                            role_of.get(_uuid(p["card_uuid"]), p["card_uuid"]),
                            p["account_uuid"] is not None,
                            p["system_book"],
                            int(p["amount"]),
                        )
                        for p in postings
                    ],
                    [(e["type"], _without_ids(e["data"])) for e in events],
                )
            )
        card = await reader.row(
            "SELECT balance, status, locked_merchant FROM cards WHERE uuid = $1",
            uuid.UUID(card_uuid),
        )
        assert card is not None
        moved[role] = (listed, int(card["balance"]), card["status"], card["locked_merchant"])
    balance = await reader.value("SELECT balance FROM accounts WHERE uuid = $1", uuid.UUID(account))
    moved["account"] = int(balance)
    return moved


def _uuid(value: object) -> uuid.UUID | None:
    return None if value is None else uuid.UUID(str(value))


def _without_ids(data: object) -> object:
    """An event's data without what differs between two accounts' files: uuids, times, the
    record's message number, the ARN the service makes for a purchase."""
    if data is None:
        return None
    found = orjson.loads(data) if isinstance(data, str | bytes) else data

    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {
                k: strip(v) for k, v in value.items()
                if not k.endswith(("uuid", "_at")) and k not in ("message_number", "arn")
            }  # fmt: skip
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(found)


async def test_force_posts_written_together_leave_what_one_at_a_time_leaves(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = await operator_key(app, "network")
    together, together_cards = await _account_of_four(app, client)
    alone, alone_cards = await _account_of_four(app, client)
    first = report_of(await post_file(client, key, _file("FILE-SET", together_cards)))
    real = booking.book_records

    async def one_at_a_time(tx: Any, **arguments: Any) -> None:
        await real(tx, **{**arguments, "one_at_a_time": True})

    monkeypatch.setattr(service, "book_records", one_at_a_time)
    second = report_of(await post_file(client, key, _file("FILE-ALONE", alone_cards)))
    kept = ("presentments", "refunds", "unmatched", "amount_differences", "totals")
    assert {k: first[k] for k in kept} == {k: second[k] for k in kept}
    assert first["presentments"]["force_posted"] == 11 and first["refunds"] == 1
    moved = await _what_moved(app, together, together_cards)
    assert moved == await _what_moved(app, alone, alone_cards)
    # what the file did, as the rules say: the plain card's third force post (2.00 + 0.10 on
    # 0.80) owes 1.30, its fourth all of it, its fifth what the refund's 0.50 leaves; the
    # single_use card closed after its first and owes all of its second
    _plain, plain_balance, _status, _bound = moved["plain"]
    shortfalls = [row[0][5] for row in moved["plain"][0] if row[0][0] == "card_purchase"]
    assert shortfalls == [0, 0, 130, 110, 60] and plain_balance == 0
    single, single_balance, single_status, _bound = moved["single_use"]
    assert single_status == "closed" and single_balance == 0
    kinds = sorted(row[0][0] for row in single)
    assert kinds == ["card_close", "card_issue", "card_purchase", "card_purchase"]
    assert sorted(row[0][5] for row in single if row[0][0] == "card_purchase") == [0, 110]
    replenished = [row[0][0] for row in moved["replenished"][0]]
    assert replenished.count("auto_replenish") >= 1
    assert moved["locked"][3] is not None  # bound by its first approval
    await assert_ledger_consistent(app)


async def test_a_set_the_database_refuses_is_booked_one_at_a_time_naming_its_record(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A force post decided wrong (here: a shortfall forgotten for one amount, so its card
    would go below zero) is refused with its whole set; the unit is booked again one force
    post at a time: that record is an exception, its neighbours booked once."""
    _user, card = await issue_card(app, client, start_balance="1")
    real = engine.answered_row

    def forgetful(*arguments: Any) -> dict[str, Any]:
        row = real(*arguments)
        if row["amount"] == 777:
            row["shortfall"] = 0
        return row

    monkeypatch.setattr(engine, "answered_row", forgetful)
    key = await operator_key(app, "network")
    items = [presentment(card.pan, 20), presentment(card.pan, 777), presentment(card.pan, 30)]
    report = report_of(await post_file(client, key, ipm_file("FILE-REFUSED-SET", items)))
    assert report["presentments"]["force_posted"] == 2
    assert [(u["message_number"], u["reason"]) for u in report["unmatched"]] == [
        (items[1].message_number, "refused: The balance does not cover this amount.")
    ]
    purchases = await app.state.db.reader.rows(
        "SELECT amount, shortfall FROM transactions WHERE card_uuid = $1"
        " AND type = 'card_purchase' ORDER BY created_at",
        uuid.UUID(card.uuid),
    )
    assert [(int(p["amount"]), int(p["shortfall"])) for p in purchases] == [(20, 0), (30, 0)]
    await assert_ledger_consistent(app)

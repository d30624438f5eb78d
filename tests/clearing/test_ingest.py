"""Clearing files (docs/network.md#clearing-files) over the operator API, on both databases: real
IPM files written by cardutil, authorizations made over a real ISO 8583 connection, every case of
the section, with the response and what changed in the books."""

from __future__ import annotations

import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.config import Settings
from cardservice.encoding import dumps
from cardservice.ledger.books import settlement_report
from cardservice.models.base import utcnow
from cardservice.transactions.records import transaction_columns, transaction_record
from tests.clearing.helpers import (
    ipm_file,
    post_file,
    presentment,
    report_of,
    with_second_header,
)
from tests.cli.test_cli import Command
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import IssuedCard, Network, issue_card
from tests.operator.helpers import operator_key

START = 10_000  # each card's balance: 100.00
FEE = 10  # the card_transaction fee
ARN = "74123450000000000000001"


async def _authorized(network: Network, card: IssuedCard, amount: int) -> dict[int, str]:
    """An 0100 approved; its fields with the answer's approval code in 38."""
    fields = messages.authorization(card.pan, card.expiry, amount, *network.key())
    answer = await network.client.request("0100", fields)
    assert answer.fields[39] == "00"
    return fields | {38: answer.fields[38]}


async def _card_balance(app: FastAPI, card: IssuedCard) -> int:
    return (await balances(app, card.account))[1][0]


async def _purchases(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def _force_posted(
    app: FastAPI, client: httpx.AsyncClient, card: IssuedCard, amount: int, file_id: str
) -> SimpleNamespace:
    """A file of one presentment of `amount` with no authorization behind it, sent by the
    network operator: force posted; the purchase it booked."""
    key = await operator_key(app, "network")
    item = presentment(card.pan, amount, approval_code="NOAUTH")
    report = report_of(await post_file(client, key, ipm_file(file_id, [item])))
    assert report["presentments"]["force_posted"] == 1
    [posted] = await _purchases(app)
    return posted


async def _shown(client: httpx.AsyncClient, user: Any, transaction: uuid.UUID) -> dict[str, Any]:
    """The transaction as its owner reads it through the API."""
    response = await client.get(f"/transaction/{transaction}", headers=user.headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def _events_of(app: FastAPI, transaction: uuid.UUID) -> list[tuple[str, str]]:
    """The transaction's events as stored, in the order written: (type, data as JSON text)."""
    rows = await app.state.db.reader.rows(
        "SELECT type, data FROM events WHERE object_uuid = $1 ORDER BY id", transaction
    )
    return [(str(row["type"]), str(row["data"])) for row in rows]


async def _record_of(app: FastAPI, transaction: uuid.UUID) -> str:
    """The transaction's API record built from its row as it is now, as JSON text."""
    row = await app.state.db.reader.row(
        f"SELECT {transaction_columns('t')} FROM transactions t WHERE t.uuid = $1", transaction
    )
    assert row is not None
    return dumps(transaction_record(row)).decode()


async def test_a_presentment_of_a_held_authorization_captures_it_and_releases_the_rest(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    original = await _authorized(network, card, 5000)
    key = await operator_key(app, "network")
    item = presentment(card.pan, 4200, approval_code=original[38], arn=ARN)
    report = report_of(await post_file(client, key, ipm_file("FILE-MATCH", [item])))
    assert report["file_id"] == "FILE-MATCH" and report["messages"] == 3
    assert report["presentments"] == {"matched": 1, "duplicates": 0, "force_posted": 0}
    assert report["refunds"] == 0 and report["unmatched"] == [] and report["ignored"] == 0
    assert report["totals"] == [{"currency": "USD", "count": 1, "amount": 42}]
    [purchase] = await _purchases(app)
    assert purchase.status == "completed" and purchase.captured_amount == 4200
    assert purchase.amount == 4200 and purchase.shortfall == 0
    assert await _card_balance(app, card) == START - 4200 - FEE
    shown = await _shown(client, user, purchase.uuid)
    assert shown["clearing"] == {
        "file_uuid": report["uuid"], "message_number": item.message_number, "arn": ARN,
    }  # fmt: skip
    assert shown["channel"] == "iso8583"  # the authorization's channel stays
    # its clearing is set with the capture: the capture's event shows it, as the API does
    [(created, _pending), (updated, data)] = await _events_of(app, purchase.uuid)
    assert (created, updated) == ("transaction.created", "transaction.updated")
    assert data == await _record_of(app, purchase.uuid) and orjson.loads(data) == shown
    settled = await settlement_report(app.state.db.reader, utcnow().date())
    assert settled[0]["captures"] == {"count": 1, "amount": 42}
    await assert_ledger_consistent(app)


async def test_an_over_capture_the_card_cannot_pay_is_owed_as_shortfall(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card, 9000)  # the card keeps 990
    key = await operator_key(app, "network")
    item = presentment(card.pan, 12_000, approval_code=original[38])  # 33 % more: never refused
    report = report_of(await post_file(client, key, ipm_file("FILE-OVER", [item])))
    assert report["presentments"]["matched"] == 1
    [purchase] = await _purchases(app)
    assert purchase.status == "completed" and purchase.captured_amount == 12_000
    assert purchase.shortfall == 12_000 - 9000 - 990
    assert await _card_balance(app, card) == 0
    await assert_ledger_consistent(app)


async def test_a_presentment_captured_online_before_is_a_duplicate_or_moves_the_difference(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    same = await _authorized(network, card, 1000)
    other = await _authorized(network, card, 2000)
    for original, amount in ((same, 1000), (other, 2000)):
        capture = messages.capture_advice(original, amount, *network.key())
        assert (await network.client.request("0220", capture)).fields[39] == "00"
    before = await _card_balance(app, card)
    key = await operator_key(app, "network")
    duplicate = presentment(card.pan, 1000, approval_code=same[38])
    different = presentment(card.pan, 2300, approval_code=other[38])
    body = ipm_file("FILE-CAPTURED", [duplicate, different])
    report = report_of(await post_file(client, key, body))
    assert report["presentments"] == {"matched": 1, "duplicates": 1, "force_posted": 0}
    [difference] = report["amount_differences"]
    first, second = await _purchases(app)
    assert difference == {
        "message_number": different.message_number, "transaction_uuid": str(second.uuid),
        "authorized": 20, "presented": 23,
    }  # fmt: skip
    assert first.captured_amount == 1000 and second.captured_amount == 2300
    assert await _card_balance(app, card) == before - 300
    assert report["totals"] == [{"currency": "USD", "count": 2, "amount": 33}]
    await assert_ledger_consistent(app)


async def test_a_presentment_of_a_reversed_authorization_is_force_posted(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    original = await _authorized(network, card, 3000)
    reversal = messages.reversal_request(original, *network.key())
    assert (await network.client.request("0400", reversal)).fields[39] == "00"
    assert await _card_balance(app, card) == START
    key = await operator_key(app, "network")
    item = presentment(card.pan, 3000, approval_code=original[38], arn=ARN)
    report = report_of(await post_file(client, key, ipm_file("FILE-REVERSED", [item])))
    assert report["presentments"] == {"matched": 0, "duplicates": 0, "force_posted": 1}
    reversed_, posted = await _purchases(app)
    assert reversed_.status == "reversed"
    assert posted.status == "completed" and posted.captured_amount == 3000
    assert posted.stand_in and posted.channel == "clearing"
    assert await _card_balance(app, card) == START - 3000 - FEE
    shown = await _shown(client, user, posted.uuid)
    assert shown["clearing"] == {
        "file_uuid": report["uuid"], "message_number": item.message_number, "arn": ARN,
    }  # fmt: skip
    assert shown["network"]["arn"] == ARN  # the presentment's, not one the service makes
    assert shown["merchant"]["name"] == "Netflix" and shown["channel"] == "clearing"
    # written with its clearing record: its one event is the record the API shows
    [(created, data)] = await _events_of(app, posted.uuid)
    assert created == "transaction.created"
    assert data == await _record_of(app, posted.uuid) and orjson.loads(data) == shown
    await assert_ledger_consistent(app)


async def test_a_force_post_without_authorization_the_card_cannot_cover_is_owed(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    posted = await _force_posted(app, client, card, 15_000, "FILE-FORCE")
    assert posted.status == "completed" and posted.captured_amount == 15_000
    assert posted.shortfall == 15_000 + FEE - START
    assert await _card_balance(app, card) == 0
    await assert_ledger_consistent(app)


async def test_a_force_post_is_one_entry_and_closes_a_single_use_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client, card_type="single_use")
    account_before, _cards = await balances(app, card.account)
    posted = await _force_posted(app, client, card, 2500, "FILE-SINGLE-USE")
    assert posted.status == "completed" and posted.captured_amount == 2500
    assert posted.hold_expires_at is None
    entries = await app.state.db.reader.rows(
        "SELECT kind FROM journal_entries WHERE reference = $1", posted.uuid
    )
    assert [row["kind"] for row in entries] == ["card_purchase_captured"]
    state = await app.state.db.reader.row(
        "SELECT status, balance FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
    )
    assert state is not None and (state["status"], state["balance"]) == ("closed", 0)
    account_after, _cards = await balances(app, card.account)
    assert account_after == account_before + START - 2500 - FEE  # the rest went back
    await assert_ledger_consistent(app)


async def test_refunds_credit_the_card_linked_by_arn_or_not(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card, 4000)
    key = await operator_key(app, "network")
    cleared = presentment(card.pan, 4000, approval_code=original[38], arn=ARN)
    report_of(await post_file(client, key, ipm_file("FILE-DAY-1", [cleared])))
    linked = presentment(card.pan, 1500, arn=ARN, refund=True)
    unlinked = presentment(card.pan, 700, refund=True)
    report = report_of(await post_file(client, key, ipm_file("FILE-DAY-2", [linked, unlinked])))
    assert report["refunds"] == 2 and report["unmatched"] == []
    assert report["totals"] == [{"currency": "USD", "count": 2, "amount": -22}]
    [purchase] = await _purchases(app)
    assert purchase.refunded_amount == 1500
    refunds = await stored_transactions(app, "card_refund")
    credits = sorted(refunds, key=lambda credit: credit.amount, reverse=True)
    assert [(c.amount, c.parent_uuid, c.channel) for c in credits] == [
        (1500, purchase.uuid, "clearing"), (700, None, "clearing"),
    ]  # fmt: skip
    assert orjson.loads(credits[0].clearing or "null")["arn"] == ARN
    assert await _card_balance(app, card) == START - 4000 - FEE + 1500 + 700
    await assert_ledger_consistent(app)


async def test_an_online_refund_presented_again_is_a_duplicate_and_the_day_settles_the_file(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """An acquirer clears what it settled online too: the purchase an 0220 captured and the
    refund an 0220 credited come again in the file (the refund with the purchase's ARN); both
    are duplicates, nothing moves, and the day's settlement report equals the file's totals.
    A second refund presentment of the same amount has no online twin left: it refunds."""
    user, card = await issue_card(app, client)
    original = await _authorized(network, card, 4000)
    capture = messages.capture_advice(original, 4000, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    back = messages.refund_advice(card.pan, 1500, *network.key(), original=original)
    assert (await network.client.request("0220", back)).fields[39] == "00"
    before = await _card_balance(app, card)
    key = await operator_key(app, "network")
    cleared = presentment(card.pan, 4000, approval_code=original[38], arn=ARN)
    again = presentment(card.pan, 1500, arn=ARN, refund=True)
    body = ipm_file("FILE-ONLINE", [cleared, again])
    report = report_of(await post_file(client, key, body))
    assert report["presentments"] == {"matched": 0, "duplicates": 1, "force_posted": 0}
    assert report["refunds"] == 1 and report["unmatched"] == []
    assert report["totals"] == [{"currency": "USD", "count": 2, "amount": 25}]
    assert await _card_balance(app, card) == before
    [online] = await stored_transactions(app, "card_refund")
    assert online.channel == "iso8583" and online.amount == 1500
    shown = await _shown(client, user, online.uuid)
    assert shown["clearing"] == {
        "file_uuid": report["uuid"], "message_number": again.message_number, "arn": ARN,
    }  # fmt: skip
    [settled] = await settlement_report(app.state.db.reader, utcnow().date())
    assert settled["net"] == report["totals"][0]["amount"]
    second = presentment(card.pan, 1500, arn=ARN, refund=True)
    report = report_of(await post_file(client, key, ipm_file("FILE-ONLINE-2", [second])))
    assert report["refunds"] == 1 and report["totals"][0]["amount"] == -15
    [purchase] = await _purchases(app)
    assert purchase.refunded_amount == 3000
    assert await _card_balance(app, card) == before + 1500
    await assert_ledger_consistent(app)


async def test_an_unknown_card_is_unmatched_and_moves_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    key = await operator_key(app, "network")
    stranger = presentment("5500000000000004", 2500, approval_code="ABC123")
    known = presentment(card.pan, 1000, approval_code="NOAUTH")
    report = report_of(await post_file(client, key, ipm_file("FILE-UNKNOWN", [stranger, known])))
    assert report["unmatched"] == [
        {"message_number": stranger.message_number, "reason": "unknown card"}
    ]
    assert report["presentments"]["force_posted"] == 1
    assert report["totals"] == [{"currency": "USD", "count": 1, "amount": 10}]
    assert len(await _purchases(app)) == 1
    await assert_ledger_consistent(app)


async def test_the_same_file_again_answers_its_first_report_and_moves_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card, 2000)
    key = await operator_key(app, "network")
    body = ipm_file("FILE-TWICE", [presentment(card.pan, 2000, approval_code=original[38])])
    first = report_of(await post_file(client, key, body))
    balance = await _card_balance(app, card)
    again = report_of(await post_file(client, key, body), status=200)
    assert again == first
    assert await _card_balance(app, card) == balance
    reports = await operator_key(app, "reports")
    listed = await client.get(
        "/operator/clearing-files", headers={"Authorization": f"Bearer {reports}"}
    )
    assert listed.status_code == 200 and listed.json()["data"] == [first]
    assert listed.json()["meta"]["total"] == 1
    one = await client.get(
        f"/operator/clearing-files/{first['uuid']}", headers={"Authorization": f"Bearer {reports}"}
    )
    assert one.status_code == 200 and one.json()["data"] == first
    refused = await post_file(client, reports, body)  # posting needs `network`
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    await assert_ledger_consistent(app)


async def _nothing_booked(app: FastAPI) -> None:
    reader = app.state.db.reader
    files = await reader.value("SELECT count(*) FROM clearing_files")
    records = await reader.value("SELECT count(*) FROM clearing_records")
    assert (files, records) == (0, 0)


def _invalid(response: httpx.Response, reason: str) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["success"] is False and body["code"] == "clearing_file_invalid"
    assert reason in body["message"], body["message"]


async def test_bad_files_are_refused_whole_and_move_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card, 2000)
    balance = await _card_balance(app, card)
    key = await operator_key(app, "network")
    items = [presentment(card.pan, 2000, approval_code=original[38]) for _ in range(30)]
    good = ipm_file("FILE-BAD", items)
    cut = good[: len(good) // 2]
    _invalid(await post_file(client, key, cut), "refused")
    _invalid(await post_file(client, key, cut[:-1] + b"\xff" * 1200), "cannot be read")
    _invalid(await post_file(client, key, b"\x00\x17garbage" * 200), "not an IPM file")
    counted = bytearray(good)
    at = counted.rindex("00000032".encode("cp500"))  # the trailer's PDS 0306
    counted[at : at + 8] = "00000031".encode("cp500")
    _invalid(await post_file(client, key, bytes(counted)), "trailer counts")
    await _nothing_booked(app)
    report_of(await post_file(client, key, ipm_file("FILE-ID", items[:1])))
    _invalid(await post_file(client, key, ipm_file("FILE-ID", items[1:2])), "other bytes")
    assert await _card_balance(app, card) == balance  # the second file moved nothing
    [purchase] = await _purchases(app)
    assert purchase.captured_amount == 2000


def _no_trace(caplog: pytest.LogCaptureFixture) -> None:
    """No log line of the test carries a stack trace."""
    assert all(record.exc_info is None for record in caplog.records)
    assert "Traceback" not in caplog.text


async def test_a_file_id_over_64_characters_is_refused_without_a_trace(
    app: FastAPI, client: httpx.AsyncClient, caplog: pytest.LogCaptureFixture
) -> None:
    """The review's file: PDS 0105 of 65 characters answered 500 with a stack trace in the
    log; now 422 and nothing moved. 64 characters are taken."""
    _user, card = await issue_card(app, client)
    key = await operator_key(app, "network")
    item = presentment(card.pan, 1000, approval_code="NOAUTH")
    refused = await post_file(client, key, ipm_file("F" * 65, [item]))
    _invalid(refused, "PDS 0105")
    _no_trace(caplog)
    await _nothing_booked(app)
    assert await _card_balance(app, card) == START
    report = report_of(await post_file(client, key, ipm_file("F" * 64, [item])))
    assert report["file_id"] == "F" * 64


async def test_a_second_header_inside_the_file_is_refused_whole(
    app: FastAPI, client: httpx.AsyncClient, network: Network, caplog: pytest.LogCaptureFixture
) -> None:
    """The review's file: a header, a presentment, a second header, 2 presentments, the
    trailer counting all 6 was booked; now 422 and nothing moved."""
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card, 2000)
    balance = await _card_balance(app, card)
    key = await operator_key(app, "network")
    items = [presentment(card.pan, 2000, approval_code=original[38])]
    items += [presentment(card.pan, 500, approval_code="NOAUTH") for _ in range(2)]
    body = with_second_header(ipm_file("FILE-TWO-HEADERS", items))
    _invalid(await post_file(client, key, body), "message 3 is a second header")
    _no_trace(caplog)
    await _nothing_booked(app)
    assert await _card_balance(app, card) == balance
    [purchase] = await _purchases(app)
    assert (purchase.status, purchase.captured_amount) == ("pending", 0)  # still held


async def test_the_command_refuses_both_files_in_one_line(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    """`cardservice clearing ingest FILE`: the same refusals, exit status 2, one line."""
    _user, card = await issue_card(app, client)
    command = Command(settings, monkeypatch, capsys)
    items = [presentment(card.pan, 1000, approval_code="NOAUTH") for _ in range(2)]
    long_id, two_headers = tmp_path / "long-id.ipm", tmp_path / "two-headers.ipm"
    long_id.write_bytes(ipm_file("F" * 65, items[:1]))
    two_headers.write_bytes(with_second_header(ipm_file("FILE-CLI", items)))
    refused = await command.refused("clearing", "ingest", str(long_id))
    assert "PDS 0105" in refused and "at most 64" in refused, refused
    refused = await command.refused("clearing", "ingest", str(two_headers))
    assert "second header" in refused, refused
    _no_trace(caplog)
    await _nothing_booked(app)
    assert await _card_balance(app, card) == START


async def test_an_oversized_body_is_413_and_another_content_type_415(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    key = await operator_key(app, "network")
    body = ipm_file("FILE-TYPE", [presentment(card.pan, 1000, approval_code="NOAUTH")])
    text = await post_file(client, key, body, content_type="text/plain")
    assert text.status_code == 415 and text.json()["code"] == "unsupported_media_type"
    large = await post_file(client, key, b"\x40" * (51 * 1024 * 1024))
    assert large.status_code == 413 and large.json()["code"] == "payload_too_large"
    await _nothing_booked(app)
    assert await _card_balance(app, card) == START

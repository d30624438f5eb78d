"""Disputes through the network (docs/disputes.md), on both databases: the outgoing file and the
incoming answers are real IPM files written and read by cardutil (`clearing.ipm`, the
acquirer's `represent`), sent through the operator API; every step checked in the dispute's
record, in the card's balance and in the books."""

from __future__ import annotations

import io
import random
import uuid
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.acquirer.representments import represent
from cardservice.clearing import ipm
from cardservice.config import Settings
from cardservice.disputes import sweep_unanswered
from cardservice.ledger.books import settlement_report
from cardservice.models.base import utcnow
from tests.clearing.helpers import post_file, report_of
from tests.cli.test_cli import Command
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    bin_uuid,
    make_card,
    make_user,
)
from tests.operator.helpers import operator_key, send


def TODAY() -> date:
    return utcnow().date()


OCTETS = {"Content-Type": "application/octet-stream"}


async def _completed(client: httpx.AsyncClient, user: Caller, card: str, amount: str) -> str:
    response = await authorize(client, user, card, amount)
    purchase = str(response.json()["data"]["uuid"])
    settled = await client.post(f"/sandbox/transactions/{purchase}/settle", headers=user.headers)
    assert settled.status_code == 201, settled.text
    return purchase


async def _dispute(
    client: httpx.AsyncClient, user: Caller, purchase: str, **body: object
) -> dict[str, Any]:
    response = await client.post(
        "/disputes",
        headers=user.headers,
        json={"transaction_uuid": purchase, "reason": "not_received", **body},
    )
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def _read(client: httpx.AsyncClient, user: Caller, dispute: str) -> dict[str, Any]:
    response = await client.get(f"/disputes/{dispute}", headers=user.headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


async def _outgoing(client: httpx.AsyncClient, key: str, day: date) -> bytes:
    response = await send(client, "POST", "/operator/clearing-outgoing", key, {"date": str(day)})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/octet-stream"
    return response.content


def _messages(content: bytes) -> list[dict[str, Any]]:
    return list(ipm.messages(io.BytesIO(content)))


async def _books(app: FastAPI) -> dict[str, int]:
    """The system books' balances (minor units), every currency: they sum to zero with the
    cards' and accounts'."""
    rows = await app.state.db.reader.rows(
        "SELECT system_book, sum(amount) FROM postings WHERE system_book IS NOT NULL"
        " GROUP BY system_book"
    )
    return {str(book): int(total) for book, total in rows}


async def _postings(app: FastAPI) -> int:
    return int(await app.state.db.reader.value("SELECT count(*) FROM postings"))


async def _pan(app: FastAPI, card: str) -> str:
    ciphertext = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    pan: str = app.state.cipher.decrypt(bytes(ciphertext))
    return pan


def _luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _answer(*items: ipm.SecondPresentment, file_id: str = "ACQ-ANSWER-1") -> bytes:
    out = io.BytesIO()
    ipm.write_messages(out, file_id, (ipm.second_presentment_message(i) for i in items))
    return out.getvalue()


async def _provisional_member(app: FastAPI, client: httpx.AsyncClient) -> Caller:
    """A user of a program that gives provisional credit."""
    key = await operator_key(app, "cards", "users")
    bins = [await bin_uuid(app)]
    body = {"name": "Kind", "bin_uuids": bins, "provisional_credit": True}
    program = (await send(client, "POST", "/operator/programs", key, body)).json()["data"]
    assert program["provisional_credit"] is True
    email = f"p-{program['uuid'][:8]}@example.com"
    made = await send(
        client, "POST", "/operator/users", key,
        {"email": email, "name": "P", "program_uuid": program["uuid"]},
    )  # fmt: skip
    user = made.json()["data"]["uuid"]
    token = (await send(client, "POST", f"/operator/users/{user}/tokens", key, {})).json()
    return Caller(uuid.UUID(user), email, token["data"]["token"])


async def test_a_chargeback_is_sent_once_and_the_dates_file_is_fixed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(client, user, card, "10")
    postings = await _postings(app)
    opened = await _dispute(client, user, purchase)
    assert await _postings(app) == postings  # no provisional credit: opening moves nothing
    assert opened["status"] == "open" and opened["reason_code"] == "4855"
    assert len(opened["arn"]) == 23 and opened["arn"].isdigit() and _luhn_ok(opened["arn"])
    shown = (await client.get(f"/transaction/{purchase}", headers=user.headers)).json()["data"]
    assert shown["network"] == {"arn": opened["arn"]}  # made for its online capture
    assert opened["chargeback"] is None and opened["provisional_credit"] == 0
    assert [step["status"] for step in opened["history"]] == ["open"]
    assert opened["deadline"] == str(TODAY() + timedelta(days=120))
    key = await operator_key(app, "network")
    before = await _books(app)
    content = await _outgoing(client, key, TODAY())
    header, chargeback, trailer = _messages(content)
    assert header[ipm.FILE_ID].strip() == f"ISSUER-OUT-{TODAY():%Y%m%d}"
    assert (chargeback["MTI"], chargeback["DE24"], chargeback["DE25"]) == ("1442", "450", "4855")
    assert chargeback["DE2"] == await _pan(app, card) and chargeback["DE4"] == 1000
    assert (chargeback["DE31"], chargeback["DE49"], chargeback["DE71"]) == (opened["arn"], "840", 2)
    assert int(trailer[ipm.MESSAGE_COUNT]) == 3
    sent = await _read(client, user, opened["uuid"])
    assert sent["status"] == "chargeback_sent"
    assert sent["chargeback"]["file_id"] == header[ipm.FILE_ID].strip()
    assert sent["chargeback"]["message_number"] == 2
    assert sent["deadline"] == str(TODAY() + timedelta(days=45))
    after = await _books(app)
    assert after["merchants"] - before["merchants"] == -1000
    assert after["disputes"] - before.get("disputes", 0) == 1000
    # the same date again: the same bytes, nothing moved
    postings = await _postings(app)
    assert await _outgoing(client, key, TODAY()) == content
    assert await _postings(app) == postings and await _read(client, user, opened["uuid"]) == sent
    # a dispute opened later waits for a file not yet written (the date's file is fixed)
    second = await _dispute(client, user, await _completed(client, user, card, "4"))
    assert await _outgoing(client, key, TODAY()) == content
    earlier = _messages(await _outgoing(client, key, TODAY() - timedelta(days=1)))
    assert [m["DE31"] for m in earlier[1:-1]] == [second["arn"]]
    listed = await send(client, "GET", "/operator/clearing-outgoing", key)
    assert [f["date"] for f in listed.json()["data"]] == [
        str(TODAY()),
        str(TODAY() - timedelta(days=1)),
    ]
    assert listed.json()["data"][0]["messages"] == 3
    # a future date is refused, nothing written
    future = await send(
        client, "POST", "/operator/clearing-outgoing", key, {"date": str(TODAY() + timedelta(1))}
    )
    assert future.status_code == 422 and future.json()["code"] == "validation_error"
    assert len((await send(client, "GET", "/operator/clearing-outgoing", key)).json()["data"]) == 2
    await assert_ledger_consistent(app)


async def test_provisional_credit_given_then_taken_back_when_the_representment_is_accepted(
    app: FastAPI, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    user = await _provisional_member(app, client)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(client, user, card, "12.34")
    start = (await balances(app, account))[1][0]
    opened = await _dispute(client, user, purchase)
    assert opened["provisional_credit"] == 12.34
    assert (await balances(app, account))[1][0] == start + 1234
    key = await operator_key(app, "network")
    outgoing = tmp_path / "out.ipm"
    outgoing.write_bytes(await _outgoing(client, key, TODAY()))
    assert (await _books(app)).get("disputes") == 0  # credited 12.34, claimed 12.34
    answer = tmp_path / "answer.ipm"
    assert represent(outgoing, answer, share=1.0, seed=7) == 1
    report = report_of(await post_file(client, key, answer.read_bytes()))
    assert report["representments"] == {
        "received": 1, "exceptions": [], "pre_arbitration": {"accepted": 0, "declined": 0}
    }  # fmt: skip
    assert report["unmatched"] == [] and report["totals"] == []
    represented = await _read(client, user, opened["uuid"])
    assert represented["status"] == "representment_received"
    assert represented["representment"]["amount"] == 12.34
    assert represented["representment"]["message"].startswith("Merchant's evidence")
    assert (await _books(app))["disputes"] == -1234  # the claim given back, the credit not yet
    # the same answer again: its first report, nothing moved
    postings = await _postings(app)
    assert report_of(await post_file(client, key, answer.read_bytes()), 200) == report
    assert await _postings(app) == postings
    accepted = await send(client, "POST", f"/operator/disputes/{opened['uuid']}/accept", key)
    assert accepted.status_code == 200, accepted.text
    lost = accepted.json()["data"]
    assert lost["status"] == "lost" and lost["provisional_credit"] == 0
    assert [s["status"] for s in lost["history"]] == [
        "open", "chargeback_sent", "representment_received", "lost"
    ]  # fmt: skip
    assert (await balances(app, account))[1][0] == start  # taken back to the cent
    assert (await _books(app))["disputes"] == 0
    again = await send(client, "POST", f"/operator/disputes/{opened['uuid']}/escalate", key)
    assert again.status_code == 409 and again.json()["code"] == "dispute_wrong_status"
    reversal = await app.state.db.reader.value(
        "SELECT count(*) FROM transactions WHERE type = 'dispute_provisional_reversal'"
        " AND parent_uuid = $1 AND amount = 1234",
        uuid.UUID(purchase),
    )
    assert reversal == 1
    events = await app.state.db.reader.value(
        "SELECT count(*) FROM events WHERE type = 'dispute.updated' AND object_uuid = $1",
        uuid.UUID(opened["uuid"]),
    )
    assert events == 3  # chargeback_sent, representment_received, lost
    await assert_ledger_consistent(app)


async def test_escalation_goes_out_as_451_and_the_sweep_wins_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(client, user, card, "20")
    opened = await _dispute(client, user, purchase, reason="fraudulent", amount=15)
    key = await operator_key(app, "network")
    [chargeback] = _messages(await _outgoing(client, key, TODAY() - timedelta(days=2)))[1:-1]
    assert (chargeback["DE24"], chargeback["DE25"], chargeback["DE4"]) == ("453", "4837", 1500)
    partial = ipm.SecondPresentment(2, chargeback["DE2"], 900, "840", opened["arn"], partial=True)
    report = report_of(await post_file(client, key, _answer(partial)))
    assert report["representments"]["received"] == 1
    escalated = await send(client, "POST", f"/operator/disputes/{opened['uuid']}/escalate", key)
    assert escalated.status_code == 200, escalated.text
    assert escalated.json()["data"]["status"] == "pre_arbitration"
    [pre] = _messages(await _outgoing(client, key, TODAY() - timedelta(days=1)))[1:-1]
    assert (pre["DE24"], pre["DE4"], pre["DE31"]) == ("451", 900, opened["arn"])
    sent = await _read(client, user, opened["uuid"])
    assert sent["pre_arbitration"]["message_number"] == 2
    assert (await _books(app))["disputes"] == 1500  # claimed again in full
    before = (await balances(app, account))[1][0]
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=44)) == 0
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=46)) == 1
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=46)) == 0
    won = await _read(client, user, opened["uuid"])
    assert won["status"] == "won" and won["deadline"] is None
    assert (await balances(app, account))[1][0] == before + 1500
    assert (await _books(app))["disputes"] == 0
    report_day = {r["currency"]: r for r in await settlement_report(app.state.db.reader, TODAY())}
    usd = report_day["USD"]
    assert usd["chargebacks"] == {"count": 2, "amount": Decimal("24.00")}
    assert usd["representments"] == {"count": 1, "amount": Decimal("9.00")}
    await assert_ledger_consistent(app)


async def test_the_acquirer_accepts_one_pre_arbitration_and_declines_another(
    app: FastAPI, client: httpx.AsyncClient, tmp_path: Path
) -> None:
    """The acquirer's answers (1644 640 / 641) in files written by cardutil: accepted → won;
    declined → the operator's decision (accept → lost), the sweep leaves it; a late answer
    is unmatched. Provisional credit kept or taken back to the cent, books summing to zero."""
    user = await _provisional_member(app, client)
    account, card = await make_card(app, client, user, start_balance="100")
    first = await _dispute(client, user, await _completed(client, user, card, "20"))
    second = await _dispute(client, user, await _completed(client, user, card, "8"))
    start = (await balances(app, account))[1][0]  # both credited ahead
    merchants = (await _books(app))["merchants"]
    key = await operator_key(app, "network")
    files = {name: tmp_path / f"{name}.ipm" for name in ("out", "seconds", "pre1", "pre2")}
    files["out"].write_bytes(await _outgoing(client, key, TODAY() - timedelta(days=3)))
    assert represent(files["out"], files["seconds"], share=1.0, seed=3) == 2
    report = report_of(await post_file(client, key, files["seconds"].read_bytes()))
    assert report["representments"]["received"] == 2
    pre_files = []
    for day, dispute in ((2, first), (1, second)):
        escalated = await send(
            client, "POST", f"/operator/disputes/{dispute['uuid']}/escalate", key
        )
        assert escalated.status_code == 200, escalated.text
        content = await _outgoing(client, key, TODAY() - timedelta(days=day))
        assert [m["DE24"] for m in _messages(content)[1:-1]] == ["451"]
        pre_files.append(content)
    answers = []
    for content, choice, name in zip(
        pre_files, ("accept", "decline"), ("pre1", "pre2"), strict=True
    ):
        files[name].write_bytes(content)
        answer = tmp_path / f"{name}-answer.ipm"
        assert represent(files[name], answer, share=0.0, seed=3, pre_arbitration=choice) == 1
        [message] = _messages(answer.read_bytes())[1:-1]
        assert (message["MTI"], message["DE24"]) == ("1644", "640" if choice == "accept" else "641")
        answers.append(answer.read_bytes())
    accepted = report_of(await post_file(client, key, answers[0]))
    assert accepted["representments"]["pre_arbitration"] == {"accepted": 1, "declined": 0}
    assert accepted["unmatched"] == [] and accepted["totals"] == []
    won = await _read(client, user, first["uuid"])
    assert won["status"] == "won" and won["pre_arbitration"]["answer"] == "accepted"
    assert won["provisional_credit"] == 0 and won["deadline"] is None
    declined = report_of(await post_file(client, key, answers[1]))
    assert declined["representments"]["pre_arbitration"] == {"accepted": 0, "declined": 1}
    waiting = await _read(client, user, second["uuid"])
    assert waiting["status"] == "pre_arbitration"
    assert waiting["pre_arbitration"]["answer"] == "declined"
    assert waiting["deadline"] == str(TODAY() + timedelta(days=45))
    assert (await balances(app, account))[1][0] == start  # nothing taken back yet
    assert (await _books(app))["disputes"] == 0  # 8.00 credited, 8.00 claimed again by the 451
    # the sweep leaves a declined pre-arbitration to the operator
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=46)) == 0
    # the same answer again: its first report, nothing moved; a late answer: unmatched
    postings = await _postings(app)
    assert report_of(await post_file(client, key, answers[1]), 200) == declined
    late = io.BytesIO()
    item = ipm.PreArbitrationAnswer(2, await _pan(app, card), 800, "840", second["arn"], True)
    ipm.write_messages(late, "ACQ-LATE", [ipm.pre_arbitration_answer_message(item)])
    report = report_of(await post_file(client, key, late.getvalue()))
    assert report["unmatched"] == [{"message_number": 2, "reason": "no pre-arbitration"}]
    assert await _postings(app) == postings
    lost = await send(client, "POST", f"/operator/disputes/{second['uuid']}/accept", key)
    assert lost.status_code == 200, lost.text
    assert lost.json()["data"]["status"] == "lost"
    assert (await balances(app, account))[1][0] == start - 800  # taken back to the cent
    books = await _books(app)
    assert books["disputes"] == 0 and books["merchants"] == merchants - 2000
    await assert_ledger_consistent(app)


async def test_an_unanswered_chargeback_is_won_by_the_sweep(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    opened = await _dispute(client, user, await _completed(client, user, card, "7.5"))
    key = await operator_key(app, "network")
    await _outgoing(client, key, TODAY())
    before = (await balances(app, account))[1][0]
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=45, minutes=1)) == 1
    won = await _read(client, user, opened["uuid"])
    assert won["status"] == "won" and won["credit_transaction_uuid"] is not None
    assert (await balances(app, account))[1][0] == before + 750
    assert (await _books(app))["disputes"] == 0
    await assert_ledger_consistent(app)


async def test_second_presentments_that_answer_no_chargeback_move_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    charged = await _dispute(client, user, await _completed(client, user, card, "10"))
    withdrawn = await _dispute(client, user, await _completed(client, user, card, "5"))
    key = await operator_key(app, "network")
    await _outgoing(client, key, TODAY())
    gone = await client.post(f"/disputes/{withdrawn['uuid']}/withdraw", headers=user.headers)
    assert gone.status_code == 200 and gone.json()["data"]["status"] == "withdrawn"
    pan = await _pan(app, card)
    postings = await _postings(app)
    report = report_of(
        await post_file(
            client, key,
            _answer(
                ipm.SecondPresentment(2, pan, 1000, "840", "71234567890123456789012"),
                ipm.SecondPresentment(3, pan, 500, "840", withdrawn["arn"]),
                ipm.SecondPresentment(4, pan, 1001, "840", charged["arn"]),
            ),
        )
    )  # fmt: skip
    assert report["unmatched"] == [
        {"message_number": 2, "reason": "no chargeback"},
        {"message_number": 3, "reason": "no chargeback"},
    ]
    assert report["representments"]["received"] == 0
    assert report["representments"]["exceptions"] == [
        {"message_number": 4, "reason": "amount above the chargeback",
         "transaction_uuid": charged["transaction_uuid"]}
    ]  # fmt: skip
    assert await _postings(app) == postings
    assert (await _read(client, user, charged["uuid"]))["status"] == "chargeback_sent"


async def test_withdraw_gives_everything_back_and_refuses_the_wrong_status_or_owner(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await _provisional_member(app, client)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(client, user, card, "8")
    start = (await balances(app, account))[1][0]
    opened = await _dispute(client, user, purchase)
    refund = f"/sandbox/transactions/{purchase}/refund"
    refused = await client.post(refund, headers=user.headers)  # credited already
    assert refused.status_code == 422 and refused.json()["code"] == "refund_exceeds_amount"
    key = await operator_key(app, "network")
    before_books = await _books(app)
    await _outgoing(client, key, TODAY())
    other = await make_user(app)
    foreign = await client.post(f"/disputes/{opened['uuid']}/withdraw", headers=other.headers)
    assert foreign.status_code == 404
    withdrawn = await client.post(f"/disputes/{opened['uuid']}/withdraw", headers=user.headers)
    assert withdrawn.status_code == 200, withdrawn.text
    assert withdrawn.json()["data"]["status"] == "withdrawn"
    assert (await balances(app, account))[1][0] == start  # the credit taken back
    books = await _books(app)
    assert books["disputes"] == 0 and books["merchants"] == before_books["merchants"]
    again = await client.post(f"/disputes/{opened['uuid']}/withdraw", headers=user.headers)
    assert again.status_code == 409 and again.json()["code"] == "dispute_wrong_status"
    accept = await send(client, "POST", f"/operator/disputes/{opened['uuid']}/accept", key)
    assert accept.status_code == 409
    refunded = await client.post(refund, headers=user.headers)  # the credit was taken back
    assert refunded.status_code == 201, refunded.text
    listed = await send(client, "GET", "/operator/disputes?filters[status]=withdrawn", key)
    assert [d["uuid"] for d in listed.json()["data"]] == [opened["uuid"]]
    reports = await operator_key(app, "reports")
    assert (await send(client, "GET", "/operator/disputes", reports)).status_code == 200
    assert (await send(client, "POST", "/operator/clearing-outgoing", reports,
                       {"date": str(TODAY())})).status_code == 403  # fmt: skip
    await assert_ledger_consistent(app)


async def test_the_commands_write_the_file_answer_it_and_sweep(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    answered = await _dispute(client, user, await _completed(client, user, card, "3"))
    left = await _dispute(client, user, await _completed(client, user, card, "2"))
    command = Command(settings, monkeypatch, capsys)
    out, answer = tmp_path / "out.ipm", tmp_path / "answer.ipm"
    day = str(TODAY())
    written = orjson.loads(
        (await command("clearing", "outgoing", "--date", day, "--out", str(out)))[1]
    )
    assert written["date"] == day and written["messages"] == 4
    [first, second] = _messages(out.read_bytes())[1:-1]
    assert (first["DE31"], second["DE31"]) == (answered["arn"], left["arn"])
    future = str(TODAY() + timedelta(days=1))
    assert "future date" in await command.refused(
        "clearing", "outgoing", "--date", future, "--out", str(out)
    )
    # an acquirer that answers the first of the two: the seeded draw picks it
    seed = next(s for s in range(100) if _picks(s) == [True, False])
    assert await command.value(
        "network", "represent", str(out), "--out", str(answer), "--share", "0.5",
        "--seed", str(seed),
    ) == "1"  # fmt: skip
    assert (await command("clearing", "ingest", str(answer)))[0] == 0
    assert (await _read(client, user, answered["uuid"]))["status"] == "representment_received"
    before = (await balances(app, account))[1][0]
    at = (utcnow() + timedelta(days=46)).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert await command.value("disputes", "sweep", "--now", at) == "1"
    assert (await _read(client, user, left["uuid"]))["status"] == "won"
    assert (await balances(app, account))[1][0] == before + 200
    await assert_ledger_consistent(app)


def _picks(seed: int) -> list[bool]:
    """Which of two chargebacks `represent --share 0.5 --seed` answers."""
    draw = random.Random(seed)
    return [draw.random() < 0.5 for _ in range(2)]


async def _dispute_events(
    app: FastAPI, user: Caller, after: int
) -> tuple[list[tuple[str, str]], int]:
    """The dispute events after event id `after` (each the holder's), `(dispute uuid, type)`
    in order, and the last event id."""
    rows = await app.state.db.reader.rows(
        "SELECT object_uuid, type, user_uuid FROM events WHERE object_type = 'dispute'"
        " AND id > $1 ORDER BY id",
        after,
    )
    assert all(uuid.UUID(str(row[2])) == user.uuid for row in rows)
    last = await app.state.db.reader.value("SELECT COALESCE(MAX(id), 0) FROM events")
    return [(str(uuid.UUID(str(d))), str(t)) for d, t, _user in rows], int(last)


def _pre_answers(pan: str, *answers: tuple[dict[str, Any], bool]) -> bytes:
    """An incoming file of the acquirer's answers (1644) to the disputes' 451s (10.00)."""
    out = io.BytesIO()
    items = (
        ipm.PreArbitrationAnswer(n, pan, 1000, "840", dispute["arn"], accepted)
        for n, (dispute, accepted) in enumerate(answers, start=2)
    )
    ipm.write_messages(out, "ACQ-PRE-ANSWERS", map(ipm.pre_arbitration_answer_message, items))
    return out.getvalue()


async def test_every_step_of_a_dispute_is_one_dispute_event(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """docs/events.md: each step of docs/disputes.md#lifecycle — opened, withdrawn, the
    chargeback sent, the representment received, accepted, escalated, the 451 sent, the
    acquirer's accept and decline, the sandbox's ruling, the sweep — is exactly one event of
    its dispute, its data the record as the API shows it after the step; a file written or
    ingested again sends nothing."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    amounts = ("11", "12", "13", "14", "15", "16")
    d1, d2, d3, d4, d5, d6 = [
        await _dispute(client, user, await _completed(client, user, card, amount))
        for amount in amounts
    ]
    ids = {d["uuid"]: f"d{n}" for n, d in enumerate((d1, d2, d3, d4, d5, d6), start=1)}
    last = 0

    async def step(*expected: tuple[dict[str, Any], str]) -> None:
        """The events since the last step: one per `(dispute, status)` expected,
        `dispute.updated` with the dispute's record in that status. Several disputes of one
        step are saved by one statement, whose rows' order is the database's: the step's
        events are compared as a set of disputes (each expected dispute names one event)."""
        nonlocal last
        found, last = await _dispute_events(app, user, last)
        assert sorted((ids[d], t) for d, t in found) == sorted(
            (ids[d["uuid"]], "dispute.updated") for d, _status in expected
        )
        for dispute, status in expected:
            shown = await _read(client, user, dispute["uuid"])
            assert shown["status"] == status
            [data] = await app.state.db.reader.rows(
                "SELECT data FROM events WHERE object_uuid = $1 ORDER BY id DESC LIMIT 1",
                uuid.UUID(dispute["uuid"]),
            )
            assert orjson.loads(data[0]) == shown

    found, last = await _dispute_events(app, user, last)
    assert found == [(d["uuid"], "dispute.created") for d in (d1, d2, d3, d4, d5, d6)]
    withdrawn = await client.post(f"/disputes/{d5['uuid']}/withdraw", headers=user.headers)
    assert withdrawn.status_code == 200, withdrawn.text
    await step((d5, "withdrawn"))
    key = await operator_key(app, "network")
    content = await _outgoing(client, key, TODAY() - timedelta(days=3))
    await step(*((d, "chargeback_sent") for d in (d1, d2, d3, d4, d6)))
    assert await _outgoing(client, key, TODAY() - timedelta(days=3)) == content
    await step()
    pan = await _pan(app, card)
    seconds = _answer(
        *(
            ipm.SecondPresentment(n, pan, 1000, "840", d["arn"])
            for n, d in enumerate((d1, d2, d3), 2)
        )
    )
    assert report_of(await post_file(client, key, seconds))["representments"]["received"] == 3
    await step((d1, "representment_received"), (d2, "representment_received"),
               (d3, "representment_received"))  # fmt: skip
    report_of(await post_file(client, key, seconds), 200)
    await step()
    for path, dispute, status in (("accept", d3, "lost"), ("escalate", d1, "pre_arbitration"),
                                  ("escalate", d2, "pre_arbitration")):  # fmt: skip
        done = await send(client, "POST", f"/operator/disputes/{dispute['uuid']}/{path}", key)
        assert done.status_code == 200, done.text
        await step((dispute, status))
    pre = _messages(await _outgoing(client, key, TODAY() - timedelta(days=2)))[1:-1]
    assert [m["DE24"] for m in pre] == ["451", "451"]
    await step((d1, "pre_arbitration"), (d2, "pre_arbitration"))  # the 451 sent, its deadline
    sent = await _read(client, user, d1["uuid"])
    assert sent["pre_arbitration"]["file_id"] == f"ISSUER-OUT-{TODAY() - timedelta(days=2):%Y%m%d}"
    assert sent["deadline"] == str(TODAY() + timedelta(days=45))
    answers_file = _pre_answers(pan, (d2, True), (d1, False))
    answers = report_of(await post_file(client, key, answers_file))
    assert answers["representments"]["pre_arbitration"] == {"accepted": 1, "declined": 1}
    await step((d2, "won"), (d1, "pre_arbitration"))  # the decline: its answer, its deadline
    declined = await _read(client, user, d1["uuid"])
    assert declined["pre_arbitration"]["answer"] == "declined"
    assert [s["status"] for s in declined["history"]] == [
        "open", "chargeback_sent", "representment_received", "pre_arbitration"
    ]  # fmt: skip
    assert report_of(await post_file(client, key, answers_file), 200) == answers
    await step()
    ruled = await client.post(
        f"/sandbox/disputes/{d6['uuid']}/resolve", headers=user.headers, json={"outcome": "won"}
    )
    assert ruled.status_code == 201, ruled.text
    await step((d6, "won"))
    assert await sweep_unanswered(app.state.db, utcnow() + timedelta(days=46)) == 1
    await step((d4, "won"))
    lost = await send(client, "POST", f"/operator/disputes/{d1['uuid']}/accept", key)
    assert lost.status_code == 200, lost.text
    await step((d1, "lost"))
    counts = await app.state.db.reader.rows(
        "SELECT object_uuid, count(*) FROM events WHERE object_type = 'dispute'"
        " GROUP BY object_uuid"
    )
    assert sorted((ids[str(uuid.UUID(str(d)))], int(n)) for d, n in counts) == [
        ("d1", 7), ("d2", 6), ("d3", 4), ("d4", 3), ("d5", 2), ("d6", 3)
    ]  # fmt: skip
    await assert_ledger_consistent(app)

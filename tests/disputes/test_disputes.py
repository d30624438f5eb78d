"""POST /disputes, GET /disputes, resolving in the sandbox: every rule of
docs/transactions.md#disputes's disputes, the races (20 opens at once, two resolves at once), and
the database's own rules."""

from __future__ import annotations

import asyncio
import base64
import functools
import uuid
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.disputes.service import DISPUTE_WINDOW
from cardservice.events.outbox import sequence_events
from cardservice.models.base import utcnow
from cardservice.transactions import CaptureMessage, capture
from tests.factories import (
    Caller,
    assert_ledger_consistent,
    authorize,
    balances,
    make_card,
    make_user,
)

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32).decode()


async def _completed(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, card: str, amount: str = "10"
) -> str:
    """A purchase authorized and settled (captured now, or at `captured`)."""
    response = await authorize(client, user, card, amount)
    purchase = str(response.json()["data"]["uuid"])
    settled = await client.post(f"/sandbox/transactions/{purchase}/settle", headers=user.headers)
    assert settled.status_code == 201, settled.text
    return purchase


async def _open(
    client: httpx.AsyncClient, user: Caller, purchase: str, **body: object
) -> httpx.Response:
    return await client.post(
        "/disputes",
        headers=user.headers,
        json={"transaction_uuid": purchase, "reason": "not_received", **body},
    )


async def _resolve(
    client: httpx.AsyncClient, user: Caller, dispute: str, outcome: str
) -> httpx.Response:
    return await client.post(
        f"/sandbox/disputes/{dispute}/resolve", headers=user.headers, json={"outcome": outcome}
    )


async def _execute(statements: list[str], tx: Tx) -> None:
    """Rows forged in one unit of work, for the database's own rules to refuse: no service
    writes a second open dispute or a second credit of one purchase."""
    for sql in statements:
        await tx.execute(sql)


async def _count(app: FastAPI, sql: str) -> int:
    return int(await app.state.db.reader.value(sql))


async def test_open_a_dispute_and_win_it(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card, "10")
    upload = await client.post(
        "/attachment", headers=user.headers, json={"type": "receipt", "file": PNG}
    )
    evidence = upload.json()["data"]["uuid"]
    opened = await _open(
        client, user, purchase, explanation="never arrived", evidence_attachment_uuids=[evidence]
    )
    assert opened.status_code == 201, opened.text
    dispute = opened.json()["data"]
    assert dispute["amount"] == 10 and dispute["currency"] == "USD"
    assert dispute["status"] == "open" and dispute["resolved_at"] is None
    assert dispute["evidence_attachment_uuids"] == [evidence]
    assert dispute["transaction_uuid"] == purchase and dispute["credit_transaction_uuid"] is None
    before = await balances(app, account)
    won = await _resolve(client, user, dispute["uuid"], "won")
    assert won.status_code == 201, won.text
    record = won.json()["data"]
    assert record["status"] == "won" and record["resolved_at"] is not None
    credit = (
        await client.get(f"/transaction/{record['credit_transaction_uuid']}", headers=user.headers)
    ).json()["data"]
    assert credit["type"] == "dispute_credit" and credit["direction"] == "credit"
    assert credit["amount"] == 10 and credit["parent_uuid"] == purchase
    assert (await balances(app, account))[1] == [before[1][0] + 1000]
    again = await _resolve(client, user, dispute["uuid"], "lost")
    assert again.status_code == 422 and again.json()["code"] == "dispute_already_resolved"
    # nothing is left to dispute or refund once the dispute gave it all back
    assert (await _open(client, user, purchase)).json()["code"] == "not_disputable"
    refund = await client.post(f"/sandbox/transactions/{purchase}/refund", headers=user.headers)
    assert refund.json()["code"] == "refund_exceeds_amount"
    read = await client.get(f"/disputes/{dispute['uuid']}", headers=user.headers)
    assert read.json()["data"] == record
    await assert_ledger_consistent(app)


async def test_a_lost_dispute_moves_nothing_and_may_be_opened_again(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    dispute = (await _open(client, user, purchase, reason="fraudulent")).json()["data"]
    before = await balances(app, account)
    lost = await _resolve(client, user, dispute["uuid"], "lost")
    assert lost.status_code == 201 and lost.json()["data"]["status"] == "lost"
    assert lost.json()["data"]["credit_transaction_uuid"] is None
    assert await balances(app, account) == before
    assert await _count(app, "SELECT count(*) FROM transactions WHERE type = 'dispute_credit'") == 0
    assert (await _open(client, user, purchase)).status_code == 201
    await assert_ledger_consistent(app)


async def test_amount_defaults_to_captured_less_refunds_and_is_bounded(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card, "10")
    refund = await client.post(
        f"/sandbox/transactions/{purchase}/refund", headers=user.headers, json={"amount": 4}
    )
    assert refund.status_code == 201
    too_much = await _open(client, user, purchase, amount=6.01)
    assert too_much.status_code == 422 and too_much.json()["code"] == "dispute_exceeds_amount"
    assert "amount" in too_much.json()["errors"]
    dispute = (await _open(client, user, purchase)).json()["data"]
    assert dispute["amount"] == 6
    # a refund while the dispute is open: the win credits only what is still owed
    await client.post(
        f"/sandbox/transactions/{purchase}/refund", headers=user.headers, json={"amount": 5}
    )
    won = (await _resolve(client, user, dispute["uuid"], "won")).json()["data"]
    credit = (
        await client.get(f"/transaction/{won['credit_transaction_uuid']}", headers=user.headers)
    ).json()["data"]
    assert credit["amount"] == 1
    assert (await balances(app, account))[1] == [10000 - 10]  # 10 back in all; the fee stays
    partial = await _completed(app, client, user, card, "10")
    assert (await _open(client, user, partial, amount=2.5)).json()["data"]["amount"] == 2.5
    await assert_ledger_consistent(app)


async def test_only_completed_purchases_can_be_disputed(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    pending = (await authorize(client, user, card, "5")).json()["data"]["uuid"]
    declined = (await authorize(client, user, card, "5000")).json()["data"]["uuid"]
    refunded = await _completed(app, client, user, card, "3")
    await client.post(f"/sandbox/transactions/{refunded}/refund", headers=user.headers)
    issue = (
        await client.get(
            "/transaction/report", headers=user.headers, params={"filters[type]": "card_issue"}
        )
    ).json()["data"][0]["uuid"]
    for txn in (pending, declined, refunded, issue):
        response = await _open(client, user, txn)
        assert response.status_code == 422 and response.json()["code"] == "not_disputable", txn
    assert await _count(app, "SELECT count(*) FROM disputes") == 0


async def test_the_window_closes_120_days_after_capture(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    captured = {}
    for days in (121, 119):
        txn = (await authorize(client, user, card, "1")).json()["data"]["uuid"]
        when = utcnow() - timedelta(days=days)
        await app.state.db.transact(
            lambda tx, txn=txn, when=when: capture(
                tx, user.uuid, CaptureMessage(uuid.UUID(txn)), when
            )
        )
        captured[days] = txn
    closed = await _open(client, user, captured[121])
    assert closed.status_code == 422 and closed.json()["code"] == "dispute_window_closed"
    assert (await _open(client, user, captured[119])).status_code == 201
    assert timedelta(days=120) == DISPUTE_WINDOW


async def test_one_open_dispute_per_transaction(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    assert (await _open(client, user, purchase)).status_code == 201
    second = await _open(client, user, purchase, reason="duplicate")
    assert second.status_code == 422 and second.json()["code"] == "dispute_already_open"


async def test_twenty_disputes_at_once_create_one(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    results = await asyncio.gather(*(_open(client, user, purchase) for _ in range(20)))
    assert sorted(r.status_code for r in results) == [201] + [422] * 19
    assert {r.json()["code"] for r in results if r.status_code == 422} == {"dispute_already_open"}
    assert await _count(app, "SELECT count(*) FROM disputes") == 1
    assert await _count(app, "SELECT count(*) FROM events WHERE type = 'dispute.created'") == 1


async def test_two_resolves_at_once_credit_at_most_once(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card, "10")
    dispute = (await _open(client, user, purchase)).json()["data"]["uuid"]
    before = await balances(app, account)
    results = await asyncio.gather(
        *(_resolve(client, user, dispute, outcome) for outcome in ("won", "won", "lost", "won"))
    )
    winners = [r for r in results if r.status_code == 201]
    assert len(winners) == 1
    assert all(r.json()["code"] == "dispute_already_resolved" for r in results if r not in winners)
    credits = await _count(app, "SELECT count(*) FROM transactions WHERE type = 'dispute_credit'")
    outcome = winners[0].json()["data"]["status"]
    assert credits == (1 if outcome == "won" else 0)
    assert (await balances(app, account))[1] == [before[1][0] + 1000 * credits]
    await assert_ledger_consistent(app)


async def test_another_users_transaction_and_dispute_are_404(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    assert (await _open(client, stranger, purchase)).status_code == 404
    upload = await client.post(
        "/attachment", headers=stranger.headers, json={"type": "photo", "file": PNG}
    )
    foreign = await _open(
        client, user, purchase, evidence_attachment_uuids=[upload.json()["data"]["uuid"]]
    )
    assert foreign.status_code == 404 and foreign.json()["code"] == "not_found"
    dispute = (await _open(client, user, purchase)).json()["data"]["uuid"]
    for response in (
        await client.get(f"/disputes/{dispute}", headers=stranger.headers),
        await _resolve(client, stranger, dispute, "won"),
        await client.get(f"/disputes/{uuid.uuid4()}", headers=user.headers),
    ):
        assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert (await client.get("/disputes", headers=stranger.headers)).json()["data"] == []
    assert (await client.get("/disputes")).status_code == 401


@pytest.mark.parametrize(
    "body",
    [
        {"reason": "not_received"},
        {"transaction_uuid": "not-a-uuid", "reason": "not_received"},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "because"},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "other", "amount": -1},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "other", "amount": 1.001},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "other", "explanation": ""},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "other", "surprise": 1},
        {"transaction_uuid": str(uuid.uuid4()), "reason": "other",
         "evidence_attachment_uuids": [str(uuid.UUID(int=1))] * 2},
    ],
)  # fmt: skip
async def test_bad_input_is_422_and_writes_nothing(
    app: FastAPI, client: httpx.AsyncClient, body: dict[str, object]
) -> None:
    user = await make_user(app)
    response = await client.post("/disputes", headers=user.headers, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "validation_error" and response.json()["errors"]
    assert response.json()["success"] is False and response.json()["message"]
    assert await _count(app, "SELECT count(*) FROM disputes") == 0


async def test_malformed_bodies_and_resolve_outcomes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    headers = {**user.headers, "Content-Type": "application/json"}
    assert (await client.post("/disputes", headers=headers, content=b"[1")).status_code == 400
    plain = {**user.headers, "Content-Type": "text/plain"}
    assert (await client.post("/disputes", headers=plain, content=b"{}")).status_code == 415
    missing = await _resolve(client, user, str(uuid.uuid4()), "won")
    assert missing.status_code == 404
    bad = await _resolve(client, user, str(uuid.uuid4()), "draw")
    assert bad.status_code == 422 and bad.json()["code"] == "validation_error"
    listing = await client.get(
        "/disputes", headers=user.headers, params={"filters[status]": "pending"}
    )
    assert listing.status_code == 422 and "filters[status]" in listing.json()["errors"]


async def test_list_is_paged_and_filtered(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchases = [await _completed(app, client, user, card, "1") for _ in range(3)]
    disputes = [(await _open(client, user, p)).json()["data"]["uuid"] for p in purchases]
    await _resolve(client, user, disputes[0], "lost")
    page = (await client.get("/disputes", headers=user.headers, params={"per_page": 2})).json()
    assert page["meta"] == {"current_page": 1, "per_page": 2, "total": 3, "last_page": 2}
    rest = await client.get("/disputes", headers=user.headers, params={"per_page": 2, "page": 2})
    walked = [d["uuid"] for d in page["data"] + rest.json()["data"]]
    assert sorted(walked) == sorted(disputes)
    open_ = await client.get("/disputes", headers=user.headers, params={"filters[status]": "open"})
    assert {d["uuid"] for d in open_.json()["data"]} == set(disputes[1:])
    one = await client.get(
        "/disputes", headers=user.headers, params={"filters[transaction_uuid]": purchases[2]}
    )
    assert [d["uuid"] for d in one.json()["data"]] == [disputes[2]]


async def test_events_follow_the_dispute(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    dispute = (await _open(client, user, purchase)).json()["data"]
    won = (await _resolve(client, user, dispute["uuid"], "won")).json()["data"]
    await app.state.db.transact(sequence_events)
    events = (
        await client.get(
            "/events",
            headers=user.headers,
            params={"filters[type]": "dispute.created", "limit": 100},
        )
    ).json()["data"]
    assert [e["data"] for e in events] == [dispute]
    updated = (
        await client.get(
            "/events", headers=user.headers, params={"filters[type]": "dispute.updated"}
        )
    ).json()["data"]
    assert [e["data"] for e in updated] == [won]
    credits = (await client.get("/events", headers=user.headers, params={"limit": 100})).json()
    created = [e["data"] for e in credits["data"] if e["type"] == "transaction.created"]
    assert any(t["type"] == "dispute_credit" for t in created)


async def test_the_database_holds_the_dispute_rules(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Forged in a unit of work: a second open dispute of one purchase, and a second
    dispute credit of one purchase, are refused by the database itself."""
    user = await make_user(app)
    _account, card = await make_card(app, client, user, start_balance="100")
    purchase = await _completed(app, client, user, card)
    dispute = (await _open(client, user, purchase)).json()["data"]
    credit = (await _resolve(client, user, dispute["uuid"], "won")).json()["data"][
        "credit_transaction_uuid"
    ]

    def key(value: object) -> str:
        return uuid.UUID(str(value)).hex if app.state.db.is_sqlite else str(value)

    def open_dispute() -> str:
        return (
            "INSERT INTO disputes (uuid, user_uuid, transaction_uuid, amount, currency, reason,"
            " status, evidence_attachment_uuids, created_at, updated_at) VALUES"
            f" ('{key(uuid.uuid4())}', '{key(user.uuid)}', '{key(purchase)}', 1, 'USD', 'other',"
            " 'open', '[]', '2026-11-23 10:00:00', '2026-11-23 10:00:00')"
        )

    copy_credit = (
        "INSERT INTO transactions (uuid, user_uuid, account_uuid, card_uuid, type, status,"
        " direction, amount, currency, fee, refunded_amount, flagged, parent_uuid, created_at,"
        f" updated_at) SELECT '{key(uuid.uuid4())}', user_uuid, account_uuid, card_uuid, type,"
        " status, direction, amount, currency, fee, refunded_amount, flagged, parent_uuid,"
        f" created_at, updated_at FROM transactions WHERE uuid = '{key(credit)}'"
    )
    for statements in ([open_dispute(), open_dispute()], [copy_credit]):
        with pytest.raises(Exception, match=r"(?i)unique"):
            await app.state.db.transact(functools.partial(_execute, statements))
    assert await _count(app, "SELECT count(*) FROM disputes") == 1
    assert await _count(app, "SELECT count(*) FROM transactions WHERE type = 'dispute_credit'") == 1


async def test_the_openapi_document_describes_disputes(client: httpx.AsyncClient) -> None:
    schema = (await client.get("/openapi.json")).json()
    paths, components = schema["paths"], schema["components"]["schemas"]
    assert {
        "/disputes",
        "/disputes/{disputeUuid}",
        "/sandbox/disputes/{disputeUuid}/resolve",
    } <= set(paths)
    [param] = paths["/disputes/{disputeUuid}"]["get"]["parameters"]
    assert param["name"] == "disputeUuid" and param["schema"]["pattern"].startswith("^[0-9a-fA-F]")
    assert paths["/disputes"]["post"]["security"] == [{"bearerAuth": []}, {"mfaCode": []}]
    text_of_schema = str(components)
    assert "dispute_credit" in text_of_schema and "dispute.updated" in text_of_schema
    assert "not_as_described" in text_of_schema

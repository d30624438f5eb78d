"""The card-testing guard over a real TCP connection (docs/network.md#card-testing): verification
declines are free, the 5th failure of a card within 24 h freezes it (`59` from then on, its holder's
`PATCH … active` resets it), 10 failures at one merchant block that merchant for 10 minutes."""

from __future__ import annotations

import uuid
from datetime import timedelta
from types import SimpleNamespace

import httpx
import orjson
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.db.sql import Row
from cardservice.models.base import utcnow
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import IssuedCard, Network, issue_card

START = 10000  # the card's balance in minor units (make_card's start balance of 100)


async def _purchases(app: FastAPI, card: IssuedCard) -> list[SimpleNamespace]:
    purchases = await stored_transactions(app, "card_purchase")
    return [t for t in purchases if t.card_uuid == uuid.UUID(card.uuid)]


async def _card(app: FastAPI, card: IssuedCard) -> Row:
    found: Row | None = await app.state.db.reader.row(
        "SELECT status, frozen_reason, verification_failures FROM cards WHERE uuid = $1",
        uuid.UUID(card.uuid),
    )
    assert found is not None
    return found


async def _card_events(app: FastAPI, card: IssuedCard) -> list[dict[str, object]]:
    rows = await app.state.db.reader.rows(
        "SELECT data FROM events WHERE object_uuid = $1 AND type = 'card.updated' ORDER BY id",
        uuid.UUID(card.uuid),
    )
    return [orjson.loads(row["data"] or "null") for row in rows]


def _wrong_cvv2(app: FastAPI, card: IssuedCard) -> str:
    return f"{(int(app.state.cipher.cvv2(card.pan, card.expiry)) + 1) % 1000:03d}"


async def _send(network: Network, fields: dict[int, str]) -> str:
    return (await network.client.request("0100", fields)).fields[39]


async def test_verification_declines_cost_the_holder_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    wrong_expiry = messages.authorization(card.pan, "0101", 100, *network.key())
    wrong_cvv2 = messages.authorization(
        card.pan, card.expiry, 100, *network.key(), cvv2=_wrong_cvv2(app, card)
    )
    assert await _send(network, wrong_expiry) == "54"
    assert await _send(network, wrong_cvv2) == "N7"
    assert await balances(app, card.account) == before
    declined = await _purchases(app, card)
    assert [(t.status, t.error_slug, t.fee, t.amount) for t in declined] == [
        ("declined", "invalid_expiry", 0, 100),
        ("declined", "invalid_cvv2", 0, 100),
    ]
    await assert_ledger_consistent(app)


async def test_the_fifth_failure_freezes_the_card_and_every_later_try_answers_59(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wrong = _wrong_cvv2(app, card)
    right = app.state.cipher.cvv2(card.pan, card.expiry)
    for _ in range(4):
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
        assert await _send(network, fields) == "N7"
    assert (await _card(app, card))["status"] == "active"
    fifth = messages.authorization(card.pan, "0101", 100, *network.key())
    assert await _send(network, fifth) == "54"
    frozen = await _card(app, card)
    assert (frozen["status"], frozen["frozen_reason"]) == ("frozen", "suspected_fraud")
    [event] = await _card_events(app, card)
    assert event["status"] == "frozen" and event["frozen_reason"] == "suspected_fraud"
    record = (await client.get(f"/card/{card.uuid}", headers=user.headers)).json()["data"]
    assert record["status"] == "frozen" and record["frozen_reason"] == "suspected_fraud"
    for cvv2 in (right, wrong):  # the right details too: no 6th guess tells anything
        sixth = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=cvv2)
        assert await _send(network, sixth) == "59"
    codes = [(t.error_slug, t.fee) for t in await _purchases(app, card)]
    assert (
        codes == [("invalid_cvv2", 0)] * 4 + [("invalid_expiry", 0)] + [("suspected_fraud", 0)] * 2
    )
    assert await balances(app, card.account) == (100000 - 10000 - 200 - 150, [START])
    await assert_ledger_consistent(app)


async def test_the_holder_setting_the_card_active_resets_its_count(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wrong = _wrong_cvv2(app, card)
    for _ in range(5):
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
        await _send(network, fields)
    assert (await _card(app, card))["status"] == "frozen"
    active = await client.patch(
        f"/card/{card.uuid}", headers=user.headers, json={"status": "active"}
    )
    assert active.status_code == 200 and active.json()["data"]["frozen_reason"] is None
    reset = await _card(app, card)
    assert (reset["status"], reset["frozen_reason"], reset["verification_failures"]) == (
        "active",
        None,
        None,
    )
    for _ in range(4):  # a fresh count: four more failures do not freeze it
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
        assert await _send(network, fields) == "N7"
    assert (await _card(app, card))["status"] == "active"
    good = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert await _send(network, good) == "00"


async def test_an_approval_resets_the_count(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    for round_ in range(2):
        for _ in range(4):
            fields = messages.authorization(card.pan, "0101", 100, *network.key())
            assert await _send(network, fields) == "54"
        good = messages.authorization(card.pan, card.expiry, 100, *network.key())
        assert await _send(network, good) == "00", round_
        assert (await _card(app, card))["verification_failures"] is None
    assert (await _card(app, card))["status"] == "active"


async def test_failures_older_than_24_hours_do_not_count(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    for _ in range(4):
        fields = messages.authorization(card.pan, "0101", 100, *network.key())
        assert await _send(network, fields) == "54"
    stored = orjson.loads((await _card(app, card))["verification_failures"] or "[]")
    assert len(stored) == 4
    first_at = utcnow() - timedelta(hours=24, minutes=1)  # the first one, a day old
    aged = [first_at.isoformat(), *stored[1:]]
    # a failure of a day ago: no service records one in the past
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE cards SET verification_failures = $1 WHERE uuid = $2",
            orjson.dumps(aged).decode(),
            uuid.UUID(card.uuid),
        )
    )
    fifth = messages.authorization(card.pan, "0101", 100, *network.key())
    assert await _send(network, fifth) == "54"
    assert (await _card(app, card))["status"] == "active"  # 4 within the last 24 h
    sixth = messages.authorization(card.pan, "0101", 100, *network.key())
    assert await _send(network, sixth) == "54"
    assert (await _card(app, card))["status"] == "frozen"  # now 5 within the last 24 h


async def test_ten_failures_at_one_merchant_block_it_for_every_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    _other_user, other = await issue_card(app, client)
    for number in range(6):  # numbers this issuer never issued
        pan = f"400000000000{number:04d}"
        fields = messages.authorization(pan, "3012", 100, *network.key())
        assert await _send(network, fields) == "14"
    for victim in (card, other):
        for _ in range(2):
            fields = messages.authorization(victim.pan, "0101", 100, *network.key())
            assert await _send(network, fields) == "54"
    before = await balances(app, card.account)
    counted = len(await _purchases(app, card))
    good = messages.authorization(card.pan, card.expiry, 100, *network.key())
    answer = await network.client.request("0100", good)
    assert answer.fields[39] == "59" and 38 not in answer.fields
    again = await network.client.request("0100", good)  # a repeat: the first answer
    assert again.fields == answer.fields
    assert await balances(app, card.account) == before
    assert len(await _purchases(app, card)) == counted  # no card touched, no count changed
    assert (await _card(app, card))["status"] == "active"
    reader = app.state.db.reader
    [merchant] = await reader.rows(
        "SELECT acquirer_id, merchant_id, blocked_until FROM card_testing_merchants"
    )
    remembered = await reader.value(
        "SELECT response_code FROM network_messages WHERE stan = $1", good[11]
    )
    assert (merchant["acquirer_id"], merchant["merchant_id"]) == ("00000123456", "MERCHANT0000001")
    assert merchant["blocked_until"] is not None
    assert remembered == "59"
    elsewhere = messages.authorization(card.pan, card.expiry, 100, *network.key())
    elsewhere[42] = "OTHERSHOP000001"
    assert await _send(network, elsewhere) == "00"
    other_acquirer = messages.authorization(
        card.pan, card.expiry, 100, *network.key(), acquirer="654321"
    )
    assert await _send(network, other_acquirer) == "00"
    await assert_ledger_consistent(app)


async def test_nine_failures_at_a_merchant_block_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    for number in range(9):
        pan = f"400000000000{number:04d}"
        fields = messages.authorization(pan, "3012", 100, *network.key())
        assert await _send(network, fields) == "14"
    good = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert await _send(network, good) == "00"

"""The BIN lock against card-number enumeration across merchants (docs/network.md, "BIN
lock"), over a real TCP connection: more than 20 unknown numbers of one BIN within 10
minutes, from any merchants, lock it for 30 minutes — its numbers sent without 48.92 answer
`N7` (free, nothing counted on the card), the right 48.92 still goes through; the operator
sees the lock in `GET /operator/card-testing`; one warning line, one count on /metrics, one
`card_testing.locked` event (docs/events.md#the-operators-own-events)."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

import httpx
import orjson
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.models.base import utcnow
from tests.factories import balances, stored_transactions
from tests.network.conftest import Network, issue_card, unknown_numbers
from tests.operator.helpers import as_operator, operator_key

LOCK_METRIC = "cardservice_card_testing_bin_locks_total"


def _from_merchant(fields: dict[int, str], number: int) -> dict[int, str]:
    fields[42] = f"ROTATE{number:09d}"  # the attacker's field 42, another each time
    return fields


async def _card_testing(client: httpx.AsyncClient, key: str) -> dict[str, list[dict[str, object]]]:
    response = await client.get("/operator/card-testing", headers=as_operator(key))
    assert response.status_code == 200, response.text
    data: dict[str, list[dict[str, object]]] = response.json()["data"]
    return data


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


async def _locks_counted(client: httpx.AsyncClient) -> float:
    for line in (await client.get("/metrics")).text.splitlines():
        if line.startswith(LOCK_METRIC + " "):
            return float(line.split()[1])
    return 0.0


async def test_thirty_unknown_numbers_over_thirty_merchants_lock_the_bin(
    app: FastAPI,
    client: httpx.AsyncClient,
    network: Network,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The enumeration: before, 30 unknown numbers over 30 merchant ids (field 42 rotated, so
    the per-merchant guard never counted 10 at one) were each told `14`, and a number that
    exists `54`/`N7`. Now the first 21 answer `14`, the 21st locks the BIN, the 9 after it
    answer `N7` as the BIN's cards do without 48.92; the right 48.92 is still processed."""
    _user, card = await issue_card(app, client)
    key = await operator_key(app, "reports")
    locks_before = await _locks_counted(client)
    caplog.set_level(logging.WARNING, logger="cardservice.transactions.card_testing")
    numbers = unknown_numbers(card, 30)
    codes = []
    for number, pan in enumerate(numbers):
        fields = _from_merchant(messages.authorization(pan, "3012", 100, *network.key()), number)
        codes.append((await network.client.request("0100", fields)).fields[39])
        if number == 19:  # 20 unknown numbers: not more than 20, nothing locked
            assert (await _card_testing(client, key))["bins_locked"] == []
    assert codes == ["14"] * 21 + ["N7"] * 9
    held = await _card_testing(client, key)
    assert held["merchants_blocked"] == []  # one failure at each of 30 merchants
    [locked] = held["bins_locked"]
    assert locked["bin"] == card.pan[:6] and locked["unknown_numbers"] == 30
    until = str(locked["until"])
    assert until.endswith("Z")
    ends = utcnow() + timedelta(minutes=30)
    assert abs((ends - _instant(until)).total_seconds()) < 120
    lines = [r for r in caplog.records if r.name == "cardservice.transactions.card_testing"]
    assert len(lines) == 1 and lines[0].levelno == logging.WARNING
    assert card.pan[:6] in lines[0].getMessage() and "21" in lines[0].getMessage()
    assert not any(pan in lines[0].getMessage() for pan in numbers)
    assert await _locks_counted(client) == locks_before + 1
    before = await balances(app, card.account)
    without_cvv2 = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert (await network.client.request("0100", without_cvv2)).fields[39] == "N7"
    again = await network.client.request("0100", without_cvv2)  # a repeat: the first answer
    assert again.fields[39] == "N7"
    failures = await app.state.db.reader.value(
        "SELECT verification_failures FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
    )
    assert failures is None  # nothing counted on the card
    assert await stored_transactions(app, "card_purchase") == []  # no card touched
    assert await balances(app, card.account) == before
    right = app.state.cipher.cvv2(card.pan, card.expiry)
    with_cvv2 = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=right)
    assert (await network.client.request("0100", with_cvv2)).fields[39] == "00"
    wrong = f"{(int(right) + 1) % 1000:03d}"
    guess = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
    assert (await network.client.request("0100", guess)).fields[39] == "N7"  # counted, as usual
    unknown_with_cvv2 = messages.authorization(
        unknown_numbers(card, 31)[-1], "3012", 100, *network.key(), cvv2="123"
    )
    assert (await network.client.request("0100", unknown_with_cvv2)).fields[39] == "N7"
    told = [r for r in caplog.records if r.name == "cardservice.transactions.card_testing"]
    assert told == lines  # the lock is told once
    [event] = await app.state.db.reader.rows(  # and so is its event, to the operator
        "SELECT user_uuid, data FROM events WHERE type = 'card_testing.locked'"
    )
    assert event["user_uuid"] is None and card.pan not in event["data"]
    data = orjson.loads(event["data"])
    assert (data["bin"], data["unknown_numbers"], data["until"]) == (card.pan[:6], 21, until)


async def test_a_lock_ends_after_30_minutes_and_other_bins_are_not_affected(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    for number, pan in enumerate(unknown_numbers(card, 21)):
        fields = _from_merchant(messages.authorization(pan, "3012", 100, *network.key()), number)
        await network.client.request("0100", fields)
    foreign = messages.authorization("6011000000001234", "3012", 100, *network.key())
    assert (await network.client.request("0100", foreign)).fields[39] == "14"  # not our BIN
    without_cvv2 = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert (await network.client.request("0100", without_cvv2)).fields[39] == "N7"
    ended = utcnow() - timedelta(seconds=1)  # 30 minutes later: no service sets a past end
    await app.state.db.transact(
        lambda tx: tx.execute("UPDATE card_testing_bins SET locked_until = $1", ended)
    )
    after = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert (await network.client.request("0100", after)).fields[39] == "00"
    key = await operator_key(app, "network")
    assert (await _card_testing(client, key))["bins_locked"] == []
    rows = await app.state.db.reader.rows("SELECT bin FROM card_testing_bins")
    assert [row["bin"] for row in rows] == [card.pan[:6]]  # 601100 is no BIN of ours


async def test_the_card_testing_view_needs_the_network_or_reports_scope(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    users_only = await operator_key(app, "users")
    refused = await client.get("/operator/card-testing", headers=as_operator(users_only))
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    assert (await client.get("/operator/card-testing")).status_code == 401
    network_key = await operator_key(app, "network")
    assert await _card_testing(client, network_key) == {"merchants_blocked": [], "bins_locked": []}

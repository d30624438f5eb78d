"""A follow-up belongs to its acquirer and its card
(docs/network.md#a-follow-up-belongs-to-its-acquirer-and-its-card): an 0400/0420/0220 naming in 90
an original of another acquirer than its own 32, or carrying in 2 another card than the original's,
answers `25` and moves and remembers nothing. Concurrent over-limit refunds answer as one alone
does."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import Network, issue_card

STRANGER = "777777"


async def _purchases(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def _remembered(app: FastAPI, stan: str) -> int:
    """How many message keys of this STAN the host keeps."""
    count = await app.state.db.reader.value(
        "SELECT count(*) FROM network_messages WHERE stan = $1", stan
    )
    return int(count)


async def _authorized(network: Network, pan: str, expiry: str, amount: int) -> dict[int, str]:
    fields = messages.authorization(pan, expiry, amount, *network.key())
    assert (await network.client.request("0100", fields)).fields[39] == "00"
    return fields


def _from_stranger(fields: dict[int, str]) -> dict[int, str]:
    """The same follow-up sent by another acquirer (its own 32; 90 unchanged)."""
    return fields | {32: STRANGER}


async def test_another_acquirers_reversal_is_25_and_releases_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 2000)
    held = await balances(app, card.account)
    for mti in ("0400", "0420"):
        reversal = _from_stranger(messages.reversal_request(original, *network.key()))
        assert (await network.client.request(mti, reversal)).fields[39] == "25"
        assert await _remembered(app, reversal[11]) == 0
    partial = _from_stranger(messages.reversal_request(original, *network.key(), stays=500))
    assert (await network.client.request("0400", partial)).fields[39] == "25"
    assert await balances(app, card.account) == held
    [purchase] = await _purchases(app)
    assert (purchase.status, purchase.amount) == ("pending", 2000)
    own = messages.reversal_request(original, *network.key())  # its own acquirer's still reverses
    assert (await network.client.request("0400", own)).fields[39] == "00"
    await assert_ledger_consistent(app)


async def test_a_reversal_with_another_card_in_field_2_is_25(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    _other_user, other = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 2000)
    reversal = messages.reversal_request(original, *network.key()) | {2: other.pan}
    assert (await network.client.request("0400", reversal)).fields[39] == "25"
    assert await _remembered(app, reversal[11]) == 0
    unknown_number = messages.reversal_request(original, *network.key()) | {2: "4000001234567899"}
    assert (await network.client.request("0400", unknown_number)).fields[39] == "25"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending"
    await assert_ledger_consistent(app)


async def test_another_acquirers_capture_and_refund_are_25_and_move_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 2000)
    held = await balances(app, card.account)
    over = _from_stranger(messages.capture_advice(original, 2400, *network.key()))
    assert (await network.client.request("0220", over)).fields[39] == "25"
    other_card = messages.capture_advice(original, 2000, *network.key())
    _u, other = await issue_card(app, client)
    other_card[2] = other.pan
    assert (await network.client.request("0220", other_card)).fields[39] == "25"
    assert await balances(app, card.account) == held
    assert [p.status for p in await _purchases(app)] == ["pending"]
    capture = messages.capture_advice(original, 2000, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    captured = await balances(app, card.account)
    refund = messages.refund_advice(card.pan, 2000, *network.key(), original=original)
    refund[32] = STRANGER
    assert (await network.client.request("0220", refund)).fields[39] == "25"
    assert await _remembered(app, refund[11]) == 0
    assert await balances(app, card.account) == captured
    assert await stored_transactions(app, "card_refund") == []
    await assert_ledger_consistent(app)


async def test_a_strangers_early_reversal_is_not_remembered(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    future = messages.authorization(card.pan, card.expiry, 2000, *network.key())
    early = _from_stranger(messages.reversal_request(future, *network.key()))
    assert (await network.client.request("0400", early)).fields[39] == "25"
    assert await _remembered(app, future[11]) == 0 and await _remembered(app, early[11]) == 0
    assert (await network.client.request("0100", future)).fields[39] == "00"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending"  # approved and held, not released at once
    await assert_ledger_consistent(app)


async def test_an_early_reversal_for_another_card_does_not_release_the_original(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    _other_user, other = await issue_card(app, client)
    future = messages.authorization(card.pan, card.expiry, 2000, *network.key())
    early = messages.reversal_request(future, *network.key()) | {2: other.pan}
    assert (await network.client.request("0400", early)).fields[39] == "25"
    assert (await network.client.request("0100", future)).fields[39] == "00"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending"
    await assert_ledger_consistent(app)


async def test_concurrent_over_limit_refunds_answer_13_as_one_alone(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 3000)
    capture = messages.capture_advice(original, 3000, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    alone = messages.refund_advice(card.pan, 3001, *network.key(), original=original)
    assert (await network.client.request("0220", alone)).fields[39] == "13"
    refunds = [
        messages.refund_advice(card.pan, 3000, *network.key(), original=original) for _ in range(4)
    ]
    answers = await asyncio.gather(*(network.client.request("0220", fields) for fields in refunds))
    assert sorted(answer.fields[39] for answer in answers) == ["00", "13", "13", "13"]
    again = messages.refund_advice(card.pan, 1, *network.key(), original=original)
    assert (await network.client.request("0220", again)).fields[39] == "13"  # fully refunded
    assert sum(refund.amount for refund in await stored_transactions(app, "card_refund")) == 3000
    await assert_ledger_consistent(app)

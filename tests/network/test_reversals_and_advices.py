"""0400/0420 reversals, 0220 financial advices and 0120 stand-in advices over a real TCP
connection (docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import Network, issue_card

START = 10_000  # the card's balance: 100.00
FEE = 10  # card_transaction


async def _purchases(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def _owed(app: FastAPI) -> object:
    """What cardholders owe, all currencies: the `cardholder_receivables` book's sum."""
    return await app.state.db.reader.value(
        "SELECT sum(amount) FROM postings WHERE system_book = 'cardholder_receivables'"
    )


async def _card_balance(app: FastAPI, account: object) -> int:
    return (await balances(app, account))[1][0]  # type: ignore[arg-type]


async def _authorized(network: Network, pan: str, expiry: str, amount: int) -> dict[int, str]:
    fields = messages.authorization(pan, expiry, amount, *network.key())
    assert (await network.client.request("0100", fields)).fields[39] == "00"
    return fields


async def test_full_reversal_releases_amount_and_fee_and_repeats_move_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 2000)
    reversal = messages.reversal_request(original, *network.key())
    for mti in ("0400", "0401", "0420"):
        answer = await network.client.request(mti, reversal)
        assert answer.fields[39] == "00", mti
    assert await _card_balance(app, card.account) == START
    [purchase] = await _purchases(app)
    assert purchase.status == "reversed"
    another = messages.reversal_request(
        original, *network.key()
    )  # a new reversal of the same original
    assert (await network.client.request("0420", another)).fields[39] == "00"
    assert await _card_balance(app, card.account) == START
    await assert_ledger_consistent(app)


async def test_partial_reversal_shrinks_the_hold_to_field_95(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 5000)
    answer = await network.client.request(
        "0400", messages.reversal_request(original, *network.key(), stays=3000)
    )
    assert answer.mti == "0410" and answer.fields[39] == "00"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending" and purchase.amount == 3000 and purchase.fee == FEE
    assert await _card_balance(app, card.account) == START - 3000 - FEE
    await assert_ledger_consistent(app)


async def test_reversal_of_a_captured_original_is_12(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 1000)
    capture = messages.capture_advice(original, 1000, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    answer = await network.client.request(
        "0400", messages.reversal_request(original, *network.key())
    )
    assert answer.fields[39] == "12"
    assert await _card_balance(app, card.account) == START - 1000 - FEE


async def test_reversal_before_its_authorization_is_25_then_the_original_is_released(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = messages.authorization(card.pan, card.expiry, 1500, *network.key())
    reversal = messages.reversal_request(original, *network.key())
    assert (await network.client.request("0400", reversal)).fields[39] == "25"
    assert (await network.client.request("0400", reversal)).fields[39] == "25"  # its repeat
    late = await network.client.request("0100", original)
    assert late.fields[39] == "00" and len(late.fields[38]) == 6  # answered as usual
    [purchase] = await _purchases(app)
    assert purchase.status == "reversed"  # and released at once
    assert await _card_balance(app, card.account) == START
    assert (await network.client.request("0100", original)).fields == late.fields
    await assert_ledger_consistent(app)


async def test_split_captures_with_more_to_follow(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 6000)
    first = messages.capture_advice(original, 2000, *network.key(), more=True)
    assert (await network.client.request("0220", first)).fields[39] == "00"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending" and purchase.captured_amount == 2000
    last = messages.capture_advice(original, 3000, *network.key())
    answer = await network.client.request("0220", last)
    assert answer.mti == "0230" and answer.fields[39] == "00"
    assert (await network.client.request("0221", last)).fields[39] == "00"  # a repeat
    [purchase] = await _purchases(app)
    assert purchase.status == "completed" and purchase.captured_amount == 5000
    assert await _card_balance(app, card.account) == START - 5000 - FEE  # the rest released
    await assert_ledger_consistent(app)


async def test_over_capture_within_20_percent_else_51(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    tip = await _authorized(network, card.pan, card.expiry, 1000)
    assert (
        await network.client.request("0220", messages.capture_advice(tip, 1200, *network.key()))
    ).fields[39] == "00"
    too_much = await _authorized(network, card.pan, card.expiry, 1000)
    answer = await network.client.request(
        "0220", messages.capture_advice(too_much, 1201, *network.key())
    )
    assert answer.fields[39] == "51"
    statuses = [p.status for p in await _purchases(app)]
    assert statuses == ["completed", "pending"]
    assert await _card_balance(app, card.account) == START - 1200 - FEE - 1000 - FEE
    await assert_ledger_consistent(app)


async def test_capture_of_an_unknown_original_is_25(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    never = messages.authorization(card.pan, card.expiry, 1000, *network.key())
    assert (
        await network.client.request("0220", messages.capture_advice(never, 1000, *network.key()))
    ).fields[39] == "25"


async def test_refunds_with_an_original_never_more_than_captured_less_refunds(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 3000)
    assert (
        await network.client.request(
            "0220", messages.capture_advice(original, 3000, *network.key())
        )
    ).fields[39] == "00"
    first = messages.refund_advice(card.pan, 2000, *network.key(), original=original)
    assert (await network.client.request("0220", first)).fields[39] == "00"
    assert (await network.client.request("0220", first)).fields[39] == "00"  # a repeat
    over = messages.refund_advice(card.pan, 1001, *network.key(), original=original)
    assert (await network.client.request("0220", over)).fields[39] == "13"
    assert (await network.client.request("0220", over)).fields[39] == "13"  # remembered
    assert await _card_balance(app, card.account) == START - 3000 - FEE + 2000
    [refund] = await stored_transactions(app, "card_refund")
    assert refund.amount == 2000 and refund.channel == "iso8583"
    pending = await _authorized(network, card.pan, card.expiry, 100)
    wrong_state = messages.refund_advice(card.pan, 100, *network.key(), original=pending)
    assert (await network.client.request("0220", wrong_state)).fields[39] == "12"
    await assert_ledger_consistent(app)


async def test_a_refund_without_an_original_credits_the_card_of_field_2(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    credit = messages.refund_advice(card.pan, 750, *network.key())
    assert (await network.client.request("0220", credit)).fields[39] == "00"
    assert await _card_balance(app, card.account) == START + 750
    unknown = messages.refund_advice("4000001234567899", 750, *network.key())
    assert (await network.client.request("0220", unknown)).fields[39] == "14"
    await assert_ledger_consistent(app)


async def test_a_stand_in_advice_without_funds_books_the_shortfall(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    frozen = await client.patch(
        f"/card/{card.uuid}", headers=user.headers, json={"status": "frozen"}
    )
    assert frozen.status_code == 200
    advice = messages.authorization(card.pan, card.expiry, 15_000, *network.key())
    advice[38] = "NET123"
    answer = await network.client.request("0120", advice)
    assert answer.mti == "0130" and answer.fields[39] == "00"
    assert (await network.client.request("0121", advice)).fields[39] == "00"  # a repeat
    [purchase] = await _purchases(app)
    assert purchase.status == "pending" and purchase.stand_in and purchase.amount == 15_000
    assert purchase.shortfall == 15_000 + FEE - START
    assert await _card_balance(app, card.account) == 0
    owed = await _owed(app)
    assert owed == -(15_000 + FEE - START)
    record = (await client.get(f"/transaction/{purchase.uuid}", headers=user.headers)).json()[
        "data"
    ]
    assert record["stand_in"] is True and record["shortfall"] == 50.1
    assert record["network"]["auth_code"] == "NET123"
    await assert_ledger_consistent(app)
    reversal = messages.reversal_request(advice, *network.key(), original_mti="0120")
    assert (await network.client.request("0420", reversal)).fields[39] == "00"
    owed = await _owed(app)
    assert owed == 0 and await _card_balance(app, card.account) == START
    await assert_ledger_consistent(app)


async def test_a_stand_in_captured_for_less_repays_the_receivable_first(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    advice = messages.authorization(card.pan, card.expiry, 12_000, *network.key())
    assert (await network.client.request("0120", advice)).fields[39] == "00"
    capture = messages.capture_advice(advice, 9_000, *network.key())
    capture[90] = capture[90].replace("0100", "0120", 1)
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    owed = await _owed(app)
    assert owed == 0  # 3,000 released: the 2,010 owed repaid first
    assert await _card_balance(app, card.account) == START - 9_000 - FEE
    await assert_ledger_consistent(app)


async def _receivables(app: FastAPI, currency: str) -> int:
    owed = await app.state.db.reader.value(
        "SELECT sum(amount) FROM postings"
        " WHERE system_book = 'cardholder_receivables' AND currency = $1",
        currency,
    )
    return int(owed or 0)


async def test_a_stand_in_advice_in_a_currency_without_a_rate_is_booked_as_owed(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The network approved it: `00` and booked, though no rate converts JPY to the card's
    USD — all of it is the cardholder's shortfall in JPY, the card untouched, no fee; what
    goes back repays the receivable, and the card cannot pay an over-capture (`51`)."""
    user, card = await issue_card(app, client)
    advice = messages.authorization(card.pan, card.expiry, 1_000, *network.key(), currency="JPY")
    answer = await network.client.request("0120", advice)
    assert answer.mti == "0130" and answer.fields[39] == "00"
    assert (await network.client.request("0121", advice)).fields[39] == "00"  # a repeat
    [purchase] = await _purchases(app)
    assert purchase.status == "pending" and purchase.stand_in and purchase.currency == "JPY"
    assert (purchase.amount, purchase.shortfall, purchase.fee) == (1_000, 1_000, 0)
    assert await _card_balance(app, card.account) == START
    assert await _receivables(app, "JPY") == -1_000
    record = (await client.get(f"/transaction/{purchase.uuid}", headers=user.headers)).json()
    assert record["data"]["stand_in"] is True and record["data"]["currency"] == "JPY"
    partial = messages.reversal_request(advice, *network.key(), stays=600, original_mti="0120")
    assert (await network.client.request("0420", partial)).fields[39] == "00"
    assert await _receivables(app, "JPY") == -600
    over = messages.capture_advice(advice, 700, *network.key())
    over[90] = over[90].replace("0100", "0120", 1)
    assert (await network.client.request("0220", over)).fields[39] == "51"
    capture = messages.capture_advice(advice, 500, *network.key())
    capture[90] = capture[90].replace("0100", "0120", 1)
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    assert await _receivables(app, "JPY") == -500  # 100 released: repaid
    refund = messages.refund_advice(card.pan, 200, *network.key(), original=advice, currency="JPY")
    refund[90] = refund[90].replace("0100", "0120", 1)
    assert (await network.client.request("0220", refund)).fields[39] == "00"
    assert await _receivables(app, "JPY") == -300
    opened = await client.post(
        "/disputes", headers=user.headers,
        json={"transaction_uuid": str(purchase.uuid), "reason": "not_received"},
    )  # fmt: skip
    assert opened.status_code == 201, opened.text
    won = await client.post(
        f"/sandbox/disputes/{opened.json()['data']['uuid']}/resolve",
        headers=user.headers, json={"outcome": "won"},
    )  # fmt: skip
    assert won.status_code == 201, won.text
    assert await _receivables(app, "JPY") == 0  # the 300 still captured came back
    assert await _card_balance(app, card.account) == START
    await assert_ledger_consistent(app)


async def test_a_stand_in_advice_on_an_empty_card_is_all_shortfall(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    first = messages.authorization(card.pan, card.expiry, START - FEE, *network.key())
    assert (await network.client.request("0100", first)).fields[39] == "00"
    assert await _card_balance(app, card.account) == 0
    advice = messages.authorization(card.pan, card.expiry, 2_000, *network.key())
    assert (await network.client.request("0120", advice)).fields[39] == "00"
    stand_in = (await _purchases(app))[-1]
    assert stand_in.stand_in and stand_in.shortfall == 2_000 + FEE
    assert await _receivables(app, "USD") == -(2_000 + FEE)
    reversal = messages.reversal_request(advice, *network.key(), original_mti="0120")
    assert (await network.client.request("0420", reversal)).fields[39] == "00"
    assert await _receivables(app, "USD") == 0 and await _card_balance(app, card.account) == 0
    await assert_ledger_consistent(app)

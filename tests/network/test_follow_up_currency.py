"""Follow-ups in the original's currency (docs/network.md, "Follow-ups in the original's
currency"): an 0220 capture or refund, or an 0400/0420 reversal, whose field 49 is not the
original's answers `12` and moves nothing; the same follow-up in the original's currency
still goes through."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.network.fields import NUMERIC_CURRENCIES
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import Network, issue_card


async def _purchases(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def _authorized(network: Network, pan: str, expiry: str, amount: int) -> dict[int, str]:
    fields = messages.authorization(pan, expiry, amount, *network.key())
    assert (await network.client.request("0100", fields)).fields[39] == "00"
    return fields


def _in(fields: dict[int, str], currency: str) -> dict[int, str]:
    return fields | {49: NUMERIC_CURRENCIES[currency]}


async def test_a_jpy_capture_of_a_usd_authorization_is_12_and_moves_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """Before, an `0220` capture of 550 in JPY of a 5.00 USD authorization captured 5.50 USD
    (the amount read in the card's currency); now `12`, the hold untouched."""
    _user, card = await issue_card(app, client)
    original = await _authorized(network, card.pan, card.expiry, 500)
    held = await balances(app, card.account)
    capture = _in(messages.capture_advice(original, 550, *network.key()), "JPY")
    assert (await network.client.request("0220", capture)).fields[39] == "12"
    again = await network.client.request("0221", capture)  # a repeat: the first answer
    assert again.fields[39] == "12"
    assert await balances(app, card.account) == held
    [purchase] = await _purchases(app)
    assert (purchase.status, purchase.amount, purchase.captured_amount) == ("pending", 500, 0)
    in_usd = messages.capture_advice(original, 500, *network.key())
    assert (await network.client.request("0220", in_usd)).fields[39] == "00"
    await assert_ledger_consistent(app)


async def test_a_refund_or_a_reversal_in_another_currency_is_12_and_moves_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """Before, a refund in EUR of a USD purchase credited its amount in USD; now `12`, as a
    reversal (whole or partial, 0400 or 0420) in another currency is."""
    _user, card = await issue_card(app, client)
    bought = await _authorized(network, card.pan, card.expiry, 1000)
    capture = messages.capture_advice(bought, 1000, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    captured = await balances(app, card.account)
    refund = messages.refund_advice(card.pan, 400, *network.key(), original=bought, currency="EUR")
    assert (await network.client.request("0220", refund)).fields[39] == "12"
    assert await balances(app, card.account) == captured
    held = await _authorized(network, card.pan, card.expiry, 2000)
    before = await balances(app, card.account)
    whole = _in(messages.reversal_request(held, *network.key()), "EUR")
    partial = _in(messages.reversal_request(held, *network.key(), stays=500), "GBP")
    assert (await network.client.request("0400", whole)).fields[39] == "12"
    assert (await network.client.request("0420", partial)).fields[39] == "12"
    assert await balances(app, card.account) == before
    statuses = sorted((t.amount, t.status) for t in await _purchases(app))
    assert statuses == [(1000, "completed"), (2000, "pending")]
    usd_refund = messages.refund_advice(card.pan, 400, *network.key(), original=bought)
    assert (await network.client.request("0220", usd_refund)).fields[39] == "00"
    usd_reversal = messages.reversal_request(held, *network.key())
    assert (await network.client.request("0400", usd_reversal)).fields[39] == "00"
    await assert_ledger_consistent(app)


async def test_an_early_reversal_in_another_currency_does_not_release_its_original(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    original = messages.authorization(card.pan, card.expiry, 700, *network.key())
    early = _in(messages.reversal_request(original, *network.key()), "EUR")
    assert (await network.client.request("0400", early)).fields[39] == "25"
    assert (await network.client.request("0100", original)).fields[39] == "00"
    [purchase] = await _purchases(app)
    assert purchase.status == "pending"  # the reversal was not in its currency
    await assert_ledger_consistent(app)

"""Fields checked before anything else (docs/network.md#fields-checked-first): 7 a real
`MMDDhhmmss`, 32 1-11 digits, 2 12-19 digits, else `30` and nothing recorded; and a logged card
number never shows more than its first 6 and last 4 digits, nor fewer than 6 hidden."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.network.codec import Message
from cardservice.network.host import masked_pan
from tests.factories import balances
from tests.network.conftest import Network, issue_card


async def _recorded(app: FastAPI) -> tuple[int, int]:
    reader = app.state.db.reader
    transactions = await reader.value("SELECT count(*) FROM transactions")
    keys = await reader.value("SELECT count(*) FROM network_messages")
    return int(transactions), int(keys)


@pytest.mark.parametrize(
    "transmitted",
    ["9999999999", "1301120000", "0001120000", "0230120000", "0431120000", "1124240000",
     "1124126000", "1124120060"],
)  # fmt: skip
async def test_a_transmission_time_that_is_no_real_moment_is_30(
    app: FastAPI, client: httpx.AsyncClient, network: Network, transmitted: str
) -> None:
    _user, card = await issue_card(app, client)
    before = (await _recorded(app), await balances(app, card.account))
    stan, _now = network.key()
    fields = messages.authorization(card.pan, card.expiry, 100, stan, transmitted)
    answer = await network.client.request("0100", fields)
    assert answer.mti == "0110" and answer.fields[39] == "30"
    assert (await _recorded(app), await balances(app, card.account)) == before


async def test_the_29th_of_february_and_the_last_second_of_a_year_are_real(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    for transmitted in ("0229120000", "1231235959"):
        stan, _now = network.key()
        fields = messages.authorization(card.pan, card.expiry, 100, stan, transmitted)
        assert (await network.client.request("0100", fields)).fields[39] == "00"


async def test_an_empty_acquirer_id_is_30_for_every_message(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    before = await _recorded(app)
    authorization = messages.authorization(card.pan, card.expiry, 100, *network.key())
    sent = {
        "0100": authorization | {32: ""},
        "0400": messages.reversal_request(authorization, *network.key()) | {32: ""},
        "0220": messages.refund_advice(card.pan, 100, *network.key()) | {32: ""},
        "0800": messages.echo(*network.key()) | {32: ""},
    }
    for mti, fields in sent.items():
        assert (await network.client.request(mti, fields)).fields[39] == "30", mti
    assert await _recorded(app) == before


@pytest.mark.parametrize("length", [11, 1])
async def test_a_card_number_shorter_than_12_digits_is_30(
    app: FastAPI, client: httpx.AsyncClient, network: Network, length: int
) -> None:
    _user, card = await issue_card(app, client)
    before = await _recorded(app)
    fields = messages.authorization(card.pan[:length], card.expiry, 100, *network.key())
    assert (await network.client.request("0100", fields)).fields[39] == "30"
    credit = messages.refund_advice(card.pan[:length], 100, *network.key())
    assert (await network.client.request("0220", credit)).fields[39] == "30"
    assert await _recorded(app) == before


def _masked(pan: str) -> str:
    return masked_pan(Message("0100", {2: pan}))


@pytest.mark.parametrize("length", range(1, 20))
def test_a_masked_number_hides_at_least_6_digits_and_shows_at_most_6_and_4(
    length: int,
) -> None:
    pan = "".join(str(digit % 10) for digit in range(1, length + 1))
    masked = _masked(pan)
    shown = [char for char in masked if char.isdigit()]
    assert len(shown) <= 10
    assert masked == "-" or masked.count("*") >= 6
    assert masked == "-" or len(masked) == length


def test_the_masks_of_each_length() -> None:
    assert _masked("4000001234567899") == "400000******7899"
    assert _masked("4000001234567") == "*********4567"  # 13 digits: the last 4 only
    assert _masked("40000012345") == "*******2345"  # 11: the issue's case, 4 shown
    assert _masked("400000123") == "-"  # 9: even 4 would leave fewer than 6 hidden
    assert _masked("") == "-"


async def test_a_short_number_in_a_log_line_shows_its_last_4_only(
    app: FastAPI, network: Network, log_capture: list[str]
) -> None:
    pan = "40000012345"  # 11 digits: malformed, logged as a format error
    fields = messages.authorization(pan, "3012", 100, *network.key())
    assert (await network.client.request("0100", fields)).fields[39] == "30"
    assert any("malformed [2] (pan *******2345)" in line for line in log_capture)
    assert not any(pan in line for line in log_capture)

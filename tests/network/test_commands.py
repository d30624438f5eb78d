"""`cardservice network send` against a real listener
(docs/network.md#the-network-interface-iso-8583): an authorization by card uuid, its partial
reversal by the key it printed, and the refusals — in process (tests/cli/test_cli.py `Command`)."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import Command
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import Network, issue_card

ANSWER = re.compile(r"^(\d{4}) (\w\w)(?: auth (\w{6}))? available (\S+) USD key (\d{6}/\d{10})$")


@pytest.fixture
def cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    return Command(settings, monkeypatch, capsys)


async def test_send_authorizes_by_card_uuid_and_reverses_by_the_printed_key(
    app: FastAPI, client: httpx.AsyncClient, network: Network, cli: Command
) -> None:
    _user, card = await issue_card(app, client)  # 100.00 on the card
    port = ("--port", str(network.port))
    sent = await cli.value("network", "send", "--card-uuid", card.uuid, "--amount", "12.50", *port)
    approved = ANSWER.match(sent)
    assert approved, sent
    assert approved.group(1, 2, 4) == ("0110", "00", "87.40")  # 12.50 and the 0.10 fee held
    key = approved.group(5)
    reversal = ("--type", "reversal", "--original", key, "--stays", "5")
    reversed_ = await cli.value("network", "send", "--card-uuid", card.uuid, "--amount",
                                "12.50", *reversal, *port)  # fmt: skip
    assert reversed_.startswith("0410 00 "), reversed_
    assert (await balances(app, card.account))[1] == [100_00 - 5_00 - 10]
    await assert_ledger_consistent(app)


async def test_send_refuses_in_one_line(
    app: FastAPI, client: httpx.AsyncClient, network: Network, cli: Command
) -> None:
    _user, card = await issue_card(app, client)
    base = ("network", "send", "--amount", "1", "--port", str(network.port))
    assert "--card-uuid, or --pan and --expiry" in await cli.refused(*base)
    assert "no code for currency XYZ" in await cli.refused(
        *base, "--card-uuid", card.uuid, "--currency", "xyz"
    )
    assert "names its original" in await cli.refused(
        *base, "--card-uuid", card.uuid, "--type", "capture"
    )
    assert "STAN/MMDDhhmmss" in await cli.refused(*base, "--type", "reversal", "--original", "1")
    assert (await balances(app, card.account))[1] == [100_00]  # nothing was sent


async def test_send_a_stand_in_advice_then_its_reversal(
    app: FastAPI, client: httpx.AsyncClient, network: Network, cli: Command
) -> None:
    _user, card = await issue_card(app, client)  # 100.00 on the card
    port = ("--port", str(network.port))
    line = await cli.value("network", "send", "--type", "stand-in", "--card-uuid", card.uuid,
                           "--amount", "150", *port)  # fmt: skip
    assert line.startswith("0130 00 ") and "available 0.00 USD" in line, line
    key = line.rsplit("key ", 1)[1]
    reversal = ("--type", "reversal", "--original", key, "--original-mti", "0120")
    reversed_ = await cli.value("network", "send", "--card-uuid", card.uuid, "--amount", "150",
                                *reversal, *port)  # fmt: skip
    assert reversed_.startswith("0430 00 "), reversed_
    [purchase] = await stored_transactions(app, "card_purchase")
    assert purchase.stand_in and purchase.status == "reversed" and purchase.shortfall == 5_010
    await assert_ledger_consistent(app)

"""The simulator plays the token service (docs/network.md#wallet-tokens): `cardservice network
tokenize` puts a card in a wallet, `network send --token-pan` pays with it, `network activate` sends
the holder's code; `network run --faults wallets` mixes DPAN payments into its traffic."""

from __future__ import annotations

import re

import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import simulator
from cardservice.config import Settings
from tests.cli.test_cli import Command
from tests.factories import ISSUED_SECRETS, assert_ledger_consistent, balances
from tests.network.conftest import Network, issue_card
from tests.tokens.conftest import first_payment, tokens_of


@pytest.fixture
def cli(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Command:
    return Command(settings, monkeypatch, capsys)


async def _lines(cli: Command, *args: str) -> str:
    """A command's whole stdout (tokenize prints several lines)."""
    code, out, err = await cli(*args)
    assert code == 0 and err == "", err
    return out


def _printed(text: str, name: str) -> str:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert found, text
    return found.group(1)


async def test_tokenize_then_pay_with_the_printed_dpan(
    app: FastAPI, client: httpx.AsyncClient, network: Network, cli: Command
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    port = ("--port", str(network.port))
    printed = await _lines(
        cli, "network", "tokenize", "--card-uuid", card.uuid, "--wallet", "google_pay", *port
    )
    assert printed.startswith("0110 00 (approved)\n0630 00"), printed
    dpan = _printed(printed, "dpan")
    ISSUED_SECRETS.append(dpan)
    [token] = await tokens_of(client, user.headers, card.uuid)
    assert token["wallet"] == "google_pay" and token["last4"] == dpan[-4:]
    _, [before] = await balances(app, card.account)
    paid = await cli.value("network", "send", "--token-pan", dpan, "--amount", "3", *port)
    assert paid.startswith("0110 00 auth "), paid
    assert (await balances(app, card.account))[1] == [before - 300 - 10]
    await assert_ledger_consistent(app)


async def test_a_step_up_is_activated_with_the_holders_code(
    app: FastAPI, client: httpx.AsyncClient, network: Network, cli: Command
) -> None:
    user, card = await issue_card(app, client)
    port = ("--port", str(network.port))
    printed = await _lines(
        cli, "network", "tokenize", "--card-uuid", card.uuid, "--risk", "5", *port
    )
    assert printed.startswith("0110 85 (approved once the holder confirms)"), printed
    ISSUED_SECRETS.append(_printed(printed, "dpan"))
    reference = _printed(printed, "token reference")
    codes = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    [code] = [c["code"] for c in codes if c["merchant_name"] == "Apple Pay"]
    activated = await cli.value(
        "network", "activate", "--reference", reference, "--code", code, *port
    )
    assert activated == "0630 00"
    [token] = await tokens_of(client, user.headers, card.uuid)
    assert token["status"] == "active"


async def test_a_run_with_wallet_traffic_loses_nothing(app: FastAPI, network: Network) -> None:
    found = await simulator.run(
        app.state.db, app.state.cipher, "127.0.0.1", network.port,
        seed=3, seconds=3, faults={"wallets", "duplicates", "late-reversals"}, connections=2,
        cards=4,
    )  # fmt: skip
    assert found["ok"], found
    payments = found["wallet_payments"]
    assert payments["active"].get("00", 0) > 0
    inactive = {**payments.get("suspended", {}), **payments.get("requires_activation", {})}
    assert set(inactive) <= {"62"} and found["inactive_tokens_paid"] == 0
    assert found["cents_lost"] == 0 and found["applied_twice"] == 0
    await assert_ledger_consistent(app)

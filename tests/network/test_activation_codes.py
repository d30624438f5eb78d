"""Wallet activation codes die after 3 wrong tries (docs/network.md, "Activation codes"): the
third wrong 48.77 for one token answers `63` and deletes the token (`card.token.updated`),
and its code with it; two wrong tries, then the right code, still activate."""

from __future__ import annotations

import uuid

import httpx
import orjson
from fastapi import FastAPI

from cardservice.acquirer import messages
from tests.factories import Caller
from tests.network.conftest import IssuedCard, Network, issue_card
from tests.tokens.conftest import Wallet, decide, first_payment, new_wallet, notify, token_row


async def _stepped_up(
    client: httpx.AsyncClient, network: Network, user: Caller, card: IssuedCard
) -> tuple[Wallet, str]:
    """A token waiting for its activation, and the code the holder reads."""
    wallet = new_wallet()
    assert await decide(network, card, wallet, risk=5) == "85"
    assert await notify(network, card, wallet) == "00"
    return wallet, await _live_code(client, user)


async def _live_code(client: httpx.AsyncClient, user: Caller) -> str:
    codes = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    [code] = [c["code"] for c in codes if c["merchant_name"] == "Apple Pay"]
    return str(code)


async def _activate(network: Network, wallet: Wallet, code: str) -> str:
    fields = messages.token_activation(wallet.reference, code, *network.key())
    return (await network.client.request("0620", fields)).fields[39]


def _wrong(code: str, n: int) -> str:
    return f"{(int(code) + n) % 1_000_000:06d}"


async def test_the_third_wrong_code_deletes_the_token_and_the_right_one_no_longer_activates(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The guesses: before, 30 wrong 48.77 in 0.17 s were each `63`, uncounted, and the right
    code afterwards still activated the token. Now the 3rd wrong one deletes it (event
    `card.token.updated`); the right code then answers `63` and the code is gone."""
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    wallet, code = await _stepped_up(client, network, user, card)
    assert [await _activate(network, wallet, _wrong(code, n)) for n in (1, 2)] == ["63", "63"]
    assert await token_row(app, wallet.reference) == "requires_activation"
    assert await _activate(network, wallet, _wrong(code, 3)) == "63"
    assert await token_row(app, wallet.reference) == "deleted"
    token = await token_row(app, wallet.reference, "uuid")
    assert isinstance(token, uuid.UUID)
    rows = await app.state.db.reader.rows(
        "SELECT data FROM events WHERE object_uuid = $1 AND type = 'card.token.updated'", token
    )
    assert [orjson.loads(row["data"])["status"] for row in rows] == ["deleted"]
    assert await _activate(network, wallet, code) == "63"
    assert await token_row(app, wallet.reference) == "deleted"
    codes = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    assert [c for c in codes if c["merchant_name"] == "Apple Pay"] == []  # died with it
    payment = messages.authorization(wallet.dpan, wallet.expiry, 100, *network.key())
    assert (await network.client.request("0100", payment)).fields[39] == "14"
    again = new_wallet()  # the wallet provisions again: a new token, a new code
    assert await decide(network, card, again, risk=5) == "85"
    assert await notify(network, card, again) == "00"
    assert await _activate(network, again, await _live_code(client, user)) == "00"


async def test_two_wrong_codes_then_the_right_one_activate_and_tries_are_per_token(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    wallet, code = await _stepped_up(client, network, user, card)
    assert [await _activate(network, wallet, _wrong(code, n)) for n in (1, 2)] == ["63", "63"]
    assert await _activate(network, wallet, code) == "00"
    assert await token_row(app, wallet.reference) == "active"
    assert await _activate(network, wallet, _wrong(code, 3)) == "00"  # active stays active
    assert await token_row(app, wallet.reference) == "active"

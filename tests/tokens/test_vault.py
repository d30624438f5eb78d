"""The DPAN is card data (docs/network.md#wallet-tokens): encrypted with the card-number key under
either key backend (local, and this run's SoftHSM2 token), found by fingerprint, re-encrypted by key
rotation, and never in a log line, event, error, export or metric."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.config import Settings
from cardservice.security.pkcs11 import PREFIX
from tests.factories import assert_ledger_consistent
from tests.log_scan import secrets_in
from tests.network.conftest import Network, issue_card
from tests.softhsm import SoftHsm
from tests.tokens.conftest import decide, new_wallet, pay, provision


@pytest.fixture(params=["local", "pkcs11"])
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test twice: keys local, and keys in this run's SoftHSM2 token."""
    if request.param == "local":
        return settings
    softhsm: SoftHsm = request.getfixturevalue("softhsm")
    return softhsm.settings(settings)


async def test_the_dpan_is_sealed_by_the_configured_backend_and_found_by_fingerprint(
    app: FastAPI, client: httpx.AsyncClient, network: Network, settings: Settings
) -> None:
    _user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    [row] = await app.state.db.reader.rows(
        "SELECT dpan_ciphertext, dpan_fingerprint, last4 FROM card_tokens"
    )
    sealed = bytes(row["dpan_ciphertext"])
    assert wallet.dpan.encode() not in sealed
    assert sealed.startswith(PREFIX) == (settings.key_backend == "pkcs11")
    assert app.state.cipher.decrypt(sealed) == wallet.dpan
    assert row["dpan_fingerprint"] == app.state.cipher.fingerprint(wallet.dpan)
    assert row["last4"] == wallet.dpan[-4:]
    assert (await pay(network, wallet.dpan, wallet.expiry, 300))[39] == "00"
    await assert_ledger_consistent(app)


async def test_the_dpan_appears_nowhere_but_its_ciphertext(
    app: FastAPI, client: httpx.AsyncClient, network: Network, log_capture: list[str]
) -> None:
    lines_before = len(log_capture)
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    assert (await pay(network, wallet.dpan, wallet.expiry, 300))[39] == "00"
    assert (await pay(network, wallet.dpan, "0101", 300))[39] == "54"
    refused = new_wallet()
    assert await decide(network, card, refused) == "00"
    bad = refused.dpan[:-1] + str((int(refused.dpan[-1]) + 1) % 10)
    fields = messages.token_created(card.pan, bad, refused.expiry, *network.key(),
                                    reference=refused.reference)  # fmt: skip
    assert (await network.client.request("0620", fields)).fields[39] == "30"
    base = f"/card/{card.uuid}/tokens/{wallet.uuid}"
    assert (await client.post(f"{base}/suspend", headers=user.headers)).status_code == 200
    assert (await pay(network, wallet.dpan, wallet.expiry, 300))[39] == "62"
    error = await client.post(f"{base}/bogus", headers=user.headers)
    bodies = [error.text]
    for path in (
        f"/card/{card.uuid}/tokens",
        "/transaction/report",
        "/transaction/report.csv",
        "/events?limit=100",
        "/metrics",
    ):
        response = await client.get(path, headers=user.headers)
        assert response.status_code == 200, (path, response.text)
        bodies.append(response.text)
    for text in bodies:
        assert wallet.dpan not in text and bad not in text
        assert secrets_in(text) == []
    events = await app.state.db.reader.rows("SELECT data FROM events")
    assert all(wallet.dpan not in str(row["data"]) for row in events)
    logged = "\n".join(log_capture[lines_before:])
    assert wallet.dpan not in logged and bad not in logged
    assert secrets_in(f"leaked {wallet.dpan}") == [wallet.dpan]  # the scan would see it
    assert secrets_in(f"leaked {bad}") == []  # a number that is no DPAN is not one

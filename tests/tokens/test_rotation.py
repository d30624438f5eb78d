"""`cardservice keys rotate` re-encrypts the DPANs with the card numbers
(docs/network.md#wallet-tokens)."""

from __future__ import annotations

import httpx
from cryptography.fernet import Fernet
from fastapi import FastAPI

from cardservice.security import CardCipher, generate_key
from cardservice.security.rotation import rotate_keys
from tests.conftest import TEST_KEY
from tests.network.conftest import Network, issue_card
from tests.tokens.conftest import provision


async def test_rotation_reencrypts_the_dpans_and_keeps_their_fingerprints(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    pinned = app.state.cipher.fingerprint_key
    new_key = generate_key()
    rotating = CardCipher([new_key.encode(), TEST_KEY.encode()], pinned)
    walked: list[tuple[str, int, int]] = []
    await rotate_keys(app.state.db, rotating, lambda *step: walked.append(step))
    assert ("wallet_token", 1, 1) in walked
    [row] = await app.state.db.reader.rows(
        "SELECT dpan_ciphertext, dpan_fingerprint FROM card_tokens"
    )
    assert Fernet(new_key.encode()).decrypt(bytes(row["dpan_ciphertext"])).decode() == wallet.dpan
    assert row["dpan_fingerprint"] == CardCipher([new_key.encode()], pinned).fingerprint(
        wallet.dpan
    )

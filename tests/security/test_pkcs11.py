"""The `pkcs11` key backend on this run's SoftHSM2 token (issue 29,
docs/security.md#card-details-cvv2-and-issuer-keys): card numbers encrypted by the token's AES key,
CVV2s by its DES3, `cardservice keys create | rotate | check` on it; the published CVV vectors
through the token's DES3 ECB."""

from __future__ import annotations

import subprocess
import sys
import uuid
from typing import Any

import httpx
import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI

from cardservice.config import Settings
from cardservice.security import CardCipher
from cardservice.security.cvv import compute_cvv, cvv_with_key
from cardservice.security.pkcs11 import PREFIX, Pkcs11Cipher, TokenError
from tests.cards.test_cvv2 import VECTORS
from tests.conftest import TEST_CVK, TEST_KEY
from tests.factories import make_card, make_user
from tests.softhsm import SoftHsm


def token_cipher(softhsm: SoftHsm, settings: Settings) -> Pkcs11Cipher:
    cipher = CardCipher.from_settings(softhsm.settings(settings))
    assert isinstance(cipher, Pkcs11Cipher)
    return cipher


# The tests of the token alone read no database: on one kind, not on each.
TOKEN_ALONE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardservice", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@TOKEN_ALONE
@pytest.mark.parametrize(("cvk", "pan", "expiry", "service_code", "cvv"), VECTORS)
def test_published_vectors_through_the_tokens_des3(
    softhsm: SoftHsm,
    settings: Settings,
    cvk: str,
    pan: str,
    expiry: str,
    service_code: str,
    cvv: str,
) -> None:
    import pkcs11

    cipher = token_cipher(softhsm, settings)
    material = bytes.fromhex(cvk)
    a, b = material[:8], material[8:]
    with cipher.token.session() as session:

        def key(value: bytes) -> Any:  # a session key: gone when the session closes
            return session.create_object(
                {
                    pkcs11.Attribute.CLASS: pkcs11.ObjectClass.SECRET_KEY,
                    pkcs11.Attribute.KEY_TYPE: pkcs11.KeyType.DES3,
                    pkcs11.Attribute.VALUE: value,
                    pkcs11.Attribute.TOKEN: False,
                    pkcs11.Attribute.ENCRYPT: True,
                }
            )

        single, double = key(a * 3), key(a + b + a)

        def ecb(k: Any) -> Any:
            return lambda block: bytes(k.encrypt(block, mechanism=pkcs11.Mechanism.DES3_ECB))

        assert compute_cvv(ecb(single), ecb(double), pan, expiry, service_code) == cvv
    cipher.token.close()


@TOKEN_ALONE
def test_cvv2_by_the_token_equals_the_algorithm(softhsm: SoftHsm, settings: Settings) -> None:
    cipher = token_cipher(softhsm, settings)
    for pan, expiry in (("4123456789012345", "8701"), ("4000001234567899", "2911")):
        assert cipher.cvv2(pan, expiry) == cvv_with_key(bytes.fromhex(TEST_CVK), pan, expiry)
    assert cipher.keys.cvk_check_value() == "08D7B4"  # the KCV of the test CVK
    cipher.token.close()


@TOKEN_ALONE
def test_numbers_are_sealed_by_the_token(softhsm: SoftHsm, settings: Settings) -> None:
    cipher = token_cipher(softhsm, settings)
    sealed = cipher.encrypt("4111111111111111")
    assert sealed.startswith(PREFIX) and b"4111111111111111" not in sealed
    assert cipher.decrypt(sealed) == "4111111111111111"
    assert cipher.encrypt("4111111111111111") != sealed  # a fresh nonce each time
    assert cipher.reencrypt(sealed) is None  # already under the newest generation
    tampered = sealed[:-1] + bytes([sealed[-1] ^ 1])
    with pytest.raises(ValueError, match="does not match"):
        cipher.decrypt(tampered)
    legacy = Fernet(TEST_KEY.encode()).encrypt(b"4111111111111111")
    assert cipher.decrypt(legacy) == "4111111111111111"  # the local key still reads
    moved = cipher.reencrypt(legacy)
    assert moved is not None and moved.startswith(PREFIX)
    assert cipher.decrypt(moved) == "4111111111111111"
    assert cipher.fingerprint("4111111111111111") == CardCipher.local(settings).fingerprint(
        "4111111111111111"
    )  # the pinned fingerprint key: every card keeps its fingerprint
    cipher.token.close()


@TOKEN_ALONE
def test_a_wrong_pin_or_label_is_a_clear_error(softhsm: SoftHsm, settings: Settings) -> None:
    # in a process of its own: a PKCS#11 login is per process, and this one is logged in
    env = softhsm.env(settings)
    wrong_pin = cli({**env, "CARDSERVICE_PKCS11_PIN": "0000"}, "keys", "check")
    assert wrong_pin.returncode == 2 and "cannot open the PKCS#11 token" in wrong_pin.stderr
    assert "0000" not in wrong_pin.stderr
    wrong_label = cli({**env, "CARDSERVICE_PKCS11_TOKEN_LABEL": "nope"}, "keys", "check")
    assert wrong_label.returncode == 2 and "cannot open the PKCS#11 token" in wrong_label.stderr
    unpinned = softhsm.settings(settings).model_copy(update={"fingerprint_key": ""})
    with pytest.raises(TokenError, match="CARDSERVICE_FINGERPRINT_KEY"):
        CardCipher.from_settings(unpinned)


async def test_keys_create_rotate_and_check_on_the_token(
    app: FastAPI, client: httpx.AsyncClient, softhsm: SoftHsm, settings: Settings, tmp_path: Any
) -> None:
    user = await make_user(app)
    cards = [(await make_card(app, client, user))[1] for _ in range(3)]  # under the local key
    env = softhsm.env(settings)
    created = cli(env, "keys", "create")
    assert created.returncode == 0, created.stderr
    assert "in the token" in created.stdout and "kcv 08D7B4" in created.stdout
    other_cvk = {**env, "CARDSERVICE_CVK": "11111111111111112222222222222222"}
    refused = cli(other_cvk, "keys", "create")
    assert refused.returncode == 2 and "another CVK" in refused.stderr
    checked = cli(env, "keys", "check")
    assert checked.returncode == 0 and "3 stored values read (card 3," in checked.stdout
    fingerprints = "SELECT uuid, pan_fingerprint FROM cards ORDER BY uuid"
    before = [tuple(row) for row in await app.state.db.reader.rows(fingerprints)]
    rotated = cli(env, "keys", "rotate", "--batch", "2")
    assert rotated.returncode == 0, rotated.stderr
    stored = await app.state.db.reader.rows("SELECT pan_ciphertext FROM cards ORDER BY uuid")
    assert len(stored) == 3 and all(bytes(r[0]).startswith(PREFIX) for r in stored)
    generations = {bytes(r[0]).split(b":")[1] for r in stored}
    assert len(generations) == 1  # all under the newest generation
    # the token alone now reads them: no local key given
    token_only = {**env, "CARDSERVICE_ENCRYPTION_KEY": ""}
    checked = cli(token_only, "keys", "check")
    assert checked.returncode == 0, checked.stderr
    assert "3 stored values read (card 3," in checked.stdout
    # the local backend alone cannot any more: check says so
    local = cli({**env, "CARDSERVICE_KEY_BACKEND": "local"}, "keys", "check")
    first = await app.state.db.reader.value("SELECT uuid FROM cards ORDER BY uuid")
    assert (
        local.returncode == 2
        and f"card {uuid.UUID(str(first))}: its value does not read" in local.stderr
    )
    # a resumed rotation moves nothing
    resumed = cli(env, "keys", "rotate", "--resume")
    assert resumed.returncode == 0 and resumed.stdout.strip() == "0"
    # the same three cards, each still found by its number's fingerprint
    after = [tuple(row) for row in await app.state.db.reader.rows(fingerprints)]
    assert after == before
    assert {uuid.UUID(str(card_uuid)) for card_uuid, _ in after} == {uuid.UUID(c) for c in cards}

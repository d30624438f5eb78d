"""A physical card's PIN (docs/cards.md#the-pin): the PIN key, setting a PIN through its
RSA-OAEP envelope with a step-up, the weak-PIN rules, single-use nonces, only a Visa PVV kept,
and the check of a network PIN block against it — on both databases and both key backends.
PVVs and PIN blocks here come from `psec`, an implementation independent of the service's."""

from __future__ import annotations

import base64
import json
import re
import secrets
import uuid
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from fastapi import FastAPI
from psec.des import encrypt_tdes_ecb
from psec.pin import generate_visa_pvv
from psec.pinblock import encode_pinblock_iso_0

from cardservice.cards.pin import pin_matches
from cardservice.config import Settings
from cardservice.http.router import dumps
from tests.cards.test_physical import physical_card
from tests.conftest import TEST_PVK
from tests.factories import ISSUED_SECRETS, Caller, make_card, make_mfa_code, make_user
from tests.softhsm import SoftHsm

TEST_ZPK = "0123456789ABCDEFFEDCBA987654321089ABCDEF01234567"
OAEP = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)
PIN = "730591"


@pytest.fixture(params=["local", "pkcs11"])
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """Every test twice: keys local, and keys in this run's SoftHSM2 token."""
    keyed = settings.model_copy(update={"iso8583_zpk": TEST_ZPK})
    if request.param == "local":
        return keyed
    softhsm: SoftHsm = request.getfixturevalue("softhsm")
    return softhsm.settings(keyed)


async def pin_key(client: httpx.AsyncClient, user: Caller) -> tuple[str, rsa.RSAPublicKey]:
    response = await client.get("/card/pin-key", headers=user.headers)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    public = serialization.load_pem_public_key(data["public_key_pem"].encode())
    assert isinstance(public, rsa.RSAPublicKey) and public.key_size == 2048
    return data["key_id"], public


def envelope(public: rsa.RSAPublicKey, pin: str, nonce: str | None = None) -> str:
    body = dumps({"pin": pin, "nonce": nonce or secrets.token_hex(12)})
    return base64.b64encode(public.encrypt(body, OAEP)).decode()


async def put_pin(
    app: FastAPI, client: httpx.AsyncClient, user: Caller, card: str, **body: Any
) -> httpx.Response:
    key_id, public = await pin_key(client, user)
    sent = {
        "key_id": key_id,
        "encrypted_pin": envelope(public, PIN),
        "mfa_code": await make_mfa_code(app, user),
        **body,
    }
    return await client.put(
        f"/card/{card}/pin",
        content=dumps(sent),
        headers={**user.headers, "Content-Type": "application/json"},
    )


async def stored(app: FastAPI, card: str) -> tuple[str, str | None, bool]:
    """The card's number (decrypted by the service's key), PVV and PIN block flag."""
    row = await app.state.db.reader.row(
        "SELECT pan_ciphertext, pin_pvv, pin_blocked FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    pan = app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))
    ISSUED_SECRETS.append(pan)
    return pan, row["pin_pvv"], bool(row["pin_blocked"])


def visa_pvv(pin: str, pan: str) -> str:
    """The PVV psec computes under the tests' PVK (A‖B‖A) from the PIN's first 4 digits."""
    pvk = bytes.fromhex(TEST_PVK)
    return generate_visa_pvv(pvk + pvk[:8], "1", pin[:4], pan)


def pin_block(pin: str, pan: str, zpk: str = TEST_ZPK) -> str:
    """Field 52 as an acquirer sends it: format 0 under the zone PIN key (psec)."""
    return encrypt_tdes_ecb(bytes.fromhex(zpk), encode_pinblock_iso_0(pin, pan)).hex().upper()


async def test_the_holder_sets_a_pin_and_only_its_visa_pvv_is_kept(
    app: FastAPI, client: httpx.AsyncClient, log_capture: list[str]
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    lines_before = len(log_capture)
    key_id, public = await pin_key(client, user)
    assert (await pin_key(client, user))[0] == key_id  # the same key until it is rotated
    code, sealed = await make_mfa_code(app, user), envelope(public, PIN)
    response = await client.put(
        f"/card/{card}/pin",
        content=dumps({"key_id": key_id, "encrypted_pin": sealed, "mfa_code": code}),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.text
    assert response.headers["cache-control"] == "no-store"
    record = response.json()["data"]
    assert record["pin_set"] is True and record["pin_blocked"] is False
    pan, pvv, _blocked = await stored(app, card)
    assert pvv == visa_pvv(PIN, pan)
    events = await app.state.db.reader.rows(
        "SELECT type, data FROM events WHERE object_uuid = $1 ORDER BY id", uuid.UUID(card)
    )
    assert events[-1]["type"] == "card.pin.updated"
    audit = await app.state.db.reader.rows("SELECT * FROM audit_log")
    written = str([tuple(r) for r in events]) + str([tuple(r) for r in audit])
    logged = "\n".join(log_capture[lines_before:])
    for text in (written, logged, response.text):
        assert PIN not in text and sealed not in text and "pvv" not in text.lower()
    # the PVV is four digits, which a uuid or a time holds by chance: no value is it
    kept = [row["data"] for row in events] + [v for row in audit for v in tuple(row)]
    assert not any(
        pvv in (_scalars(value) if isinstance(value, str) else {str(value)}) for value in kept
    )
    # the same code again is used up: a step-up serves once
    again = await client.put(
        f"/card/{card}/pin",
        content=dumps(
            {"key_id": key_id, "encrypted_pin": envelope(public, "4815"), "mfa_code": code}
        ),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert (again.status_code, again.json()["code"]) == (403, "step_up_failed")


async def test_weak_pins_are_refused_and_change_nothing(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    key_id, public = await pin_key(client, user)
    code = await make_mfa_code(app, user)
    weak = ["123", "1234567", "1111", "555555", "1234", "9876", "34567", "7890", "12a4", "١٢٣٤"]
    for pin in weak:
        body = {"key_id": key_id, "encrypted_pin": envelope(public, pin), "mfa_code": code}
        response = await client.put(
            f"/card/{card}/pin",
            content=dumps(body),
            headers={**user.headers, "Content-Type": "application/json"},
        )
        assert (response.status_code, response.json()["code"]) == (422, "weak_pin"), pin
        assert pin not in response.text
    assert (await stored(app, card))[1] is None
    # every refusal rolled back: the step-up code is still good
    body = {"key_id": key_id, "encrypted_pin": envelope(public, "2580"), "mfa_code": code}
    response = await client.put(
        f"/card/{card}/pin",
        content=dumps(body),
        headers={**user.headers, "Content-Type": "application/json"},
    )
    assert response.status_code == 200, response.text


async def test_envelopes_that_do_not_open_and_replayed_nonces_are_refused(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    key_id, public = await pin_key(client, user)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key()
    nonce = "n" * 16
    refused = {
        "not base64": {"encrypted_pin": "%%%"},
        "another key": {"encrypted_pin": envelope(other, PIN)},
        "unknown key id": {"key_id": "rsa-0000000000000000"},
        "garbage": {"encrypted_pin": base64.b64encode(b"x" * 256).decode()},
        "short nonce": {"encrypted_pin": envelope(public, PIN, "n" * 15)},
        "not json": {"encrypted_pin": base64.b64encode(public.encrypt(b"1234", OAEP)).decode()},
    }
    for why, body in refused.items():
        response = await put_pin(app, client, user, card, **body)
        assert (response.status_code, response.json()["code"]) == (422, "invalid_pin_block"), why
    first = await put_pin(app, client, user, card, encrypted_pin=envelope(public, PIN, nonce))
    assert first.status_code == 200, first.text
    replayed = await put_pin(app, client, user, card, encrypted_pin=envelope(public, "2580", nonce))
    assert (replayed.status_code, replayed.json()["code"]) == (422, "nonce_reused")
    pan, pvv, _blocked = await stored(app, card)
    assert pvv == visa_pvv(PIN, pan)  # unchanged
    assert key_id.startswith("rsa-")


async def test_only_the_holders_own_physical_card_with_a_bearer_token_and_step_up(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, stranger = await make_user(app), await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    _account, virtual = await make_card(app, client, user)
    assert (await put_pin(app, client, stranger, card)).status_code == 404
    response = await put_pin(app, client, user, virtual)
    assert (response.status_code, response.json()["code"]) == (422, "card_not_physical")
    response = await put_pin(app, client, user, card, mfa_code="wrong-code")
    assert (response.status_code, response.json()["code"]) == (403, "step_up_failed")
    key_id, public = await pin_key(client, user)
    response = await client.put(
        f"/card/{card}/pin",
        params={"_code": await make_mfa_code(app, user)},  # a code as the credential
        content=dumps(
            {
                "key_id": key_id,
                "encrypted_pin": envelope(public, PIN),
                "mfa_code": await make_mfa_code(app, user),
            }
        ),
        headers={"Content-Type": "application/json"},
    )
    assert (response.status_code, response.json()["code"]) == (403, "forbidden")
    assert (await stored(app, card))[1] is None


async def test_a_new_pin_unblocks_and_a_network_pin_block_is_checked_against_the_pvv(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    card = (await physical_card(app, client, user))["uuid"]
    await app.state.db.transact(
        lambda tx: tx.execute(
            "UPDATE cards SET pin_blocked = $2 WHERE uuid = $1", uuid.UUID(card), True
        )
    )
    response = await put_pin(app, client, user, card)
    assert response.status_code == 200, response.text
    assert response.json()["data"]["pin_blocked"] is False
    pan, pvv, blocked = await stored(app, card)
    assert pvv is not None and not blocked
    cipher = app.state.cipher
    assert pin_matches(cipher, pin_block(PIN, pan), pan, pvv)
    assert pin_matches(cipher, pin_block(PIN, pan).lower(), pan, pvv)
    # Visa's PVV reads the first 4 digits of the PIN (docs/cards.md#the-pin)
    assert pin_matches(cipher, pin_block("730500", pan), pan, pvv)
    assert not pin_matches(cipher, pin_block("730691", pan), pan, pvv)
    assert not pin_matches(cipher, pin_block("4815", pan), pan, pvv)
    # a block under another zone key decrypts to noise: a wrong PIN, not an error
    assert not pin_matches(cipher, pin_block(PIN, pan, "11" * 16), pan, pvv)
    assert not pin_matches(cipher, pin_block("73059100", pan), pan, pvv)  # not 4–6 digits
    for malformed in ("", "0" * 15, "0" * 17, "G" * 16, pin_block(PIN, pan) + " "):
        with pytest.raises(ValueError, match="16 hex digits"):
            pin_matches(cipher, malformed, pan, pvv)


async def test_the_tokens_pin_keys_never_leave_it(settings: Settings, app: FastAPI) -> None:
    """pkcs11: the RSA private half and the PVK are sensitive and not extractable; the zone
    PIN key is a session object, never stored on the token."""
    if settings.key_backend != "pkcs11":
        pytest.skip("the local backend keeps its keys in the environment or the key file")
    import pkcs11

    from cardservice.security.pkcs11 import PIN_RSA_LABEL, PVK_LABEL, ZPK_LABEL

    cipher = app.state.cipher
    cipher.clear_pin_block(bytes(8))  # imports the zone PIN key into this session
    with cipher.token.session() as session:
        private = session.get_key(object_class=pkcs11.ObjectClass.PRIVATE_KEY, label=PIN_RSA_LABEL)
        pvk = session.get_key(object_class=pkcs11.ObjectClass.SECRET_KEY, label=PVK_LABEL)
        zpk = session.get_key(object_class=pkcs11.ObjectClass.SECRET_KEY, label=ZPK_LABEL)
        for key in (private, pvk, zpk):
            assert key[pkcs11.Attribute.SENSITIVE] and not key[pkcs11.Attribute.EXTRACTABLE]
        assert not zpk[pkcs11.Attribute.TOKEN] and not zpk[pkcs11.Attribute.ENCRYPT]
        assert not pvk[pkcs11.Attribute.DECRYPT]


def _scalars(text: str | None) -> set[str]:
    """Every value of a JSON text (or the text's words, for one that is not JSON)."""
    if text is None:
        return set()
    try:
        value = json.loads(text)
    except ValueError:
        return set(re.findall(r"[\w.:-]+", text))
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            found.add(str(item))
    return found

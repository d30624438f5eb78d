"""A card found by its number through the fingerprint index (issue 29): the ISO 8583 host
and the ACS endpoint look cards up this way, without decrypting any row."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from cardservice.cards.lookup import card_by_pan
from cardservice.cards.records import card_record
from cardservice.db.sql import Row, Tx
from tests.factories import make_card, make_user


async def _number(app: FastAPI, card: str) -> str:
    ciphertext = await app.state.db.reader.value(
        "SELECT pan_ciphertext FROM cards WHERE uuid = $1", uuid.UUID(card)
    )
    number: str = app.state.cipher.decrypt(bytes(ciphertext))
    return number


async def test_a_card_is_found_by_its_number(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    _account, other = await make_card(app, client, user)
    pan = await _number(app, card)
    found = await card_by_pan(app.state.db.reader, app.state.cipher, pan)
    assert found is not None
    assert uuid.UUID(str(found["owner_uuid"])) == user.uuid
    record = card_record(found)
    assert record["uuid"] == card and record["last4"] == pan[-4:]
    assert await card_by_pan(app.state.db.reader, app.state.cipher, await _number(app, other))
    wrong_digit = pan[:-1] + str((int(pan[-1]) + 1) % 10)
    assert await card_by_pan(app.state.db.reader, app.state.cipher, wrong_digit) is None
    assert await card_by_pan(app.state.db.reader, app.state.cipher, "not a number") is None

    async def locked(tx: Tx) -> Row | None:
        return await card_by_pan(tx, app.state.cipher, pan, for_update=True)

    assert card_record(await app.state.db.transact(locked) or found)["uuid"] == card


async def test_every_card_has_a_fingerprint(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    await make_card(app, client, user)
    missing = await app.state.db.reader.value(
        "SELECT count(*) FROM cards WHERE pan_fingerprint IS NULL OR pan_fingerprint = ''"
    )
    assert missing == 0

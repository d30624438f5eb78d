"""The card-testing guard's entry for a channel that verifies a card outside an
authorization (`card_testing.checked_card`, docs/network.md#card-testing): the same count and freeze
as the ISO 8583 host's (tests/network/test_card_testing.py)."""

from __future__ import annotations

import uuid

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Row, Tx
from cardservice.models.base import utcnow
from cardservice.transactions import card_testing
from cardservice.transactions.card_testing import Merchant
from tests.factories import make_card, make_user

WALLET = Merchant("00000000042", "WALLET")


async def _checked(app: FastAPI, card: str, failure: str | None) -> str | None:
    async def work(tx: Tx) -> str | None:
        return await card_testing.checked_card(tx, uuid.UUID(card), failure, WALLET, utcnow())

    result: str | None = await app.state.db.transact(work)
    return result


async def _card(app: FastAPI, card: str) -> Row:
    found: Row | None = await app.state.db.reader.row(
        "SELECT status, frozen_reason, verification_failures FROM cards WHERE uuid = $1",
        uuid.UUID(card),
    )
    assert found is not None
    return found


async def test_a_channels_fifth_failure_freezes_the_card_until_its_holder_sets_it_active(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for _ in range(4):
        assert await _checked(app, card, "invalid_cvv2") == "invalid_cvv2"
    assert (await _card(app, card))["status"] == "active"
    assert await _checked(app, card, "invalid_expiry") == "invalid_expiry"
    frozen = await _card(app, card)
    assert (frozen["status"], frozen["frozen_reason"]) == ("frozen", "suspected_fraud")
    assert await _checked(app, card, None) == "suspected_fraud"  # the right details too
    patched = await client.patch(f"/card/{card}", headers=user.headers, json={"status": "active"})
    assert patched.status_code == 200
    assert await _checked(app, card, None) is None
    assert (await _card(app, card))["verification_failures"] is None
    [merchant] = await app.state.db.reader.rows(
        "SELECT acquirer_id, merchant_id, blocked_until FROM card_testing_merchants"
    )
    assert (merchant["acquirer_id"], merchant["merchant_id"]) == (WALLET.acquirer_id, "WALLET")
    assert merchant["blocked_until"] is None  # 5 failures: below the merchant's 10


async def test_a_channel_verified_card_clears_its_count(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for _ in range(4):
        await _checked(app, card, "invalid_cvv2")
    assert await _checked(app, card, None) is None
    for _ in range(4):
        await _checked(app, card, "invalid_cvv2")
    assert (await _card(app, card))["status"] == "active"

"""A card that is not active is never verified, and the declines a stranger can cause are free
(docs/network.md, "Card state before details", "What a decline costs"), over a real TCP
connection: a frozen card answers `62` whatever its expiry and CVV2 say, a closed one `46`,
a provisioning request (`900000`) on a frozen card `62`, nothing counted and nothing charged;
the `card_decline` fee stays for what the rules decline once the details are verified."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import orjson
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.db.sql import Row
from tests.factories import Caller, assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import IssuedCard, Network, issue_card
from tests.tokens.conftest import new_wallet, provision


async def _card(app: FastAPI, card: IssuedCard) -> Row:
    found: Row | None = await app.state.db.reader.row(
        "SELECT status, frozen_reason, verification_failures FROM cards WHERE uuid = $1",
        uuid.UUID(card.uuid),
    )
    assert found is not None
    return found


async def _declined(app: FastAPI, card: IssuedCard) -> list[tuple[str, int]]:
    purchases = await stored_transactions(app, "card_purchase")
    return [
        (t.error_slug, t.fee)
        for t in purchases
        if t.card_uuid == uuid.UUID(card.uuid) and t.status == "declined"
    ]


async def _entries(app: FastAPI, card: IssuedCard) -> int:
    """The journal entries that moved the card's money (a fee is one)."""
    count = await app.state.db.reader.value(
        "SELECT count(DISTINCT entry_id) FROM postings WHERE card_uuid = $1",
        uuid.UUID(card.uuid),
    )
    return int(count)


def _wrong_cvv2(app: FastAPI, card: IssuedCard) -> str:
    return f"{(int(app.state.cipher.cvv2(card.pan, card.expiry)) + 1) % 1000:03d}"


def _counted(card: Row) -> int:
    """How many verification failures the guard holds for the card."""
    stored = card["verification_failures"]
    return len(orjson.loads(stored)) if stored else 0


async def _set_status(
    client: httpx.AsyncClient, user: Caller, card: IssuedCard, status: str
) -> None:
    """The holder's own change (`PATCH /card/{uuid}`)."""
    body = {"status": status}
    changed = await client.patch(f"/card/{card.uuid}", headers=user.headers, json=body)
    assert changed.status_code == 200, changed.text


async def test_a_frozen_card_answers_62_for_right_and_wrong_details_alike(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The frozen-card oracle: before, wrong CVV2 or expiry on a holder-frozen card answered
    `N7`/`54` and the right ones `62`, unlimited and never counted; now all three are `62`,
    no count, no fee."""
    user, card = await issue_card(app, client)
    await _set_status(client, user, card, "frozen")
    before, entries = await balances(app, card.account), await _entries(app, card)
    right, wrong = app.state.cipher.cvv2(card.pan, card.expiry), _wrong_cvv2(app, card)
    tries = [
        messages.authorization(card.pan, "0101", 100, *network.key()),
        messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong),
        messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=right),
    ]
    codes = [(await network.client.request("0100", fields)).fields[39] for fields in tries]
    assert codes == ["62", "62", "62"]
    assert _counted(await _card(app, card)) == 0  # nothing counted
    assert await _declined(app, card) == [("card_frozen", 0)] * 3
    assert await balances(app, card.account) == before
    assert await _entries(app, card) == entries
    await _set_status(client, user, card, "active")  # the holder's way back
    good = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=right)
    assert (await network.client.request("0100", good)).fields[39] == "00"
    await assert_ledger_consistent(app)


async def test_twenty_pipelined_0100s_from_twenty_merchants_cost_a_frozen_card_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The drain: before, 20 pipelined `0100`s from 20 merchants with the right expiry each
    cost the frozen card the `card_decline` fee (57.58 → 47.58 USD), repeatable to zero; now
    20 × `62`, the balance unchanged and no fee entry."""
    user, card = await issue_card(app, client, start_balance="57.58")
    await _set_status(client, user, card, "frozen")
    before, entries = await balances(app, card.account), await _entries(app, card)
    burst = []
    for number in range(20):
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key())
        fields[42] = f"SHOP{number:011d}"
        burst.append(fields)
    answers = await asyncio.gather(*(network.client.request("0100", f) for f in burst))
    assert [answer.fields[39] for answer in answers] == ["62"] * 20
    assert await balances(app, card.account) == before
    assert before[1] == [5758]
    assert await _entries(app, card) == entries
    assert await _declined(app, card) == [("card_frozen", 0)] * 20
    await assert_ledger_consistent(app)


async def test_a_card_frozen_by_the_guard_answers_59_and_a_closed_one_46_whatever_the_details(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    wrong = _wrong_cvv2(app, card)
    # the guard freezes it (API docs/network.md#a-channel-that-can-be-trusted's count, on an active
    # card)
    for _ in range(5):
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
        await network.client.request("0100", fields)
    assert (await _card(app, card))["frozen_reason"] == "suspected_fraud"
    for expiry in ("0101", card.expiry):
        fields = messages.authorization(card.pan, expiry, 100, *network.key())
        assert (await network.client.request("0100", fields)).fields[39] == "59"
    holder, closed = await issue_card(app, client)
    await _set_status(client, holder, closed, "closed")
    for expiry in ("0101", closed.expiry):
        fields = messages.authorization(closed.pan, expiry, 100, *network.key())
        assert (await network.client.request("0100", fields)).fields[39] == "46"
    assert await _declined(app, closed) == [("card_closed", 0)] * 2
    assert _counted(await _card(app, card)) == 5


async def test_provisioning_on_a_frozen_card_answers_62_for_right_and_wrong_cvv2(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The oracle through the token service (`900000`): before, `N7` for a wrong CVV2 and
    `05` for the right one; now `62` for both, nothing counted, no decision kept."""
    user, card = await issue_card(app, client)
    await _set_status(client, user, card, "frozen")
    right = app.state.cipher.cvv2(card.pan, card.expiry)
    tries = ((_wrong_cvv2(app, card), card.expiry), (right, "0101"), (right, card.expiry))
    for cvv2, expiry in tries:
        fields = messages.provisioning(
            card.pan, expiry, *network.key(), reference=new_wallet().reference, cvv2=cvv2
        )
        assert (await network.client.request("0100", fields)).fields[39] == "62"
    assert _counted(await _card(app, card)) == 0
    kept = await app.state.db.reader.value("SELECT count(*) FROM token_provisionings")
    assert kept == 0


async def test_a_dpan_payment_on_a_suspended_token_costs_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """Before, a DPAN payment on a suspended token cost the card 0.50 (`card_decline`); now
    `62` (`token_inactive`) whatever its expiry says, free."""
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    suspended = await client.post(
        f"/card/{card.uuid}/tokens/{wallet.uuid}/suspend", headers=user.headers
    )
    assert suspended.status_code == 200
    before = await balances(app, card.account)
    for expiry in (wallet.expiry, "0101"):
        fields = messages.authorization(wallet.dpan, expiry, 100, *network.key())
        assert (await network.client.request("0100", fields)).fields[39] == "62"
    assert await balances(app, card.account) == before
    assert await _declined(app, card) == [("token_inactive", 0)] * 2
    await assert_ledger_consistent(app)


async def test_the_decline_fee_stays_for_what_the_rules_decline_after_verified_details(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """On an active card, verified details: `51` costs the `card_decline` fee (0.50); a wrong
    expiry (`54`) and a wrong CVV2 (`N7`) stay free and counted, as API
    docs/network.md#a-channel-that-can-be-trusted says."""
    _user, card = await issue_card(app, client, start_balance="10")
    right = app.state.cipher.cvv2(card.pan, card.expiry)
    too_much = messages.authorization(card.pan, card.expiry, 5000, *network.key(), cvv2=right)
    assert (await network.client.request("0100", too_much)).fields[39] == "51"
    wrong_expiry = messages.authorization(card.pan, "0101", 100, *network.key())
    assert (await network.client.request("0100", wrong_expiry)).fields[39] == "54"
    wrong_cvv2 = messages.authorization(
        card.pan, card.expiry, 100, *network.key(), cvv2=_wrong_cvv2(app, card)
    )
    assert (await network.client.request("0100", wrong_cvv2)).fields[39] == "N7"
    assert await _declined(app, card) == [
        ("insufficient_funds", 50), ("invalid_expiry", 0), ("invalid_cvv2", 0)
    ]  # fmt: skip
    assert _counted(await _card(app, card)) == 2
    assert (await balances(app, card.account))[1] == [1000 - 50]
    await assert_ledger_consistent(app)

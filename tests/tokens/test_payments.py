"""Payments with a wallet token's DPAN (docs/network.md#wallet-tokens): resolved to the card through
the vault, then every rule of a card payment; the transaction shows which token paid."""

from __future__ import annotations

from types import SimpleNamespace

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from tests.factories import assert_ledger_consistent, balances, stored_transactions
from tests.network.conftest import Network, issue_card
from tests.tokens.conftest import pay, provision


async def _purchases(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def test_a_dpan_pays_from_its_card_and_the_transaction_shows_the_token(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    _, [before] = await balances(app, card.account)
    stan, sent = network.key()
    fields = messages.authorization(wallet.dpan, wallet.expiry, 2500, stan, sent)
    answer = await network.client.request("0100", fields)
    assert answer.fields[39] == "00" and answer.fields[2] == wallet.dpan
    assert answer.fields[54] == f"0002840C{before - 2500 - 10:012d}"
    assert (await balances(app, card.account))[1] == [before - 2510]
    report = (await client.get("/transaction/report", headers=user.headers)).json()["data"]
    purchase = next(r for r in report if r["amount"] == 25)
    assert purchase["card_uuid"] == card.uuid and purchase["status"] == "pending"
    assert purchase["token"] == {
        "uuid": wallet.uuid, "wallet": "apple_pay", "last4": wallet.dpan[-4:]
    }  # fmt: skip
    assert purchase["network"]["auth_code"] == answer.fields[38]
    earlier = next(r for r in report if r["amount"] == 1)  # the card's own first payment
    assert earlier["token"] is None
    capture = messages.capture_advice(fields, 2500, *network.key())
    assert (await network.client.request("0220", capture)).fields[39] == "00"
    later = messages.authorization(wallet.dpan, wallet.expiry, 700, *network.key())
    assert (await network.client.request("0100", later)).fields[39] == "00"
    reversal = messages.reversal_request(later, *network.key())
    assert (await network.client.request("0400", reversal)).fields[39] == "00"
    statuses = [(t.amount, t.status) for t in await _purchases(app)]
    assert statuses == [(100, "pending"), (2500, "completed"), (700, "reversed")]
    await assert_ledger_consistent(app)


async def test_the_cards_rules_apply_to_its_tokens_payments(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    limited = await client.patch(
        f"/card/{card.uuid}", headers=user.headers,
        json={"spending_controls": {"per_authorization": 5}},
    )  # fmt: skip
    assert limited.status_code == 200
    assert (await pay(network, wallet.dpan, wallet.expiry, 600))[39] == "61"
    assert (await pay(network, wallet.dpan, wallet.expiry, 50_000))[39] in ("61",)
    assert (await pay(network, wallet.dpan, card.expiry, 100))[39] == "54"  # the card's expiry
    frozen = await client.patch(
        f"/card/{card.uuid}", headers=user.headers, json={"status": "frozen"}
    )
    assert frozen.status_code == 200
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "62"
    declined = [t for t in await _purchases(app) if t.status == "declined"]
    assert [t.error_slug for t in declined] == [
        "limit_exceeded", "limit_exceeded", "invalid_expiry", "card_frozen"
    ]  # fmt: skip
    assert all(t.token is not None for t in declined)
    await assert_ledger_consistent(app)


async def test_a_suspended_token_is_62_token_inactive_and_a_deleted_one_14(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    base = f"/card/{card.uuid}/tokens/{wallet.uuid}"
    assert (await client.post(f"{base}/suspend", headers=user.headers)).status_code == 200
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "62"
    [declined] = [t for t in await _purchases(app) if t.status == "declined"]
    assert declined.error_slug == "token_inactive"
    assert declined.fee == 0  # a token's state: a decline a stranger can cause is free
    assert (await client.post(f"{base}/resume", headers=user.headers)).status_code == 200
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "00"
    assert (await client.post(f"{base}/delete", headers=user.headers)).status_code == 200
    count = len(await _purchases(app))
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "14"
    assert len(await _purchases(app)) == count  # nothing recorded
    assert (await pay(network, card.pan, card.expiry, 100))[39] == "00"  # the card still pays
    await assert_ledger_consistent(app)


async def test_a_deleted_tokens_stand_in_advice_is_recorded_on_its_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    base = f"/card/{card.uuid}/tokens/{wallet.uuid}"
    assert (await client.post(f"{base}/delete", headers=user.headers)).status_code == 200
    _, [before] = await balances(app, card.account)
    advice = messages.stand_in(wallet.dpan, wallet.expiry, 400, *network.key())
    answer = await network.client.request("0120", advice)
    assert answer.mti == "0130" and answer.fields[39] == "00"
    [stood_in] = [t for t in await _purchases(app) if t.stand_in]
    assert stood_in.amount == 400 and stood_in.status == "pending"
    assert str(stood_in.card_uuid) == card.uuid
    assert (await balances(app, card.account))[1] == [before - 400 - 10]
    report = (await client.get("/transaction/report", headers=user.headers)).json()["data"]
    shown = next(r for r in report if r["amount"] == 4)
    assert shown["token"] == {"uuid": wallet.uuid, "wallet": "apple_pay", "last4": wallet.dpan[-4:]}
    assert (await pay(network, wallet.dpan, wallet.expiry, 100))[39] == "14"  # still refused
    await assert_ledger_consistent(app)

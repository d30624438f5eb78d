"""Clearing records carrying a wallet token's DPAN (docs/network.md#clearing-files,
docs/network.md#wallet-tokens): real IPM files written by cardutil, the token paid over a real ISO
8583 connection; DE 2 resolves through the vault to the token's card, a deleted token's included."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.representments import represent
from cardservice.clearing import ipm
from cardservice.db.sql import as_uuid, text_uuid
from cardservice.models.base import utcnow
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.factories import Caller, assert_ledger_consistent, balances
from tests.network.conftest import IssuedCard, Network, issue_card
from tests.operator.helpers import operator_key, send
from tests.tokens.conftest import Wallet, provision

FEE = 10  # the card_transaction fee


async def _paid_with_token(network: Network, wallet: Wallet, amount: int) -> str:
    """An 0100 with the DPAN, approved; its approval code (field 38)."""
    fields = messages.authorization(wallet.dpan, wallet.expiry, amount, *network.key())
    answer = await network.client.request("0100", fields)
    assert answer.fields[39] == "00"
    return answer.fields[38]


async def _purchases(app: FastAPI) -> list[dict[str, Any]]:
    rows = await app.state.db.reader.rows(
        "SELECT uuid, card_uuid, status, amount, captured_amount, stand_in, channel"
        " FROM transactions WHERE type = 'card_purchase' ORDER BY created_at, uuid"
    )
    return [
        {**row, "uuid": as_uuid(row["uuid"]), "card_uuid": text_uuid(row["card_uuid"])}
        for row in map(dict, rows)
    ]


async def _shown(client: httpx.AsyncClient, user: Caller, transaction: object) -> dict[str, Any]:
    response = await client.get(f"/transaction/{transaction}", headers=user.headers)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["data"]
    return data


def _token(wallet: Wallet) -> dict[str, str | None]:
    return {"uuid": wallet.uuid, "wallet": "apple_pay", "last4": wallet.dpan[-4:]}


async def _card_balance(app: FastAPI, card: IssuedCard) -> int:
    return (await balances(app, card.account))[1][0]


async def test_a_dpan_presentment_captures_the_tokens_authorization_on_its_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    code = await _paid_with_token(network, wallet, 2500)
    before = await _card_balance(app, card)
    item = presentment(wallet.dpan, 2300, approval_code=code)
    report = report_of(await post_file(client, await operator_key(app), ipm_file("DPAN-1", [item])))
    assert report["presentments"] == {"matched": 1, "duplicates": 0, "force_posted": 0}
    assert report["unmatched"] == []
    first, paid = await _purchases(app)  # the card's own first payment, then the token's
    assert paid["card_uuid"] == card.uuid and paid["status"] == "completed"
    assert paid["captured_amount"] == 2300 and not paid["stand_in"]
    assert first["status"] == "pending"  # the card's own payment is not this code's
    assert await _card_balance(app, card) == before + 200  # the rest of the hold released
    shown = await _shown(client, user, paid["uuid"])
    assert shown["token"] == _token(wallet) and shown["network"]["auth_code"] == code
    assert shown["clearing"]["message_number"] == item.message_number
    await assert_ledger_consistent(app)


async def test_a_dpan_presentment_without_authorization_is_force_posted_showing_the_token(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    before = await _card_balance(app, card)
    item = presentment(wallet.dpan, 1500, approval_code="NOAUTH")
    report = report_of(await post_file(client, await operator_key(app), ipm_file("DPAN-2", [item])))
    assert report["presentments"] == {"matched": 0, "duplicates": 0, "force_posted": 1}
    _first, posted = await _purchases(app)
    assert posted["card_uuid"] == card.uuid and posted["status"] == "completed"
    assert posted["stand_in"] and posted["channel"] == "clearing"
    assert await _card_balance(app, card) == before - 1500 - FEE
    shown = await _shown(client, user, posted["uuid"])
    assert shown["token"] == _token(wallet)
    await assert_ledger_consistent(app)


async def test_a_deleted_tokens_presentments_are_still_booked_on_its_card(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The network charged the card: a deleted token stops new authorizations (`14`), not
    the settlement of what it paid or what the network presents with it."""
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    code = await _paid_with_token(network, wallet, 4000)
    deleted = await client.post(
        f"/card/{card.uuid}/tokens/{wallet.uuid}/delete", headers=user.headers
    )
    assert deleted.status_code == 200 and deleted.json()["data"]["status"] == "deleted"
    before = await _card_balance(app, card)
    held = presentment(wallet.dpan, 4000, approval_code=code)
    unasked = presentment(wallet.dpan, 700, approval_code="NOAUTH")
    body = ipm_file("DPAN-DELETED", [held, unasked])
    report = report_of(await post_file(client, await operator_key(app), body))
    assert report["presentments"] == {"matched": 1, "duplicates": 0, "force_posted": 1}
    assert report["unmatched"] == []
    _first, paid, posted = await _purchases(app)
    assert [row["card_uuid"] for row in (paid, posted)] == [card.uuid, card.uuid]
    assert (paid["status"], paid["captured_amount"]) == ("completed", 4000)
    assert (posted["status"], posted["captured_amount"]) == ("completed", 700)
    assert await _card_balance(app, card) == before - 700 - FEE
    for transaction in (paid, posted):
        assert (await _shown(client, user, transaction["uuid"]))["token"] == _token(wallet)
    await assert_ledger_consistent(app)


async def test_a_purchase_paid_with_a_token_is_charged_back_with_its_dpan(
    app: FastAPI, client: httpx.AsyncClient, network: Network, tmp_path: Path
) -> None:
    """DE 2 of the chargeback is the number the purchase was presented with (the DPAN): the
    card's own number appears nowhere in the outgoing file (docs/disputes.md#the-outgoing-file),
    and the acquirer's answer, carrying the DPAN, is matched by the ARN."""
    user, card = await issue_card(app, client)
    wallet = await provision(app, network, card)
    code = await _paid_with_token(network, wallet, 3100)
    arn = "74000006331012345678901"
    item = presentment(wallet.dpan, 3100, approval_code=code, arn=arn)
    key = await operator_key(app, "network")
    assert report_of(await post_file(client, key, ipm_file("DPAN-CB", [item])))["unmatched"] == []
    _first, paid = await _purchases(app)
    opened = await client.post(
        "/disputes", headers=user.headers,
        json={"transaction_uuid": str(paid["uuid"]), "reason": "fraudulent"},
    )  # fmt: skip
    assert opened.status_code == 201, opened.text
    dispute = opened.json()["data"]
    assert dispute["arn"] == arn
    day = utcnow().date()
    written = await send(client, "POST", "/operator/clearing-outgoing", key, {"date": str(day)})
    assert written.status_code == 200, written.text
    [chargeback] = list(ipm.messages(io.BytesIO(written.content)))[1:-1]
    assert (chargeback["DE2"], chargeback["DE31"], chargeback["DE4"]) == (wallet.dpan, arn, 3100)
    assert card.pan.encode(ipm.ENCODING) not in written.content
    assert card.pan.encode() not in written.content
    outgoing, answer = tmp_path / "out.ipm", tmp_path / "answer.ipm"
    outgoing.write_bytes(written.content)
    assert represent(outgoing, answer, share=1.0, seed=1) == 1
    [second] = list(ipm.messages(io.BytesIO(answer.read_bytes())))[1:-1]
    assert second["DE2"] == wallet.dpan
    report = report_of(await post_file(client, key, answer.read_bytes()))
    assert report["representments"]["received"] == 1
    shown = await client.get(f"/disputes/{dispute['uuid']}", headers=user.headers)
    assert shown.json()["data"]["status"] == "representment_received"
    await assert_ledger_consistent(app)

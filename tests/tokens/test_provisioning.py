"""Provisioning decisions and token notices over a real TCP client
(docs/network.md#wallet-tokens)."""

from __future__ import annotations

import httpx
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.network.codec import with_sub_elements
from tests.network.conftest import Network, issue_card
from tests.tokens.conftest import (
    decide,
    first_payment,
    new_wallet,
    notify,
    token_row,
    tokens_of,
)


async def _decisions(app: FastAPI) -> list[tuple[str, str]]:
    rows = await app.state.db.reader.rows(
        "SELECT decision, decided_by FROM token_provisionings ORDER BY created_at"
    )
    return [(decision, by) for decision, by in rows]


async def _count(app: FastAPI, table: str) -> int:
    return int(await app.state.db.reader.value(f"SELECT count(*) FROM {table}") or 0)


async def test_a_card_that_paid_before_is_approved_and_its_token_listed(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    wallet = new_wallet()
    assert await decide(network, card, wallet) == "00"
    assert await _decisions(app) == [("approve", "rules")]
    assert await notify(network, card, wallet, device_name="Ana's iPhone") == "00"
    [token] = await tokens_of(client, user.headers, card.uuid)
    assert token["wallet"] == "apple_pay" and token["device_name"] == "Ana's iPhone"
    assert token["status"] == "active" and token["last4"] == wallet.dpan[-4:]
    assert token["card_uuid"] == card.uuid
    [stored] = await app.state.db.reader.rows(
        "SELECT dpan_ciphertext, dpan_fingerprint FROM card_tokens"
    )
    assert wallet.dpan.encode() not in stored["dpan_ciphertext"]
    assert app.state.cipher.decrypt(stored["dpan_ciphertext"]) == wallet.dpan
    assert stored["dpan_fingerprint"] == app.state.cipher.fingerprint(wallet.dpan)


async def test_a_repeated_notice_is_answered_again_and_records_one_token(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    await first_payment(network, card)
    wallet = new_wallet()
    assert await decide(network, card, wallet) == "00"
    fields = messages.token_created(
        card.pan, wallet.dpan, wallet.expiry, *network.key(), reference=wallet.reference
    )
    first = await network.client.request("0620", fields)
    again = await network.client.request("0621", fields)
    assert first.fields[39] == again.fields[39] == "00"
    assert await notify(network, card, wallet) == "00"  # the same token told again
    assert await _count(app, "card_tokens") == 1


async def test_a_high_risk_score_steps_up_with_an_activation_code_for_the_holder(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    await first_payment(network, card)
    wallet = new_wallet()
    assert await decide(network, card, wallet, risk=4, wallet="GP") == "85"
    codes = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    [code] = [c for c in codes if c["merchant_name"] == "Google Pay"]
    assert code["amount"] == 0 and code["card_uuid"] == card.uuid and len(code["code"]) == 6
    assert await notify(network, card, wallet, wallet="GP") == "00"
    assert await token_row(app, wallet.reference) == "requires_activation"
    wrong = "000000" if code["code"] != "000000" else "111111"
    answer = await network.client.request(
        "0620", messages.token_activation(wallet.reference, wrong, *network.key())
    )
    assert answer.fields[39] == "63"
    assert await token_row(app, wallet.reference) == "requires_activation"
    answer = await network.client.request(
        "0620", messages.token_activation(wallet.reference, code["code"], *network.key())
    )
    assert answer.fields[39] == "00"
    assert await token_row(app, wallet.reference) == "active"
    codes = (await client.get("/user/3ds-unassigned", headers=user.headers)).json()["data"]
    assert [c for c in codes if c["merchant_name"] == "Google Pay"] == []  # used up


async def test_a_card_never_approved_steps_up_and_risk_five_too(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    assert await decide(network, card, new_wallet()) == "85"
    await first_payment(network, card)
    assert await decide(network, card, new_wallet(), risk=5) == "85"
    assert await decide(network, card, new_wallet(), risk=3) == "00"
    assert await _decisions(app) == [
        ("step_up", "rules"),
        ("step_up", "rules"),
        ("approve", "rules"),
    ]


async def test_a_frozen_or_single_use_card_is_declined_and_its_notice_refused(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    response = await client.patch(
        f"/card/{card.uuid}", json={"status": "frozen"}, headers=user.headers
    )
    assert response.status_code == 200
    wallet = new_wallet()
    assert await decide(network, card, wallet) == "62"  # its state, no decision taken
    assert await notify(network, card, wallet) == "25"
    assert await _count(app, "token_provisionings") == 0
    _other, single = await issue_card(app, client, card_type="single_use")
    assert await decide(network, single, new_wallet()) == "05"
    assert await _count(app, "card_tokens") == 0


async def test_card_verification_is_an_authorizations(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    assert await decide(network, card, new_wallet(), cvv2="000") in ("N7",)
    wrong_expiry = {**card.__dict__, "expiry": "2001"}
    assert await decide(network, type(card)(**wrong_expiry), new_wallet()) == "54"
    unknown = type(card)(**{**card.__dict__, "pan": "4242424242424242"})
    assert await decide(network, unknown, new_wallet()) == "14"
    assert await _count(app, "token_provisionings") == 0


async def test_missing_wallet_fields_or_an_unknown_wallet_are_a_format_error(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    fields = messages.provisioning(card.pan, card.expiry, *network.key(), reference="R1")
    for dropped in ("70", "71", "72", "73", "76"):
        elements = {"70": "40010030273", "71": "AP", "72": "Pixel", "73": "1", "76": "R1"}
        del elements[dropped]
        fields = {**fields, 11: network.key()[0], 48: with_sub_elements(elements)}
        assert (await network.client.request("0100", fields)).fields[39] == "30", dropped
    assert await decide(network, card, new_wallet(), wallet="XX") == "30"
    assert await _count(app, "token_provisionings") == 0
    assert await _count(app, "network_messages") == 0


async def test_a_bad_dpan_is_refused_with_30_and_nothing_is_recorded(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    _other_user, other = await issue_card(app, client)
    await first_payment(network, card)
    wallet = new_wallet()
    assert await decide(network, card, wallet) == "00"
    not_luhn = wallet.dpan[:-1] + str((int(wallet.dpan[-1]) + 1) % 10)
    for dpan in (not_luhn, card.pan, other.pan, "12345"):
        fields = messages.token_created(
            card.pan, dpan, wallet.expiry, *network.key(), reference=wallet.reference
        )
        assert (await network.client.request("0620", fields)).fields[39] == "30"
    assert await _count(app, "card_tokens") == 0
    answered = await app.state.db.reader.value(
        "SELECT count(*) FROM network_messages WHERE mti_class = '062'"
    )
    assert answered == 0
    assert await notify(network, card, wallet) == "00"  # the right DPAN still goes in


async def test_a_notice_for_a_reference_never_decided_is_25(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    _user2, other = await issue_card(app, client)
    await first_payment(network, card)
    wallet = new_wallet()
    assert await notify(network, card, wallet) == "25"
    assert await decide(network, card, wallet) == "00"
    assert await notify(network, other, wallet) == "25"  # decided for another card
    answer = await network.client.request(
        "0620", messages.token_activation("NEVER-DECIDED", "123456", *network.key())
    )
    assert answer.fields[39] == "25"
    assert await _count(app, "card_tokens") == 0

"""0800 and 0100 over a real TCP connection to a real listener
(docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

import asyncio
import uuid
from types import SimpleNamespace

import httpx
import orjson
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.network.codec import encode
from tests.dashboard.session import sign_in
from tests.factories import (
    assert_ledger_consistent,
    balances,
    set_fee_override,
    stored_transactions,
)
from tests.network.conftest import Network, issue_card


async def _transactions(app: FastAPI) -> list[SimpleNamespace]:
    return await stored_transactions(app, "card_purchase")


async def test_echo_sign_on_and_sign_off_answer_00(network: Network) -> None:
    for code in ("001", "301", "002"):
        answer = await network.client.request("0800", messages.echo(*network.key(), code=code))
        assert answer.mti == "0810" and answer.fields[39] == "00" and answer.fields[70] == code


async def test_approved_authorization_holds_and_shows_the_network(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    stan, sent = network.key()
    fields = messages.authorization(card.pan, card.expiry, 1250, stan, sent)
    answer = await network.client.request("0100", fields)
    assert answer.mti == "0110" and answer.fields[39] == "00"
    for echoed in (2, 3, 4, 7, 11, 32, 37, 41, 42, 49):
        assert (
            answer.fields[echoed] == fields[echoed].rjust(len(answer.fields[echoed]), "0")
            or answer.fields[echoed].strip() == fields[echoed]
        )
    assert len(answer.fields[38]) == 6
    assert answer.fields[54] == f"0002840C{10000 - 1250 - 10:012d}"
    assert await balances(app, card.account) == (100000 - 10000 - 200 - 150, [10000 - 1260])
    record = (await client.get("/transaction/report", headers=user.headers)).json()["data"]
    purchase = next(r for r in record if r["type"] == "card_purchase")
    assert purchase["status"] == "pending" and purchase["amount"] == 12.5
    assert purchase["channel"] == "iso8583" and purchase["tag"] == "netflix"
    assert purchase["merchant"] == {
        "name": "Netflix",
        "mcc": "5815",
        "country": "US",
        "city": "Los Gatos",
    }
    assert purchase["network"] == {
        "stan": stan, "rrn": fields[37], "acquirer_id": "123456", "terminal_id": "TERM0001",
        "merchant_id": "MERCHANT0000001", "auth_code": answer.fields[38],
    }  # fmt: skip
    await assert_ledger_consistent(app)


async def test_unknown_card_is_14_and_nothing_is_recorded(app: FastAPI, network: Network) -> None:
    fields = messages.authorization("4000001234567899", "3012", 100, *network.key())
    answer = await network.client.request("0100", fields)
    assert answer.fields[39] == "14" and 38 not in answer.fields
    assert await _transactions(app) == []
    assert await app.state.db.reader.value("SELECT count(*) FROM network_messages") == 0


async def test_wrong_expiry_is_54_invalid_expiry(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, "0101", 100, *network.key())
    )
    assert answer.fields[39] == "54" and 38 not in answer.fields
    [declined] = await _transactions(app)
    assert declined.status == "declined" and declined.error_slug == "invalid_expiry"
    assert orjson.loads(declined.network or "null")["auth_code"] is None
    await assert_ledger_consistent(app)


async def test_insufficient_funds_is_51_with_the_available_balance(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 10_000, *network.key())
    )
    assert answer.fields[39] == "51"
    assert answer.fields[54] == f"0002840C{10000 - 50:012d}"  # the decline fee was taken


async def test_the_users_fee_overrides_price_its_iso_answers(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The unit's first statement reads the card with every fee override of its user (a row
    each): the approval and the decline are priced as the sandbox prices them."""
    user, card = await issue_card(app, client)
    await set_fee_override(app, user, "card_transaction", "fixed", 25)
    await set_fee_override(app, user, "card_decline", "fixed", 75)
    approved = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 1250, *network.key())
    )
    assert approved.fields[39] == "00"
    assert approved.fields[54] == f"0002840C{10000 - 1250 - 25:012d}"
    declined = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 10_000, *network.key())
    )
    assert declined.fields[39] == "51"
    assert declined.fields[54] == f"0002840C{10000 - 1250 - 25 - 75:012d}"
    fees = sorted(row.fee for row in await _transactions(app))
    assert fees == [25, 75]
    assert (await balances(app, card.account))[1] == [10000 - 1250 - 25 - 75]
    await assert_ledger_consistent(app)


async def test_each_decline_reason_has_its_response_code(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    blocked = await client.patch(
        f"/card/{card.uuid}", headers=user.headers,
        json={"spending_controls": {"per_authorization": 5, "blocked_countries": ["FR"]}},
    )  # fmt: skip
    assert blocked.status_code == 200, blocked.text
    cases = [
        (messages.authorization(card.pan, card.expiry, 600, *network.key()), "61"),
        (messages.authorization(card.pan, card.expiry, 100, *network.key(), country="FR"), "57"),
        (
            messages.authorization(
                card.pan, card.expiry, 100, *network.key(), three_ds_code="123456"
            ),
            "63",
        ),
        (messages.authorization(card.pan, card.expiry, 100, *network.key(), currency="AED"), "12"),
    ]
    for fields, code in cases:
        assert (await network.client.request("0100", fields)).fields[39] == code
    frozen = await client.patch(
        f"/card/{card.uuid}", headers=user.headers, json={"status": "frozen"}
    )
    assert frozen.status_code == 200
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "62"
    await client.patch(f"/card/{card.uuid}", headers=user.headers, json={"status": "closed"})
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "46"
    await assert_ledger_consistent(app)


async def test_a_repeat_and_an_0101_get_the_first_answer_and_move_nothing(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    fields = messages.authorization(card.pan, card.expiry, 1000, *network.key())
    first = await network.client.request("0100", fields)
    again = await network.client.request("0100", fields)
    repeat = await network.client.request("0101", fields)
    assert first.fields[39] == "00" and again.fields == first.fields
    assert repeat.mti == "0110" and repeat.fields == first.fields
    assert await balances(app, card.account) == (100000 - 10350, [10000 - 1010])
    assert len(await _transactions(app)) == 1


async def test_pipelined_duplicates_on_one_socket_move_money_once(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    fields = messages.authorization(card.pan, card.expiry, 1000, *network.key())
    answers = await asyncio.gather(*(network.client.request("0100", fields) for _ in range(5)))
    assert {a.fields[38] for a in answers} == {answers[0].fields[38]}
    assert len(await _transactions(app)) == 1
    await assert_ledger_consistent(app)


async def test_a_pipelined_burst_on_one_card_never_overspends(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client, start_balance="75.70")  # 7 × (10.00 + 0.10) + 5
    burst = [messages.authorization(card.pan, card.expiry, 1000, *network.key()) for _ in range(20)]
    answers = await asyncio.gather(*(network.client.request("0100", fields) for fields in burst))
    codes = [answer.fields[39] for answer in answers]
    assert codes.count("00") == 7 and codes.count("51") == 13
    assert {a.fields[11] for a in answers} == {f[11] for f in burst}  # each matched by key
    await assert_ledger_consistent(app)


async def test_format_errors_are_answered_30(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    missing_expiry = messages.authorization(card.pan, card.expiry, 100, *network.key())
    del missing_expiry[14]
    letters = messages.authorization(card.pan, card.expiry, 100, *network.key())
    letters[4] = "00000000012A"
    bad_code = messages.echo(*network.key(), code="999")
    for mti, fields in (("0100", missing_expiry), ("0100", letters), ("0800", bad_code)):
        answer = await network.client.request(mti, fields)
        assert answer.mti == str(int(mti) + 10).rjust(4, "0") and answer.fields[39] == "30"
    assert await _transactions(app) == []


async def test_an_unreadable_frame_closes_only_its_connection(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    bad = await network.connect()
    unknown = await network.connect()
    bad.send_raw(b"\x00\xffnot iso 8583")
    unknown.send_raw(encode("0200", {3: "000000", 7: "1124120000", 11: "000001"}))
    await asyncio.wait_for(bad.reading, 5)
    await asyncio.wait_for(unknown.reading, 5)
    assert bad.closed and unknown.closed
    answer = await network.client.request("0800", messages.echo(*network.key()))
    assert answer.fields[39] == "00"
    await bad.close()
    await unknown.close()


async def test_the_pan_never_reaches_the_logs(
    app: FastAPI, client: httpx.AsyncClient, network: Network, log_capture: list[str]
) -> None:
    _user, card = await issue_card(app, client)
    fields = messages.authorization(card.pan, card.expiry, 100, *network.key())
    fields[4] = "ABC"  # a format error is logged, with the masked PAN
    await network.client.request("0100", fields)
    assert not any(card.pan in line for line in log_capture)
    assert any(f"{card.pan[:6]}" in line and card.pan[-4:] in line for line in log_capture)


async def test_an_unknown_merchant_name_has_no_tag(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    fields = messages.authorization(
        card.pan, card.expiry, 100, *network.key(), merchant="Corner Shop 42"
    )
    assert (await network.client.request("0100", fields)).fields[39] == "00"
    [purchase] = await _transactions(app)
    assert purchase.tag_slug is None and purchase.merchant_name == "Corner Shop 42"
    assert purchase.channel == "iso8583" and uuid.UUID(str(purchase.uuid))


async def test_cvv2_of_48_92_is_checked_against_the_issuer_keys(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    cvv2 = app.state.cipher.cvv2(card.pan, card.expiry)
    wrong = f"{(int(cvv2) + 1) % 1000:03d}"
    right = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=cvv2)
    assert (await network.client.request("0100", right)).fields[39] == "00"
    mismatch = messages.authorization(card.pan, card.expiry, 100, *network.key(), cvv2=wrong)
    answer = await network.client.request("0100", mismatch)
    assert answer.fields[39] == "N7" and 38 not in answer.fields
    statuses = sorted((p.status, p.error_slug) for p in await _transactions(app))
    assert statuses == [("declined", "invalid_cvv2"), ("pending", None)]
    # What is kept of the network is a fixed set of fields, and 48 as sent (its 92 and the
    # CVV2) is in no column; a bare three-digit search would match a STAN or an RRN by chance.
    for kept in await _transactions(app):
        network = orjson.loads(kept.network)
        assert set(network) == {
            "stan", "rrn", "acquirer_id", "terminal_id", "merchant_id", "auth_code"
        }  # fmt: skip
        assert cvv2 not in network.values() and wrong not in network.values()
        assert all(sent[48] not in str(vars(kept)) for sent in (right, mismatch))
    await assert_ledger_consistent(app)


async def test_a_merchant_locked_card_binds_to_the_merchant_id_of_42(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client, card_type="merchant_locked")
    first = messages.authorization(card.pan, card.expiry, 100, *network.key())
    assert (await network.client.request("0100", first)).fields[39] == "00"
    other = messages.authorization(card.pan, card.expiry, 100, *network.key())
    other[42] = "ANOTHERSHOP0001"
    assert (await network.client.request("0100", other)).fields[39] == "57"


async def test_the_dashboard_shows_the_network_data(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    user, card = await issue_card(app, client)
    fields = messages.authorization(card.pan, card.expiry, 100, *network.key())
    answer = await network.client.request("0100", fields)
    await sign_in(client, user)
    page = (await client.get("/app/transactions", params={"type": "card_purchase"})).text
    assert f"STAN {fields[11]}" in page and f"auth {answer.fields[38]}" in page
    assert "terminal TERM0001" in page and card.pan not in page


async def test_a_card_replaced_as_lost_answers_41_and_as_stolen_43(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """docs/network.md#the-network-interface-iso-8583/docs/operations.md#running-a-program: a card
    closed by its replacement as lost or stolen answers 41 / 43; the declined purchase keeps
    `card_closed`; a card closed otherwise still answers 46."""
    user, card = await issue_card(app, client)
    lost = await client.post(
        f"/card/{card.uuid}/replace", headers=user.headers, json={"reason": "lost"}
    )
    assert lost.status_code == 201, lost.text
    answer = await network.client.request(
        "0100", messages.authorization(card.pan, card.expiry, 100, *network.key())
    )
    assert answer.mti == "0110" and answer.fields[39] == "41"
    declined = [t for t in await _transactions(app) if t.status == "declined"]
    assert [t.error_slug for t in declined] == ["card_closed"]
    user2, stolen_card = await issue_card(app, client)
    stolen = await client.post(
        f"/card/{stolen_card.uuid}/replace", headers=user2.headers, json={"reason": "stolen"}
    )
    assert stolen.status_code == 201, stolen.text
    answer = await network.client.request(
        "0100", messages.authorization(stolen_card.pan, stolen_card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "43"
    user3, damaged_card = await issue_card(app, client)
    damaged = await client.post(
        f"/card/{damaged_card.uuid}/replace", headers=user3.headers, json={"reason": "damaged"}
    )
    assert damaged.status_code == 201, damaged.text
    answer = await network.client.request(
        "0100", messages.authorization(damaged_card.pan, damaged_card.expiry, 100, *network.key())
    )
    assert answer.fields[39] == "46"
    await assert_ledger_consistent(app)

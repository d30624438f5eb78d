"""A PIN on the network (docs/cards.md#pin-in-iso-8583): field 52 checked against the card's PVV,
the try counter (`55`, the third wrong in a row `75` and the PIN blocked until a new one is set,
a right PIN resetting the count), field 22's card-present entry modes with a virtual card's own
number (`57`), ATM withdrawals (`01xxxx`, the PIN required, the `card_atm` fee, `atm_per_day`) and
`cardservice network send --pin/--entry-mode/--atm`, on both databases. Every PIN block here is
built by `psec` under the tests' ZPK, an implementation independent of the service's; no PIN or
block reaches a log line."""

from __future__ import annotations

import asyncio
import re
import secrets
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from psec.des import encrypt_tdes_ecb

from cardservice.acquirer import messages
from cardservice.cli.network import Send, request_fields
from cardservice.config import Settings
from cardservice.models.base import utcnow
from cardservice.network.codec import Message
from cardservice.network.fields import ATM_MCC, WITHDRAWAL
from cardservice.network.listener import running_listener
from cardservice.transactions import (
    Authorization,
    Presentation,
    authorize_card,
    card_testing,
    purchase_arn,
    sweep_expired_holds,
)
from tests.cards.test_physical import physical_card, post, step
from tests.cards.test_pin import PIN, TEST_ZPK, pin_block, put_pin, visa_pvv
from tests.cli.test_cli import Command
from tests.factories import ISSUED_SECRETS, Caller, assert_ledger_consistent, balances, make_user
from tests.network.conftest import IssuedCard, Network, issue_card
from tests.snapshot import database_rows
from tests.softhsm import SoftHsm
from tests.teams.team import call, make_team, set_budget

WRONG = "481526"  # its first four digits differ: the PVV reads those


@pytest.fixture
def settings(settings: Settings, request: pytest.FixtureRequest) -> Settings:
    """The zone PIN key the network shares with the issuer; local keys, or (a test marked
    `keys="pkcs11"`) keys in this run's SoftHSM2 token, where the PIN block is decrypted and
    the PVV computed."""
    keyed = settings.model_copy(update={"iso8583_zpk": TEST_ZPK})
    if getattr(request, "param", "local") == "local":
        return keyed
    softhsm: SoftHsm = request.getfixturevalue("softhsm")
    return softhsm.settings(keyed)


@pytest.fixture(autouse=True)
def no_pin_in_the_logs(log_capture: list[str]) -> Iterator[None]:
    """The PINs and (through ISSUED_SECRETS, for the session's scan) the blocks of each test."""
    start = len(log_capture)
    yield
    lines = "\n".join(log_capture[start:])
    assert PIN not in lines and WRONG not in lines


@dataclass
class PinnedCard:
    user: Caller
    card: IssuedCard


async def pinned_card(
    app: FastAPI, client: httpx.AsyncClient, pin: bool = True, user: Caller | None = None
) -> PinnedCard:
    """An activated physical card (of `user`, else a new user) with 10.00 USD on it and, when
    `pin`, its holder's PIN set."""
    user = user or await make_user(app)
    record = await physical_card(app, client, user)
    card_uuid = record["uuid"]
    await step(client, user, card_uuid, "printed")
    await step(client, user, card_uuid, "shipped")
    activated = await post(client, user, f"/card/{card_uuid}/activate", {"last4": record["last4"]})
    assert activated.status_code == 200, activated.text
    if pin:
        response = await put_pin(app, client, user, card_uuid)
        assert response.status_code == 200, response.text
    row = await app.state.db.reader.row(
        "SELECT account_uuid, pan_ciphertext, expiry_year, expiry_month FROM cards WHERE uuid = $1",
        uuid.UUID(card_uuid),
    )
    pan = app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))
    ISSUED_SECRETS.append(pan)
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    account = uuid.UUID(str(row["account_uuid"]))
    return PinnedCard(user, IssuedCard(account, card_uuid, pan, expiry))


SENT_BLOCKS: list[str] = []  # every field 52 this module sent


def block(pin: str, pan: str) -> str:
    sent = pin_block(pin, pan)
    ISSUED_SECRETS.append(sent)
    SENT_BLOCKS.append(sent)
    return sent


async def send(
    network: Network, card: IssuedCard, pin: str | None, entry_mode: str | None = "chip",
    amount: int = 100, **extra: Any,
) -> str:  # fmt: skip
    fields = messages.authorization(
        card.pan, card.expiry, amount, *network.key(), entry_mode=entry_mode,
        pin_block=None if pin is None else block(pin, card.pan), **extra,
    )  # fmt: skip
    answer = await network.client.request("0100", fields)
    return answer.fields[39]


async def pin_state(app: FastAPI, card: IssuedCard) -> tuple[int, bool]:
    row = await app.state.db.reader.row(
        "SELECT pin_failures, pin_blocked FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
    )
    return int(row["pin_failures"]), bool(row["pin_blocked"])


async def declines(app: FastAPI, card: IssuedCard) -> list[tuple[str, int]]:
    rows = await app.state.db.reader.rows(
        "SELECT error_slug, fee FROM transactions WHERE card_uuid = $1 AND status = 'declined'"
        " ORDER BY created_at",
        uuid.UUID(card.uuid),
    )
    return [(row["error_slug"], int(row["fee"])) for row in rows]


async def test_a_right_pin_pays_and_a_wrong_one_is_55_free_and_counted(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    before = await balances(app, card.account)
    assert await send(network, card, WRONG) == "55"
    assert await send(network, card, "1234") == "55"  # any PIN not the card's
    assert await pin_state(app, card) == (2, False)
    assert await balances(app, card.account) == before  # free: no fee, nothing held
    assert await send(network, card, PIN) == "00"
    assert await pin_state(app, card) == (0, False)  # a right PIN resets the count
    assert await send(network, card, PIN[:4]) == "00"  # the PVV reads the first four digits
    assert await send(network, card, WRONG, entry_mode="contactless") == "55"
    assert await send(network, card, None, entry_mode="magstripe") == "00"  # no PIN asked
    assert await pin_state(app, card) == (1, False)  # a payment without a PIN resets nothing
    assert await declines(app, card) == [("invalid_pin", 0)] * 3
    await assert_ledger_consistent(app)


@pytest.mark.parametrize("settings", ["pkcs11"], indirect=True)
async def test_the_third_wrong_pin_blocks_it_until_the_holder_sets_a_new_one(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    assert [await send(network, card, WRONG) for _ in range(3)] == ["55", "55", "75"]
    assert await pin_state(app, card) == (3, True)
    assert await send(network, card, PIN) == "75"  # the right PIN too, and it unblocks nothing
    assert await send(network, card, WRONG) == "75"
    assert await pin_state(app, card) == (3, True)
    assert await send(network, card, None, entry_mode="ecommerce") == "00"  # no PIN: no block
    record = (await client.get(f"/card/{card.uuid}", headers=pinned.user.headers)).json()["data"]
    assert record["pin_blocked"] is True and record["status"] == "active"
    events = await app.state.db.reader.rows(
        "SELECT data FROM events WHERE object_uuid = $1 AND type = 'card.updated' ORDER BY id",
        uuid.UUID(card.uuid),
    )
    assert '"pin_blocked":true' in str(events[-1]["data"]).replace(" ", "")
    assert [slug for slug, _fee in await declines(app, card)] == [
        "invalid_pin", "invalid_pin", "pin_tries_exceeded", "pin_tries_exceeded",
        "pin_tries_exceeded",
    ]  # fmt: skip
    assert all(fee == 0 for _slug, fee in await declines(app, card))
    response = await put_pin(app, client, pinned.user, card.uuid)
    assert response.status_code == 200, response.text
    assert response.json()["data"]["pin_blocked"] is False
    assert await pin_state(app, card) == (0, False)
    assert await send(network, card, PIN) == "00"


async def test_a_card_without_a_pin_a_state_decline_and_an_unreadable_field_52(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    unpinned = (await pinned_card(app, client, pin=False)).card
    assert await send(network, unpinned, PIN) == "55"  # no PIN set: nothing to count
    assert await pin_state(app, unpinned) == (0, False)
    pinned = await pinned_card(app, client)
    card = pinned.card
    frozen = await client.patch(
        f"/card/{card.uuid}", json={"status": "frozen"}, headers=pinned.user.headers
    )
    assert frozen.status_code == 200, frozen.text
    assert await send(network, card, WRONG) == "62"  # the state first: the PIN not compared
    assert await pin_state(app, card) == (0, False)
    await client.patch(f"/card/{card.uuid}", json={"status": "active"}, headers=pinned.user.headers)
    # a block under another key decodes to no PIN of the card: a wrong PIN
    other = pin_block(PIN, card.pan, "11" * 16)
    ISSUED_SECRETS.append(other)
    fields = messages.authorization(card.pan, card.expiry, 100, *network.key(), pin_block=other)
    assert (await network.client.request("0100", fields)).fields[39] == "55"
    for malformed in ("12345678901234G6", "123456789012345"):  # not 16 hex digits
        fields = messages.authorization(card.pan, card.expiry, 100, *network.key())
        fields[52] = malformed
        assert (await network.client.request("0100", fields)).fields[39] == "30"
    assert await pin_state(app, card) == (1, False)


async def test_a_virtual_cards_own_number_at_a_terminal_is_57(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    _user, card = await issue_card(app, client)
    before = await balances(app, card.account)
    for mode in ("chip", "contactless", "magstripe"):
        assert await send(network, card, None, entry_mode=mode) == "57"
    for mode in ("keyed", "ecommerce", None):
        assert await send(network, card, None, entry_mode=mode) == "00"
    assert await declines(app, card) == [("virtual_card_present", 0)] * 3
    after = await balances(app, card.account)
    assert after != before  # the three approvals hold their amounts; the 57s cost nothing
    physical = (await pinned_card(app, client)).card
    assert await send(network, physical, None, entry_mode="magstripe") == "00"
    assert await send(network, physical, PIN, entry_mode="chip") == "00"


@pytest.mark.parametrize("settings", ["pkcs11"], indirect=True)
async def test_the_listener_imports_the_zone_pin_key_into_the_token_at_its_start(
    app: FastAPI, settings: Settings, iso_settings: Settings
) -> None:
    """A ZPK of this test's own (its check value names it in the token): absent before the
    listener starts, a session object of the token (decrypt only) once it listens, before any
    PIN block arrived."""
    import pkcs11

    from cardservice.security.pkcs11 import ZPK_LABEL, Pkcs11Cipher

    zpk = secrets.token_hex(16)
    keyed = iso_settings.model_copy(update={"iso8583_zpk": zpk})
    cipher = Pkcs11Cipher.from_settings(keyed)
    check = encrypt_tdes_ecb(bytes.fromhex(zpk), bytes(8))[:3]  # psec: the key's check value
    wanted = {pkcs11.Attribute.LABEL: ZPK_LABEL, pkcs11.Attribute.ID: check}

    def imported() -> list[Any]:
        with cipher.token.session() as session:
            return list(session.get_objects(wanted))

    assert imported() == []
    state = app.state
    async with running_listener(keyed, state.db, cipher, state.outbound):
        [key] = imported()
        assert not key[pkcs11.Attribute.TOKEN] and key[pkcs11.Attribute.DECRYPT]
        assert not key[pkcs11.Attribute.ENCRYPT] and not key[pkcs11.Attribute.EXTRACTABLE]
    cipher.token.close()


def _wrong_pin_request(card: uuid.UUID, pvv: str) -> Authorization:
    return Authorization(card, 100, "USD", "ATM", presentation=Presentation("iso8583", pin_pvv=pvv))


async def test_concurrent_wrong_pins_never_count_past_the_limit(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Each try is its own unit on its own connection of the pool (PostgreSQL runs them at
    once; the card's row lock orders them): with two tries left, five wrong PINs at once are
    two `invalid_pin`… one blocking `pin_tries_exceeded` and the rest told it is blocked; a
    right PIN racing the blocking one never unblocks it."""
    pinned = await pinned_card(app, client)
    card, user = pinned.card, pinned.user.uuid
    state = app.state
    wrong = visa_pvv(WRONG[:4] + "00", card.pan)
    right = visa_pvv(PIN, card.pan)
    assert wrong != right

    async def attempt(pvv: str) -> str:
        row = await authorize_card(
            state.db, state.outbound, state.cipher, user,
            _wrong_pin_request(uuid.UUID(card.uuid), pvv), allow_private=True,
        )  # fmt: skip
        return str(row["error_slug"] or "approved")

    first = await asyncio.gather(*(attempt(wrong) for _ in range(5)))
    assert sorted(first) == ["invalid_pin"] * 2 + ["pin_tries_exceeded"] * 3
    assert await pin_state(app, card) == (card_testing.PIN_TRIES, True)
    blocked_events = await app.state.db.reader.value(
        "SELECT count(*) FROM events WHERE object_uuid = $1 AND type = 'card.updated'"
        " AND created_at > (SELECT max(created_at) FROM events WHERE object_uuid = $1"
        " AND type = 'card.pin.updated')",
        uuid.UUID(card.uuid),
    )
    assert blocked_events == 1  # blocked once, not once per racing try

    other = await pinned_card(app, client)
    for _ in range(2):
        assert await send_direct(app, other, wrong) == "invalid_pin"
    racing = sorted(await asyncio.gather(*(send_direct(app, other, p) for p in (wrong, right))))
    failures, blocked = await pin_state(app, other.card)
    if blocked:  # the wrong one first: it blocked, and the right one was told so
        assert (racing, failures) == (["pin_tries_exceeded"] * 2, card_testing.PIN_TRIES)
    else:  # the right one first: the count reset, then one wrong
        assert (racing, failures) == (["approved", "invalid_pin"], 1)
    await assert_ledger_consistent(app)


async def send_direct(app: FastAPI, pinned: PinnedCard, pvv: str) -> str:
    state = app.state
    row = await authorize_card(
        state.db, state.outbound, state.cipher, pinned.user.uuid,
        _wrong_pin_request(uuid.UUID(pinned.card.uuid), pvv), allow_private=True,
    )  # fmt: skip
    return str(row["error_slug"] or "approved")


async def atm(network: Network, card: IssuedCard, pin: str | None, amount: int) -> Message:
    fields = messages.authorization(
        card.pan, card.expiry, amount, *network.key(), mcc=ATM_MCC, entry_mode="chip",
        pin_block=None if pin is None else block(pin, card.pan), processing=WITHDRAWAL,
    )  # fmt: skip
    return await network.client.request("0100", fields)


async def test_an_atm_withdrawal_needs_the_pin_and_pays_the_atm_fee_in_its_entry(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    _account, [before] = await balances(app, card.account)
    assert before == 10_00
    assert (await atm(network, card, None, 2_00)).fields[39] == "55"  # no field 52
    assert await declines(app, card) == []  # nothing recorded
    assert (await atm(network, card, WRONG, 2_00)).fields[39] == "55"
    assert await pin_state(app, card) == (1, False)
    answer = await atm(network, card, PIN, 2_00)
    assert answer.fields[39] == "00"
    assert await pin_state(app, card) == (0, False)
    row = await app.state.db.reader.row(
        "SELECT uuid, type, status, amount, fee, merchant_mcc FROM transactions"
        " WHERE card_uuid = $1 AND status = 'pending'",
        uuid.UUID(card.uuid),
    )
    assert (row["type"], row["amount"], row["fee"], row["merchant_mcc"]) == (
        "atm_withdrawal", 2_00, 2_50, ATM_MCC,
    )  # fmt: skip
    assert (await balances(app, card.account))[1] == [10_00 - 2_00 - 2_50]
    listed = await client.get(
        "/transaction/report",
        params={"filters[type]": "atm_withdrawal"},
        headers=pinned.user.headers,
    )
    shown = [(item["uuid"], item["status"], item["error"]) for item in listed.json()["data"]]
    assert shown[0] == (str(uuid.UUID(str(row["uuid"]))), "pending", None)  # newest first
    assert shown[1][1:] == ("declined", "invalid_pin") and len(shown) == 2
    original = messages.authorization(
        card.pan, card.expiry, 2_00, answer.fields[11], answer.fields[7], processing=WITHDRAWAL
    )
    reversal = messages.reversal_request(original, *network.key())
    assert (await network.client.request("0400", reversal)).fields[39] == "00"
    assert (await balances(app, card.account))[1] == [10_00]  # the amount and its fee back
    await assert_ledger_consistent(app)


async def _status_and_balance(app: FastAPI, card: IssuedCard, answer: Message) -> tuple[str, int]:
    """The withdrawal `answer` approved: its status, and the card's balance."""
    status = await app.state.db.reader.value(
        "SELECT status FROM transactions WHERE card_uuid = $1 AND auth_code = $2",
        uuid.UUID(card.uuid), answer.fields[38],
    )  # fmt: skip
    return str(status), (await balances(app, card.account))[1][0]


async def test_a_withdrawals_reversal_carries_its_01_code_and_gives_back_the_hold_and_the_fee(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """The acquirer's 0400 echoes the withdrawal's processing code (`010000`); the issuer
    finds the original by field 90 whatever field 3 says; a whole reversal gives back the
    amount and the `card_atm` fee, a partial one (95) only the amount above what stays, and
    the rest is captured by an 0220 that carries `010000` too; an unused hold is released by
    the expiry sweep, its fee too; the captured one shows its ARN. Then no table holds a PIN
    block sent, nor the PIN."""
    pinned = await pinned_card(app, client)
    card = pinned.card

    def original(answer: Message, amount: int) -> dict[int, str]:
        return messages.authorization(
            card.pan, card.expiry, amount, answer.fields[11], answer.fields[7],
            mcc=ATM_MCC, processing=WITHDRAWAL,
        )  # fmt: skip

    first = await atm(network, card, PIN, 1_00)
    assert await _status_and_balance(app, card, first) == ("pending", 10_00 - 1_00 - 2_50)
    reversal = messages.reversal_request(original(first, 1_00), *network.key())
    assert reversal[3] == WITHDRAWAL
    reversed_ = await network.client.request("0400", reversal)
    assert (reversed_.fields[39], reversed_.fields[3]) == ("00", WITHDRAWAL)  # 3 echoed back
    assert await _status_and_balance(app, card, first) == ("reversed", 10_00)

    second = await atm(network, card, PIN, 2_00)
    plain = messages.reversal_request(original(second, 2_00), *network.key()) | {3: "000000"}
    assert (await network.client.request("0400", plain)).fields[39] == "00"  # matched by 90
    assert await _status_and_balance(app, card, second) == ("reversed", 10_00)

    third = await atm(network, card, PIN, 3_00)
    partial = messages.reversal_request(original(third, 3_00), *network.key(), stays=1_00)
    assert (await network.client.request("0400", partial)).fields[39] == "00"
    assert await _status_and_balance(app, card, third) == ("pending", 10_00 - 1_00 - 2_50)
    capture = messages.capture_advice(original(third, 3_00), 1_00, *network.key())
    captured = await network.client.request("0220", capture)
    assert (captured.fields[39], captured.fields[3]) == ("00", WITHDRAWAL)
    assert await _status_and_balance(app, card, third) == ("completed", 10_00 - 1_00 - 2_50)
    # captured, it shows its ARN as a purchase does (docs/disputes.md#the-arn)
    made = await app.state.db.reader.row(
        "SELECT uuid, created_at FROM transactions WHERE card_uuid = $1 AND auth_code = $2",
        uuid.UUID(card.uuid), third.fields[38],
    )  # fmt: skip
    made_uuid = uuid.UUID(str(made["uuid"]))
    shown = await client.get(f"/transaction/{made_uuid}", headers=pinned.user.headers)
    assert shown.status_code == 200, shown.text
    assert shown.json()["data"]["network"]["arn"] == purchase_arn(made_uuid, made["created_at"])
    unused = await atm(network, card, PIN, 1_00)  # never captured: the sweep releases it
    assert await sweep_expired_holds(app.state.db, utcnow() + timedelta(days=60)) == 1
    assert await _status_and_balance(app, card, unused) == ("reversed", 10_00 - 1_00 - 2_50)
    await assert_ledger_consistent(app)
    # no table keeps a PIN block or the PIN (its PVV only)
    rows = re.sub(r"datetime\.datetime\([^)]*\)", "", str(await database_rows(app)))
    for sent in SENT_BLOCKS:
        assert sent.upper() not in rows.upper()
    assert not re.search(rf"(?<![\w.]){PIN}(?![\w.])", rows)


async def test_an_inactive_physical_card_is_62_whatever_its_details_and_pin(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """Before its holder activates it, a physical card answers `62` to every payment and
    withdrawal, with its right or wrong expiry, CVV2 or PIN: free, nothing counted."""
    user = await make_user(app)
    record = await physical_card(app, client, user)
    row = await app.state.db.reader.row(
        "SELECT account_uuid, pan_ciphertext, expiry_year, expiry_month FROM cards WHERE uuid = $1",
        uuid.UUID(record["uuid"]),
    )
    pan = app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))
    ISSUED_SECRETS.append(pan)
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    card = IssuedCard(uuid.UUID(str(row["account_uuid"])), record["uuid"], pan, expiry)
    before = await balances(app, card.account)
    assert await send(network, card, None) == "62"
    assert await send(network, card, WRONG, cvv2="000") == "62"
    wrong_expiry = IssuedCard(card.account, card.uuid, pan, "0101")
    assert await send(network, wrong_expiry, WRONG, entry_mode="magstripe") == "62"
    assert (await atm(network, card, WRONG, 1_00)).fields[39] == "62"
    assert await balances(app, card.account) == before
    assert await pin_state(app, card) == (0, False)
    failures = await app.state.db.reader.value(
        "SELECT verification_failures FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
    )
    assert failures in (None, "[]")
    assert await declines(app, card) == [("card_inactive", 0)] * 4


async def test_a_replacement_is_ordered_to_the_same_address_without_the_old_pin(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """A physical card replaced: the new one is physical, ordered to the same address, not
    charged `card_physical`, and has no PIN — the old PIN is `55` on it and counts nothing —
    until its holder sets one."""
    pinned = await pinned_card(app, client)
    old, user = pinned.card, pinned.user
    assert await send(network, old, WRONG) == "55"  # one wrong try on the old card
    account_before = (await balances(app, old.account))[0]
    replaced = await post(client, user, f"/card/{old.uuid}/replace", {"reason": "lost"})
    assert replaced.status_code == 201, replaced.text
    new = replaced.json()["data"]
    shipping = (await client.get(f"/card/{old.uuid}", headers=user.headers)).json()["data"]
    assert (new["form"], new["status"], new["fulfilment"]["status"]) == (
        "physical", "inactive", "ordered",
    )  # fmt: skip
    assert new["shipping"] == shipping["shipping"]
    assert (new["pin_set"], new["pin_blocked"]) == (False, False)
    account_after, card_balances = await balances(app, old.account)
    assert account_after == account_before  # no card_physical fee for a replacement
    assert sorted(card_balances) == [0, 10_00]  # the old card's balance moved over (a 55 is free)
    await step(client, user, new["uuid"], "printed")
    await step(client, user, new["uuid"], "shipped")
    activated = await post(client, user, f"/card/{new['uuid']}/activate", {"last4": new["last4"]})
    assert activated.status_code == 200, activated.text
    row = await app.state.db.reader.row(
        "SELECT pan_ciphertext, expiry_year, expiry_month, pin_pvv FROM cards WHERE uuid = $1",
        uuid.UUID(new["uuid"]),
    )
    assert row["pin_pvv"] is None
    pan = app.state.cipher.decrypt(bytes(row["pan_ciphertext"]))
    ISSUED_SECRETS.append(pan)
    card = IssuedCard(old.account, new["uuid"], pan, f"{row['expiry_year'] % 100:02d}"
                      f"{row['expiry_month']:02d}")  # fmt: skip
    assert await send(network, card, PIN) == "55"  # the old card's PIN is not this card's
    assert await pin_state(app, card) == (0, False)
    response = await put_pin(app, client, user, card.uuid)
    assert response.status_code == 200, response.text
    assert await send(network, card, PIN) == "00"
    await assert_ledger_consistent(app)


async def test_atm_per_day_limits_the_days_withdrawals_and_not_purchases(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    controls = {"spending_controls": {"atm_per_day": 3}}
    set_ = await client.patch(f"/card/{card.uuid}", json=controls, headers=pinned.user.headers)
    assert set_.status_code == 200, set_.text
    assert set_.json()["data"]["spending_controls"]["atm_per_day"] == 3
    first = await atm(network, card, PIN, 2_00)
    assert first.fields[39] == "00"
    assert await send(network, card, PIN, amount=50) == "00"  # a purchase: not cash
    assert (await atm(network, card, PIN, 1_01)).fields[39] == "61"  # 2.00 + 1.01 > 3.00
    assert (await atm(network, card, PIN, 1_00)).fields[39] == "00"  # 3.00 exactly
    original = messages.authorization(
        card.pan, card.expiry, 2_00, first.fields[11], first.fields[7], processing=WITHDRAWAL
    )
    reversal = messages.reversal_request(original, *network.key())
    assert (await network.client.request("0400", reversal)).fields[39] == "00"
    assert (await atm(network, card, PIN, 1_50)).fields[39] == "00"  # a reversed one frees it
    assert [slug for slug, _fee in await declines(app, card)] == ["limit_exceeded"]
    await assert_ledger_consistent(app)


async def test_network_send_plays_the_acquirer_with_a_pin_and_at_an_atm(
    app: FastAPI,
    client: httpx.AsyncClient,
    network: Network,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)
    monkeypatch.setenv("CARDSERVICE_ISO8583_ZPK", TEST_ZPK)  # the acquirer's copy of the ZPK
    card = (await pinned_card(app, client)).card
    base = ("network", "send", "--card-uuid", card.uuid, "--port", str(network.port))
    paid = await cli.value(*base, "--amount", "1", "--pin", PIN, "--entry-mode", "chip")
    assert paid.startswith("0110 00 "), paid
    wrong = await cli.value(*base, "--amount", "1", "--pin", WRONG, "--entry-mode", "contactless")
    assert wrong.startswith("0110 55 "), wrong
    cash = await cli.value(*base, "--amount", "2", "--pin", PIN, "--atm")
    assert cash.startswith("0110 00 "), cash
    assert (await cli.value(*base, "--amount", "2", "--atm")).startswith("0110 55 ")
    kept = await cli.value(*base, "--amount", "1", "--pin", PIN, "--atm")
    assert kept.startswith("0110 00 "), kept
    key = kept.rsplit("key ", 1)[1]
    reversal = ("--type", "reversal", "--original", key, "--atm", "--amount", "1")
    assert (await cli.value(*base, *reversal)).startswith("0410 00 ")
    stan, sent = key.split("/")
    asked = Send("reversal", 1_00, "USD", "Netflix", None, (stan, sent), False, None, atm=True)
    assert request_fields(asked, card.pan, card.expiry, *network.key())[3] == WITHDRAWAL
    types = await app.state.db.reader.rows(
        "SELECT type, status FROM transactions WHERE card_uuid = $1 AND status <> 'declined'"
        " AND type <> 'card_issue' ORDER BY created_at",
        uuid.UUID(card.uuid),
    )
    assert [(row["type"], row["status"]) for row in types] == [
        ("card_purchase", "pending"), ("atm_withdrawal", "pending"),
        ("atm_withdrawal", "reversed"),
    ]  # fmt: skip
    monkeypatch.delenv("CARDSERVICE_ISO8583_ZPK")
    assert "CARDSERVICE_ISO8583_ZPK" in await cli.refused(*base, "--amount", "1", "--pin", PIN)


def _money(value: object) -> Decimal:
    """An amount of an answer (a JSON number) as it was written."""
    return Decimal(str(value))


async def test_a_members_atm_cash_counts_against_the_team_budget_and_is_refused_past_it(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    """docs/teams.md#budgets-and-how-spent-is-counted: a member's withdrawals count in their
    budget as purchases do, and one past it is `61` `budget_exceeded` (no hold, no fee); the
    owner's `GET /user/spend` shows the cash as a line of its own."""
    team = await make_team(app)
    member = team.members[0]
    pinned = await pinned_card(app, client, user=member)
    card = pinned.card
    budget = await set_budget(client, team, member, Decimal(5))
    assert budget.status_code == 200, budget.text
    assert (await atm(network, card, PIN, 3_00)).fields[39] == "00"
    budgets = (await call(client, team.owner, "GET", "/team/budgets")).json()["data"]
    assert [(b["member"]["uuid"], _money(b["spent"])) for b in budgets] == [
        (str(member.uuid), Decimal(3))
    ]
    _account, [before] = await balances(app, card.account)
    refused = await atm(network, card, PIN, 2_01)
    assert refused.fields[39] == "61"
    assert await declines(app, card) == [("budget_exceeded", 0)]
    assert (await balances(app, card.account))[1] == [before]  # nothing held, no fee
    assert await send(network, card, PIN, amount=2_00) == "00"  # a purchase fits what is left
    assert (await atm(network, card, PIN, 1)).fields[39] == "61"  # the month is spent
    spend = await client.get(
        "/user/spend", params={"group_by": "merchant"}, headers=team.owner.headers
    )
    lines = {
        (row["key"], row["name"]): (row["count"], row["amount"]) for row in spend.json()["data"]
    }
    assert lines[(None, "Cash withdrawals (ATM)")] == (1, Decimal(3))
    assert sum(amount for _count, amount in lines.values()) == Decimal(5)
    cash = await client.get(
        "/user/spend",
        params={"group_by": "member", "type": "atm_withdrawal"},
        headers=team.owner.headers,
    )
    assert [(row["key"], _money(row["amount"])) for row in cash.json()["data"]] == [
        (str(member.uuid), Decimal(3))
    ]
    await assert_ledger_consistent(app)

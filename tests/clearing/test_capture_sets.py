"""A unit's presented captures are decided one after the other and written together with the
unit's force posts and refunds in between, each set cut only where a record needs the money of
another's (docs/network.md#units-of-records, `transactions.Captures`): the same file booked with
every capture and force post written alone (as a unit booked again one at a time does) leaves
exactly the same transactions, entries, events and balances, on both databases."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.clearing import booking, service
from cardservice.transactions import holds
from cardservice.transactions.engine import Authorization, Presentation, authorize
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.clearing.test_force_posts import _account_of_four, _what_moved, _without_ids
from tests.factories import assert_ledger_consistent
from tests.network.conftest import issue_card
from tests.operator.helpers import operator_key

# what each card authorizes before the file, by approval code: (role, amount)
HELD = {
    "P00001": ("plain", 200), "P00002": ("plain", 100), "P00003": ("plain", 50),
    "R00001": ("replenished", 150), "S00001": ("single_use", 100), "L00001": ("locked", 300),
}  # fmt: skip


async def _held(app: FastAPI, cards: dict[str, tuple[str, str]]) -> None:
    """The authorizations of `HELD`, approved through the engine as the ISO host's are."""
    db = app.state.db
    for code, (role, amount) in HELD.items():
        card = uuid.UUID(cards[role][0])
        user = await db.reader.value("SELECT user_uuid FROM cards WHERE uuid = $1", card)
        network = {"stan": "000001", "rrn": None, "acquirer_id": "123456",
                   "terminal_id": None, "merchant_id": None, "auth_code": code}  # fmt: skip
        request = Authorization(
            card, amount, "USD", "Acme", presentation=Presentation("iso8583", network)
        )
        answered = await db.transact(
            lambda tx, request=request, user=user: authorize(tx, app.state.cipher, user, request)
        )
        assert answered["status"] == "pending", answered


def _file(file_id: str, cards: dict[str, tuple[str, str]], arn: str) -> bytes:
    """Captures at less and at more than held (beyond the card's balance: a shortfall), the
    same authorization presented twice, force posts on the same cards between them, a refund
    of a purchase this file captured (by its ARN, in the same unit), a credit, a single_use
    card captured (it closes) and then force posted."""
    pan = {role: number for role, (_uuid, number) in cards.items()}
    items = [
        presentment(pan["plain"], 150, approval_code="P00001", arn=arn),  # 50 back
        presentment(pan["replenished"], 100, approval_code="R00001"),
        presentment(pan["plain"], 100),  # a force post after a capture of its card
        presentment(pan["plain"], 400, approval_code="P00002"),  # 300 beyond its hold
        presentment(pan["plain"], 150, approval_code="P00001"),  # again: a duplicate
        presentment(pan["locked"], 300, approval_code="L00001"),
        presentment(pan["plain"], 60, arn=arn, refund=True),  # of the first capture
        presentment(pan["single_use"], 100, approval_code="S00001"),  # it closes
        presentment(pan["single_use"], 40),  # force posted on the closed card
        presentment(pan["replenished"], 250),
        presentment(pan["plain"], 50, approval_code="P00003"),
        presentment(pan["plain"], 30, refund=True),  # a credit
        presentment(pan["replenished"], 120, approval_code="R00001"),  # captured before: +20
        presentment(pan["plain"], 500),
    ]  # fmt: skip
    return ipm_file(file_id, items)


async def test_captures_written_together_leave_what_one_at_a_time_leaves(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = await operator_key(app, "network")
    together, together_cards = await _account_of_four(app, client)
    alone, alone_cards = await _account_of_four(app, client)
    for cards in (together_cards, alone_cards):
        await _held(app, cards)
    first = report_of(
        await post_file(client, key, _file("FILE-CAPTURES", together_cards, "7" * 23))
    )
    real = booking.book_records

    async def one_at_a_time(tx: Any, **arguments: Any) -> None:
        await real(tx, **{**arguments, "one_at_a_time": True})

    monkeypatch.setattr(service, "book_records", one_at_a_time)
    second = report_of(
        await post_file(client, key, _file("FILE-CAPTURES-ALONE", alone_cards, "8" * 23))
    )
    kept = ("presentments", "refunds", "unmatched", "amount_differences", "totals")
    assert _without_ids({k: first[k] for k in kept}) == _without_ids({k: second[k] for k in kept})
    presented = first["presentments"]
    # matched: six captures and the difference
    assert (presented["matched"], presented["duplicates"], presented["force_posted"]) == (
        7,
        1,
        4,
    ), first
    assert len(first["amount_differences"]) == 1 and first["refunds"] == 2, first
    moved = await _what_moved(app, together, together_cards)
    assert moved == await _what_moved(app, alone, alone_cards)
    # as the rules say, on the plain card (5.00, 1.20 left once P00001-3 held with their
    # fees): the first capture gives 0.50 back (1.70), the force post takes 1.10 (0.60), the
    # second capture 3.00 beyond its hold: 2.40 owed (0.00); the refund gives 0.60 back, the
    # third capture nothing, the credit 0.30 (0.90); the last force post's 5.10 owes 4.20
    plain = [row[0] for row in moved["plain"][0] if row[0][0] == "card_purchase"]
    assert [(p[1], p[3], p[5]) for p in plain] == [
        ("completed", 150, 0), ("completed", 400, 240), ("completed", 50, 0),
        ("completed", 100, 0), ("completed", 500, 420),
    ]  # fmt: skip
    assert moved["plain"][1] == 0
    # the single_use card closes after its capture (its 2.90 to the account): the force
    # post after it owes all of its 0.40 and its fee
    single, balance, status, _bound = moved["single_use"]
    purchases = [(r[0][1], r[0][3], r[0][5]) for r in single if r[0][0] == "card_purchase"]
    assert purchases == [("completed", 100, 0), ("completed", 40, 50)]
    assert (balance, status) == (0, "closed")
    await assert_ledger_consistent(app)


async def test_a_capture_set_the_database_refuses_is_booked_one_at_a_time_naming_its_record(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A capture decided wrong (here: what its card cannot pay beyond the hold forgotten, so
    the card would go below zero) is refused with its whole set; the unit is booked again one
    capture at a time: that record is an exception and its purchase stays held, its
    neighbours are captured once."""
    _user, card = await issue_card(app, client, start_balance="1")
    cards = {"plain": (card.uuid, card.pan)}
    codes = {"C00001": 20, "C00002": 20, "C00003": 20}
    for code, amount in codes.items():
        request = Authorization(
            uuid.UUID(card.uuid), amount, "USD", "Acme",
            presentation=Presentation("iso8583", {
                "stan": "000001", "rrn": None, "acquirer_id": "123456", "terminal_id": None,
                "merchant_id": None, "auth_code": code,
            }),
        )  # fmt: skip
        user = await app.state.db.reader.value(
            "SELECT user_uuid FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
        )
        await app.state.db.transact(
            lambda tx, request=request, user=user: authorize(tx, app.state.cipher, user, request)
        )
    real = holds.owed_beyond

    async def forgetful(tx: Any, leg: Any) -> int:
        return 0 if leg.amount == -500 else await real(tx, leg)

    monkeypatch.setattr(holds, "owed_beyond", forgetful)
    key = await operator_key(app, "network")
    pan = cards["plain"][1]
    items = [
        presentment(pan, 20, approval_code="C00001"),
        presentment(pan, 520, approval_code="C00002"),  # 5.00 beyond its hold, on 0.10
        presentment(pan, 20, approval_code="C00003"),
    ]
    report = report_of(await post_file(client, key, ipm_file("FILE-REFUSED-CAPTURES", items)))
    assert report["presentments"]["matched"] == 2, report
    assert [(u["message_number"], u["reason"]) for u in report["unmatched"]] == [
        (items[1].message_number, "refused: The balance does not cover this amount.")
    ]
    purchases = await app.state.db.reader.rows(
        "SELECT auth_code, status, captured_amount FROM transactions WHERE card_uuid = $1"
        " AND type = 'card_purchase' ORDER BY auth_code",
        uuid.UUID(card.uuid),
    )
    assert [(p["auth_code"], p["status"], int(p["captured_amount"])) for p in purchases] == [
        ("C00001", "completed", 20), ("C00002", "pending", 0), ("C00003", "completed", 20),
    ]  # fmt: skip
    await assert_ledger_consistent(app)

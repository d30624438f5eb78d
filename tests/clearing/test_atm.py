"""ATM withdrawals in clearing files (docs/network.md#clearing-files), on both databases: a
presentment with DE 3 `01…` in a real IPM file written by cardutil captures the card's
`atm_withdrawal` authorized over a real ISO 8583 connection (PIN under the tests' ZPK), and one
with no authorization held is force posted as a withdrawal with the `card_atm` fee."""

from __future__ import annotations

import io
import uuid
from dataclasses import dataclass
from pathlib import Path

import httpx
import orjson
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.presentments import write_run_file
from cardservice.clearing import ipm
from cardservice.network.fields import ATM_MCC, WITHDRAWAL
from tests.clearing.helpers import ipm_file, post_file, presentment, report_of
from tests.factories import assert_ledger_consistent, balances
from tests.network.conftest import Network
from tests.network.test_pin import (  # noqa: F401
    PIN,
    atm,
    block,
    no_pin_in_the_logs,
    pinned_card,
    settings,
)
from tests.operator.helpers import operator_key

ATM_FEE, FEE = 2_50, 10  # the catalogue's `card_atm`, `card_transaction`


async def test_an_atm_presentment_captures_its_withdrawal_or_is_force_posted_as_one(
    app: FastAPI, client: httpx.AsyncClient, network: Network
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    answer = await atm(network, card, PIN, 2_00)
    assert answer.fields[39] == "00"
    assert (await balances(app, card.account))[1] == [10_00 - 2_00 - ATM_FEE]
    key = await operator_key(app, "network")
    # the withdrawal's code on a purchase presentment names no purchase: one is forced
    purchase = presentment(card.pan, 50, approval_code=answer.fields[38])
    cash = presentment(card.pan, 2_00, approval_code=answer.fields[38], atm=True)
    unknown = presentment(card.pan, 1_00, approval_code="NOAUTH", atm=True)
    body = ipm_file("FILE-ATM", [purchase, cash, unknown])
    report = report_of(await post_file(client, key, body))
    assert report["presentments"] == {"matched": 1, "duplicates": 0, "force_posted": 2}
    assert report["unmatched"] == [] and report["ignored"] == 0
    assert report["totals"] == [{"currency": "USD", "count": 3, "amount": 3.5}]
    rows = await app.state.db.reader.rows(
        "SELECT type, status, amount, captured_amount, fee, shortfall, channel, clearing"
        " FROM transactions WHERE card_uuid = $1 AND type IN ('atm_withdrawal', 'card_purchase')"
        " ORDER BY created_at",
        uuid.UUID(card.uuid),
    )
    shown = [
        (row["type"], row["status"], row["amount"], row["captured_amount"], row["fee"],
         row["shortfall"], row["channel"], orjson.loads(row["clearing"])["message_number"])
        for row in rows
    ]  # fmt: skip
    assert shown == [
        ("atm_withdrawal", "completed", 2_00, 2_00, ATM_FEE, 0, "iso8583", cash.message_number),
        ("card_purchase", "completed", 50, 50, FEE, 0, "clearing", purchase.message_number),
        ("atm_withdrawal", "completed", 1_00, 1_00, ATM_FEE, 0, "clearing",
         unknown.message_number),
    ]  # fmt: skip
    spent = 2_00 + ATM_FEE + 50 + FEE + 1_00 + ATM_FEE
    assert (await balances(app, card.account))[1] == [10_00 - spent]
    await assert_ledger_consistent(app)


@dataclass
class _Sent:
    """An authorization as the simulator keeps it (`presentments.Authorized`)."""

    fields: dict[int, str]
    amount: int
    answer: dict[int, str] | None
    reversed: bool = False
    captured: int = 0
    refunded: int = 0


async def test_the_simulators_file_presents_an_atm_withdrawal_with_its_de_3(
    app: FastAPI, client: httpx.AsyncClient, network: Network, tmp_path: Path
) -> None:
    pinned = await pinned_card(app, client)
    card = pinned.card
    fields = messages.authorization(
        card.pan, card.expiry, 3_00, *network.key(), mcc=ATM_MCC, entry_mode="chip",
        pin_block=block(PIN, card.pan), processing=WITHDRAWAL,
    )  # fmt: skip
    answer = await network.client.request("0100", fields)
    assert answer.fields[39] == "00"
    path = tmp_path / "run.ipm"
    write_run_file(path, "RUN-ATM", [_Sent(fields, 3_00, dict(answer.fields))], 1, set())
    body = path.read_bytes()
    [_header, written, _trailer] = list(ipm.messages(io.BytesIO(body)))
    assert (written["DE3"], written["DE38"]) == ("010000", answer.fields[38])
    key = await operator_key(app, "network")
    report = report_of(await post_file(client, key, body))
    assert report["presentments"] == {"matched": 1, "duplicates": 0, "force_posted": 0}
    row = await app.state.db.reader.row(
        "SELECT type, status, captured_amount, fee FROM transactions WHERE card_uuid = $1"
        " AND type = 'atm_withdrawal'",
        uuid.UUID(card.uuid),
    )
    assert row is not None
    assert (row["type"], row["status"], row["captured_amount"], row["fee"]) == (
        "atm_withdrawal", "completed", 3_00, ATM_FEE,
    )  # fmt: skip
    await assert_ledger_consistent(app)

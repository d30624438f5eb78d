"""The simulator's run ends with its clearing file (docs/network.md#clearing-files): ingested, every
approved authorization it presents is booked once, only the injected unknown cards stay unmatched,
and the day's settlement counts the file's captures."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from cardservice.acquirer import simulator
from cardservice.acquirer.presentments import UNKNOWN_CARDS
from cardservice.clearing.service import Clearing, ingest
from cardservice.operator.acting import CLI
from tests.factories import assert_ledger_consistent
from tests.network.conftest import Network


async def test_a_run_with_the_clearing_fault_writes_a_file_that_books_once(
    app: FastAPI, network: Network, tmp_path: Path
) -> None:
    path = tmp_path / "run.ipm"
    found = await simulator.run(
        app.state.db, app.state.cipher, "127.0.0.1", network.port, seed=3, seconds=2,
        faults={"clearing", "late-reversals", "advices"}, connections=2, cards=4,
        clearing_file=path,
    )  # fmt: skip
    assert found["ok"], found
    written = found["clearing_file"]
    assert written["messages"] > 2 + UNKNOWN_CARDS
    clearing = Clearing(app.state.db, app.state.cipher)
    with path.open("rb") as file:
        first = await ingest(clearing, file, CLI)
    report = first.report
    assert report["messages"] == written["messages"] and first.created
    assert [item["reason"] for item in report["unmatched"]] == ["unknown card"] * UNKNOWN_CARDS
    presentments = report["presentments"]
    booked = sum(presentments.values()) + report["refunds"]
    assert booked == written["messages"] - 2 - UNKNOWN_CARDS
    with path.open("rb") as file:
        again = await ingest(clearing, file, CLI)
    assert not again.created and again.report == report
    unbooked = await app.state.db.reader.value(
        "SELECT count(*) FROM clearing_records WHERE outcome IS NULL"
    )
    assert unbooked == 0
    await assert_ledger_consistent(app)

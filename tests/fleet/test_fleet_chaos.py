"""The fleet chaos run's verdict (`scripts/fleet/chaos.py` `report`), without a fleet: what
stand-in advices left cardholders owing is part of the customers' money, and a failed ISO
8583 check fails the run."""

from __future__ import annotations

from typing import Any

import pytest

from scripts.fleet.chaos import Run, report

# A card of 100.00 took a 150.00 stand-in and its 0.10 fee: it is at zero, the cardholder
# owes 50.10 to `cardholder_receivables`.
BOOKS: dict[str, Any] = {
    "deposits": 10_000, "fees": 10, "spent": 15_000, "refunded": 0, "held": 0,
    "owed": 5_010, "ledger_sum": 0, "drifted": 0, "negative": 0, "cards_by_external_id": {},
}  # fmt: skip


def _run(iso_ok: bool) -> Run:
    return Run(events=1, iso={"ok": iso_ok, "requests": 1, "cents_lost": 0})


def test_what_stand_ins_left_owed_is_no_money_lost(capsys: pytest.CaptureFixture[str]) -> None:
    assert report(_run(True), BOOKS, 0) == 0
    assert "0 cents lost" in capsys.readouterr().out
    assert report(_run(True), BOOKS | {"owed": 0}, 0) == 1
    assert "-5010 cents lost" in capsys.readouterr().out


def test_a_failed_iso8583_check_fails_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert report(_run(False), BOOKS, 0) == 1
    out = capsys.readouterr().out
    assert "FAILED: iso8583 checks" in out and "iso8583 findings" in out

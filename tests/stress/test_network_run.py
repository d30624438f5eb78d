"""An 8-second network run of `make test` on each database (`make stress` runs 60 s on
PostgreSQL): ISO 8583 traffic with every fault, the run's clearing file ingested, only the
injected unknown cards unmatched, the day's settlement report equal to the file's totals per
currency, the ledger verified (tests/stress/network_run.py)."""

from __future__ import annotations

import pytest

from cardservice.acquirer.presentments import UNKNOWN_CARDS
from tests.conftest import DATABASES
from tests.stress.network_run import check_settlement, network_run


@pytest.mark.parametrize("database", DATABASES)
async def test_the_network_run_settles_what_its_clearing_file_presents(database: str) -> None:
    found = await network_run(seconds=8, seed=1, database=database)
    print(found.line())
    assert found.simulator.get("ok"), found.simulator
    assert found.problems == []
    report = found.report
    assert len(report["unmatched"]) == UNKNOWN_CARDS
    # every kind of record the day brings really ran: online captures presented again
    # (duplicates), amount differences, force posts of reversed authorizations, online
    # refunds presented again
    presentments = report["presentments"]
    assert presentments["matched"] and presentments["duplicates"], report
    assert presentments["force_posted"] and report["refunds"], report
    assert report["amount_differences"], report
    assert found.settled == found.presented and set(found.settled) == {"USD", "JPY"}
    assert found.ledger.startswith("ok"), found.ledger


def test_the_settlement_check_names_each_disagreement() -> None:
    """The check itself: unknown cards apart, a currency whose settlement differs from the
    file fails, as does an unmatched record of another reason."""
    unmatched = [{"message_number": n, "reason": "unknown card"} for n in range(UNKNOWN_CARDS)]
    report = {"unmatched": unmatched, "totals": [{"currency": "USD", "count": 2, "amount": "5.00"}]}
    day = [{"currency": "USD", "net": "5.00"}]
    assert check_settlement(report, [day]).problems == []
    assert check_settlement(report, [day, [{"currency": "USD", "net": "0.01"}]]).problems == [
        "USD: settled 5.01, the file presents 5.00 (off by 0.01)"
    ]
    odd = {**report, "unmatched": [*unmatched, {"message_number": 9, "reason": "unknown currency"}]}
    assert len(check_settlement(odd, [day]).problems) == 1
    assert check_settlement(report, [[*day, {"currency": "EUR", "net": "1.00"}]]).problems == [
        "EUR: settled 1.00, the file presents 0 (off by 1.00)"
    ]

"""A statement PDF costs the same per line however long a line's text is, and twice the lines
cost twice the measuring (docs/statements.md#statements: a statement's cost is linear in its lines).
Counted, not timed: every character the renderer hands fpdf2 to measure is tallied."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

import pytest
from fpdf import FPDF
from pypdf import PdfReader

from cardservice.statements import pdf

START, END = datetime(2026, 10, 1, tzinfo=UTC), datetime(2026, 11, 1, tzinfo=UTC)
SHORT = "Card purchase: Netflix"
LONG = "Card purchase: " + "Wide Merchant " * 70 + "TAIL"  # ~1,000 characters


def _statement(lines: int, description: str) -> dict[str, Any]:
    """A statement as `statements.service.statement` returns it, `lines` lines long."""
    return {
        "account": {"uuid": "0b6f0f1e-0000-4000-8000-000000000001", "name": "Main",
                    "currency": "USD", "holder": "Test User"},
        "period": {"month": "2026-10", "start": START, "end": END},
        "currency": "USD", "issued_at": START,
        "opening_balance": Decimal(lines), "closing_balance": Decimal(0),
        "credits": Decimal(0), "debits": Decimal(lines),
        "lines": [
            {"date": START, "description": description, "transaction_uuid": None,
             "amount": Decimal("1.00"), "direction": "debit", "balance": Decimal(lines - n - 1)}
            for n in range(lines)
        ],
    }  # fmt: skip


@contextmanager
def _measured(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of characters fpdf2 is asked to measure while the block runs."""
    tally = [0]
    measure = FPDF.get_string_width

    def counting(self: FPDF, s: str, *args: Any, **kwargs: Any) -> float:
        tally[0] += len(s)
        return measure(self, s, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(FPDF, "get_string_width", counting)
        yield tally


def _cost(monkeypatch: pytest.MonkeyPatch, lines: int, description: str) -> int:
    with _measured(monkeypatch) as tally:
        pdf.render(_statement(lines, description))
    return tally[0]


def test_a_long_name_costs_no_more_measuring_than_a_short_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    short, long = _cost(monkeypatch, 200, SHORT), _cost(monkeypatch, 200, LONG)
    distinct = len(set(LONG + "..."))  # each character is measured once per document
    assert long <= short + distinct, (short, long)


def test_twice_the_lines_cost_twice_the_measuring(monkeypatch: pytest.MonkeyPatch) -> None:
    one, two, four = (_cost(monkeypatch, lines, LONG) for lines in (200, 400, 800))
    assert two - one <= one and four - two <= 2 * (two - one) + 64, (one, two, four)


def _text(document: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(document)).pages)


def test_a_long_name_is_cut_to_the_column_with_dots_and_a_short_one_is_whole() -> None:
    short = _text(pdf.render(_statement(3, SHORT)))
    assert short.count(SHORT) == 3 and "..." not in short
    long = _text(pdf.render(_statement(3, LONG)))
    cut = [line for line in long.splitlines() if "Wide Merchant" in line]
    assert len(cut) == 3 and "TAIL" not in long
    for line in cut:
        shown = line[line.index("Card purchase") : line.index("...")]
        assert LONG.startswith(shown) and 40 < len(shown) < 100, line

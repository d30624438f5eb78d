"""A statement as a printable PDF (fpdf2: pure Python, ~1 MB with its fonttools and Pillow
dependencies, no system libraries; WeasyPrint needs Pango and ReportLab's table layout was
more than a statement needs — docs/statements.md).

A4 portrait: the service's name and the statement's title, the holder, the account, the
period; opening balance, credits, debits, closing balance; one row per line (date,
description, amount, running balance), the header row repeated on every page; "Page n of N".
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from fpdf import FPDF

SERVICE = "cardservice"
_WIDTHS = (32, 92, 28, 28)  # date, description, amount, balance (mm; 180 of A4's 210)
ELLIPSIS = "..."  # the core fonts' Latin-1 has no ellipsis character


def _latin(text: str) -> str:
    """The core fonts' code page: what it cannot show becomes `?`."""
    return text.encode("latin-1", "replace").decode("latin-1")


def _money(amount: Decimal, currency: str, sign: str = "") -> str:
    return f"{sign}{amount:,.2f} {currency}"


class _Statement(FPDF):
    title_line = ""

    def __init__(self) -> None:
        super().__init__(format="A4")
        self.widths: dict[tuple[str, str, float], dict[str, float]] = {}  # by font, character

    def fitted(self, text: str, limit: float) -> str:
        """`text` cut to fit `limit` (mm) in the current font, `...` marking a cut. A core
        font's text is as wide as the sum of its characters: each character is measured once
        per document, and a text is read only as far as it fits, so a line costs the same
        however long its name (re-measuring every shorter prefix was quadratic in a long one)."""
        known = self.widths.setdefault((self.font_family, self.font_style, self.font_size_pt), {})
        total = 0.0
        for character in text:
            total += known[character] if character in known else self._measure(known, character)
            if total > limit:
                break
        else:
            return text
        room = limit - sum(self._measure(known, character) for character in ELLIPSIS)
        kept = 0
        for character in text:  # every character before the one that overflowed is known
            room -= known[character]
            if room < 0:
                break
            kept += 1
        return text[:kept] + ELLIPSIS

    def _measure(self, known: dict[str, float], character: str) -> float:
        if character not in known:
            known[character] = self.get_string_width(character)
        return known[character]

    def header(self) -> None:
        self.set_font("Helvetica", "B", 13)
        self.cell(0, 7, SERVICE, new_x="LMARGIN", new_y="NEXT")
        self.set_font("Helvetica", "", 9)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, _latin(self.title_line), new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0, 0, 0)
        self.set_draw_color(150, 150, 150)
        self.line(15, self.get_y() + 1, 195, self.get_y() + 1)
        self.ln(4)

    def footer(self) -> None:
        self.set_y(-14)
        self.set_font("Helvetica", "", 8)
        self.set_text_color(110, 110, 110)
        self.cell(0, 5, f"{SERVICE} - account statement", align="L")
        self.cell(0, 5, f"Page {self.page_no()} of {{nb}}", align="R")
        self.set_text_color(0, 0, 0)


def _table_header(pdf: FPDF) -> None:
    pdf.set_font("Helvetica", "B", 9)
    pdf.set_fill_color(232, 236, 242)
    for title, width, align in zip(
        ("Date (UTC)", "Description", "Amount", "Balance"), _WIDTHS, "LLRR", strict=True
    ):
        pdf.cell(width, 7, title, border="B", align=align, fill=True)
    pdf.ln()
    pdf.set_font("Helvetica", "", 9)


def render(statement: dict[str, Any]) -> bytes:
    """The statement's PDF."""
    account, currency = statement["account"], statement["currency"]
    period = statement["period"]
    end_day = (period["end"] - period["start"]).days
    pdf = _Statement()
    pdf.title_line = f"Account statement {period['month']} - {account['name']} ({currency})"
    pdf.set_margins(15, 12, 15)
    pdf.set_auto_page_break(True, margin=20)
    pdf.alias_nb_pages()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 9, "Account statement", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)
    for label, value in (
        ("Account holder", account["holder"]),
        ("Account", f"{account['name']} - {account['uuid']}"),
        ("Currency", currency),
        ("Issued", f"{statement['issued_at']:%d %B %Y, %H:%M} UTC"),
        (
            "Period",
            f"{period['start']:%d %B %Y} to {period['start'].replace(day=end_day):%d %B %Y} (UTC)",
        ),
    ):
        pdf.set_font("Helvetica", "B", 10)
        pdf.cell(34, 6, label)
        pdf.set_font("Helvetica", "", 10)
        pdf.cell(0, 6, _latin(str(value)), new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    pdf.set_fill_color(246, 247, 249)
    for label, value in (
        ("Opening balance", _money(statement["opening_balance"], currency)),
        ("Money in", _money(statement["credits"], currency, "+")),
        ("Money out", _money(statement["debits"], currency, "-")),
        ("Closing balance", _money(statement["closing_balance"], currency)),
    ):
        bold = "B" if "balance" in label else ""
        pdf.set_font("Helvetica", bold, 10)
        pdf.cell(60, 7, label, border="B", fill=True)
        pdf.cell(40, 7, value, border="B", align="R", fill=True, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(6)
    _table_header(pdf)
    pdf.cell(_WIDTHS[0], 6, f"{period['start']:%Y-%m-%d}")
    pdf.cell(_WIDTHS[1], 6, "Opening balance")
    pdf.cell(_WIDTHS[2], 6, "")
    pdf.cell(_WIDTHS[3], 6, f"{statement['opening_balance']:,.2f}", align="R")
    pdf.ln()
    for n, line in enumerate(statement["lines"]):
        if pdf.will_page_break(6):
            pdf.add_page()
            _table_header(pdf)
        fill = n % 2 == 0
        pdf.set_fill_color(250, 250, 251)
        sign = "+" if line["direction"] == "credit" else "-"
        description = pdf.fitted(_latin(line["description"]), _WIDTHS[1] - 2)
        pdf.cell(_WIDTHS[0], 6, f"{line['date']:%Y-%m-%d %H:%M}", fill=fill)
        pdf.cell(_WIDTHS[1], 6, description, fill=fill)
        pdf.cell(_WIDTHS[2], 6, f"{sign}{line['amount']:,.2f}", align="R", fill=fill)
        pdf.cell(_WIDTHS[3], 6, f"{line['balance']:,.2f}", align="R", fill=fill)
        pdf.ln()
    pdf.set_font("Helvetica", "B", 9)
    pdf.cell(_WIDTHS[0] + _WIDTHS[1] + _WIDTHS[2], 7, "Closing balance", border="T")
    pdf.cell(_WIDTHS[3], 7, f"{statement['closing_balance']:,.2f}", border="T", align="R")
    pdf.ln(10)
    pdf.set_font("Helvetica", "", 8)
    pdf.set_text_color(110, 110, 110)
    pdf.multi_cell(
        0,
        4,
        f"Amounts in {currency}. The balance is the money of this account and of the cards it "
        "funds; money moved between them is not a line. Authorized card purchases are "
        "debited when authorized; a release or a refund is a credit.",
    )
    return bytes(pdf.output())

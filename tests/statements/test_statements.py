"""Statements (docs/statements.md#statements): opening + lines = closing = the balance at the
month's end, to the cent, across month boundaries, with refunds, a foreign purchase, a dispute won
and fees; the PDF read back shows the same figures; own accounts, a team owner's read, everyone else
404."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import httpx
import pytest
from fastapi import FastAPI
from pypdf import PdfReader

from tests.factories import make_user
from tests.ledger.activity import activity

SEPT = datetime(2026, 9, 30, 23, 59, 59, tzinfo=UTC)
OCT = datetime(2026, 10, 1, 0, 0, 0, tzinfo=UTC)
OCT_LATE = datetime(2026, 10, 31, 23, 59, 59, 999999, tzinfo=UTC)
NOV = datetime(2026, 11, 1, tzinfo=UTC)


def _at(monkeypatch: pytest.MonkeyPatch, instant: datetime) -> None:
    monkeypatch.setattr("cardservice.ledger.entries.utcnow", lambda: instant)


async def _funds(app: FastAPI, account: uuid.UUID, before: datetime) -> Decimal:
    """The account's and its cards' postings before an instant, straight from the tables."""
    value = await app.state.db.reader.value(
        "SELECT coalesce(sum(p.amount), 0) FROM postings p"
        " JOIN journal_entries e ON e.id = p.entry_id"
        " WHERE (p.account_uuid = $1 OR p.card_uuid IN"
        " (SELECT uuid FROM cards WHERE account_uuid = $1)) AND e.created_at < $2",
        account,
        before,
    )
    return Decimal(int(value)).scaleb(-2)


async def _months(app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    _at(monkeypatch, SEPT)
    user, account, card = await activity(app, client)
    _at(monkeypatch, OCT)
    await activity(app, client, user)  # another card on another account of the same user
    _at(monkeypatch, OCT + timedelta(days=12))
    deposit = await client.post(
        "/sandbox/deposits",
        headers=user.headers,
        json={"account_uuid": str(account), "amount": 250},
    )
    assert deposit.status_code == 201, deposit.text
    purchase = await client.post(
        "/sandbox/authorizations",
        headers=user.headers,
        json={"card_uuid": card, "amount": 33.33, "currency": "USD", "merchant_name": "Café Ü"},
    )
    assert purchase.status_code == 201
    _at(monkeypatch, OCT_LATE)
    settled = await client.post(
        f"/sandbox/transactions/{purchase.json()['data']['uuid']}/settle", headers=user.headers
    )
    assert settled.status_code == 201
    refunded = await client.post(
        f"/sandbox/transactions/{purchase.json()['data']['uuid']}/refund",
        headers=user.headers,
        json={"amount": 3.33},
    )
    assert refunded.status_code == 201
    _at(monkeypatch, NOV)
    await client.post(
        "/sandbox/deposits", headers=user.headers, json={"account_uuid": str(account), "amount": 1}
    )
    return user, account


async def test_opening_plus_lines_is_closing_is_the_balance_at_the_months_end(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, account = await _months(app, client, monkeypatch)
    months = (
        ("2026-09", datetime(2026, 9, 1, tzinfo=UTC), OCT),
        ("2026-10", OCT, NOV),
        ("2026-11", NOV, datetime(2026, 12, 1, tzinfo=UTC)),
    )
    for month, start, end in months:
        response = await client.get(f"/account/{account}/statements/{month}", headers=user.headers)
        assert response.status_code == 200, response.text
        body = response.json()["data"]
        opening, closing = (
            Decimal(str(body["opening_balance"])),
            Decimal(str(body["closing_balance"])),
        )
        assert opening == await _funds(app, account, start)
        assert closing == await _funds(app, account, end)
        running = opening
        for line in body["lines"]:
            amount = Decimal(str(line["amount"]))
            assert amount > 0
            assert (
                line["transaction_uuid"] is None
                or str(uuid.UUID(line["transaction_uuid"])) == (line["transaction_uuid"])
            )
            running += amount if line["direction"] == "credit" else -amount
            assert Decimal(str(line["balance"])) == running
            assert start <= datetime.fromisoformat(line["date"].replace("Z", "+00:00")) < end
        assert running == closing
        credits = sum(
            (Decimal(str(x["amount"])) for x in body["lines"] if x["direction"] == "credit"),
            Decimal(0),
        )
        debits = sum(
            (Decimal(str(x["amount"])) for x in body["lines"] if x["direction"] == "debit"),
            Decimal(0),
        )
        assert (Decimal(str(body["credits"])), Decimal(str(body["debits"]))) == (credits, debits)
    september = (
        await client.get(f"/account/{account}/statements/2026-09", headers=user.headers)
    ).json()["data"]
    kinds = " | ".join(line["description"] for line in september["lines"])
    for word in ("Deposit", "Cards issued: fees", "Refund", "Dispute won", "EUR", "released"):
        assert word in kinds, kinds
    assert Decimal(str(september["opening_balance"])) == 0
    october = (
        await client.get(f"/account/{account}/statements/2026-10", headers=user.headers)
    ).json()["data"]
    assert [line["description"] for line in october["lines"]][-1] == "Refund: Café Ü"
    assert october["lines"][-1]["date"] == "2026-10-31T23:59:59Z"


async def test_the_pdf_shows_the_same_figures(
    app: FastAPI, client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    user, account = await _months(app, client, monkeypatch)
    data = (
        await client.get(f"/account/{account}/statements/2026-09", headers=user.headers)
    ).json()["data"]
    response = await client.get(f"/account/{account}/statements/2026-09.pdf", headers=user.headers)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "cardservice" in text and "Account statement" in text
    assert f"Page 1 of {len(reader.pages)}" in text
    assert str(account) in text and "Test User" in text
    assert "01 September 2026 to 30 September 2026" in text
    for figure in (data["opening_balance"], data["closing_balance"]):
        assert f"{Decimal(str(figure)):,.2f} USD" in text
    for line in data["lines"]:
        sign = "+" if line["direction"] == "credit" else "-"
        assert f"{sign}{Decimal(str(line['amount'])):,.2f}" in text
        assert f"{Decimal(str(line['balance'])):,.2f}" in text
        assert line["date"][:16].replace("T", " ") in text


async def test_owner_member_and_stranger(app: FastAPI, client: httpx.AsyncClient) -> None:
    team = f"team-{uuid.uuid4().hex[:6]}"
    owner = await make_user(app, team=team, role="owner")
    member = await make_user(app, team=team, role="member")
    stranger = await make_user(app)
    _user, account, _card = await activity(app, client, member)
    path = f"/account/{account}/statements/{datetime.now(UTC):%Y-%m}"
    assert (await client.get(path, headers=member.headers)).status_code == 200
    assert (await client.get(path, headers=owner.headers)).status_code == 200
    assert (await client.get(path + ".pdf", headers=owner.headers)).status_code == 200
    for who in (stranger,):
        for suffix in ("", ".pdf"):
            refused = await client.get(path + suffix, headers=who.headers)
            assert refused.status_code == 404 and refused.json()["code"] == "not_found"
    owners_account = (await activity(app, client, owner))[1]
    refused = await client.get(
        f"/account/{owners_account}/statements/2026-10", headers=member.headers
    )
    assert refused.status_code == 404
    assert (await client.get(path)).status_code == 401
    for month in ("2026-13", "2026-1", "26-10", "2026-10.txt"):
        bad = await client.get(f"/account/{account}/statements/{month}", headers=member.headers)
        assert bad.status_code == 404, month


async def test_a_month_is_four_ascii_digits_a_dash_and_01_to_12_within_1970_to_9998(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user, account, _card = await activity(app, client)
    before = await _funds(app, account, datetime.now(UTC) + timedelta(days=1))
    base = f"/account/{account}/statements"
    for month in ("1970-01", "9998-12"):
        for suffix in ("", ".pdf"):
            found = await client.get(f"{base}/{month}{suffix}", headers=user.headers)
            assert found.status_code == 200, (month, suffix)
    pdf = await client.get(f"{base}/9998-12.pdf", headers=user.headers)
    assert pdf.headers["content-disposition"] == 'inline; filename="statement-9998-12.pdf"'
    for month in (
        "9999-12",  # its month would end in year 10000
        "1969-12",
        "0000-01",
        "\uff12\uff10\uff12\uff16-11",  # full-width digits
        "\u0662\u0660\u0662\u0666-11",  # Arabic-Indic digits
        "2026-1\uff11",
        "2026-11%0A",  # a trailing newline, as a client sends it
        "2026-11%0D%0AX-Injected:%201",
        "2026-11%20",
        "+2026-11",
        "2026-11-01",
    ):
        for suffix in ("", ".pdf"):
            refused = await client.get(f"{base}/{month}{suffix}", headers=user.headers)
            assert refused.status_code == 404, (month, suffix, refused.status_code)
            assert refused.json() == {
                "success": False,
                "message": "Statement not found",
                "code": "not_found",
            }, month
            assert "content-disposition" not in refused.headers
            assert "x-injected" not in refused.headers
    assert await _funds(app, account, datetime.now(UTC) + timedelta(days=1)) == before

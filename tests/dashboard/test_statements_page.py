"""The statements page lists each readable account's months with their balances; its PDF link
downloads the API's statement through the session; another's account is the HTML 404 page."""

from __future__ import annotations

import io
import uuid
from datetime import UTC, datetime

import httpx
from fastapi import FastAPI
from pypdf import PdfReader

from cardservice.dashboard.statement_pages import months_between
from tests.dashboard.session import sign_in
from tests.factories import make_account, make_user


def test_months_run_newest_first_from_now_back_to_the_creation_month_at_most_24() -> None:
    now = datetime(2026, 2, 10, tzinfo=UTC)
    assert months_between("2025-11-30T23:00:00Z", now) == [
        "2026-02",
        "2026-01",
        "2025-12",
        "2025-11",
    ]
    assert months_between("2026-02-01T00:00:00Z", now) == ["2026-02"]
    many = months_between("2019-05-01T00:00:00Z", now)
    assert len(many) == 24 and many[0] == "2026-02" and many[-1] == "2024-03"


async def test_the_page_lists_the_account_and_month_and_the_pdf_shows_the_closing_balance(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    account = await make_account(app, user, funds="1234.56", name="Household")
    month = f"{datetime.now(UTC):%Y-%m}"
    await sign_in(client, user)
    page = await client.get("/app/statements")
    assert page.status_code == 200
    assert "Household" in page.text and f'data-month="{month}"' in page.text
    assert "1,234.56 USD" in page.text  # the month's closing balance
    assert 'href="/app/statements"' in page.text and 'aria-current="page"' in page.text
    link = f"/app/statements/{account}/{month}.pdf"
    assert f'href="{link}"' in page.text
    response = await client.get(link)
    assert response.status_code == 200 and response.content[:4] == b"%PDF"
    assert response.headers["content-type"] == "application/pdf"
    assert response.headers["content-disposition"] == (
        f'attachment; filename="statement-{account}-{month}.pdf"'
    )
    assert response.headers["cache-control"] == "no-store"
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)
    assert str(account) in text and "1,234.56 USD" in text


async def test_a_team_owner_sees_the_members_accounts_and_a_stranger_is_the_404_page(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    team = f"team-{uuid.uuid4().hex[:6]}"
    owner = await make_user(app, team=team, role="owner")
    member = await make_user(app, team=team, role="member")
    stranger = await make_user(app)
    members = await make_account(app, member, funds="10", name="Member's")
    strangers = await make_account(app, stranger, funds="10", name="Stranger's")
    month = f"{datetime.now(UTC):%Y-%m}"
    await sign_in(client, owner)
    page = (await client.get("/app/statements")).text
    assert f"/app/statements/{members}/{month}.pdf" in page and str(strangers) not in page
    assert (await client.get(f"/app/statements/{members}/{month}.pdf")).status_code == 200
    refused = await client.get(f"/app/statements/{strangers}/{month}.pdf")
    assert refused.status_code == 404
    assert refused.headers["content-type"].startswith("text/html")
    assert "%PDF" not in refused.text
    bad = await client.get(f"/app/statements/{members}/2026-13.pdf")
    assert bad.status_code == 404 and bad.headers["content-type"].startswith("text/html")


async def test_without_a_session_the_pages_send_to_sign_in(client: httpx.AsyncClient) -> None:
    for path in ("/app/statements", f"/app/statements/{uuid.uuid4()}/2026-01.pdf"):
        response = await client.get(path)
        assert response.status_code == 303 and response.headers["location"] == "/app/login"

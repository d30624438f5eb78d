"""The statements page: for each account the signed-in user may read (their own and, for a
team owner, the members'), its UTC months from the account's creation to now, newest first,
each with the printable PDF, downloaded through the dashboard so the session authenticates it.

The opening and closing balances come from the API's JSON statement, one request per month,
so they are shown only while the page lists few months (`BALANCE_MONTHS`); past that the page
gives the links alone and the PDF carries the figures.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Path, Request
from fastapi.responses import Response

from cardservice.dashboard.api import Api
from cardservice.dashboard.views import as_user, show
from cardservice.dashboard.web import finish
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
AccountUuid = Annotated[str, Path(alias="accountUuid", pattern=UUID_PATTERN)]
Month = Annotated[str, Path(pattern=r"^[0-9]{4}-(0[1-9]|1[0-2])$")]  # ASCII digits only
MAX_MONTHS = 24  # months listed per account, newest first
BALANCE_MONTHS = 24  # balances are read while the page lists at most this many months
ACCOUNTS_PER_PAGE = 100  # the page lists the first 100 accounts of each kind


def months_between(created: str, now: datetime) -> list[str]:
    """`YYYY-MM` from `now`'s UTC month back to the month of `created` (ISO), at most 24."""
    year, month = int(created[:4]), int(created[5:7])
    first = year * 12 + month - 1
    current = now.year * 12 + now.month - 1
    return [
        f"{index // 12:04d}-{index % 12 + 1:02d}"
        for index in range(current, max(first, current - MAX_MONTHS + 1) - 1, -1)
    ]


async def _balances(api: Api, account: dict[str, Any], month: str) -> dict[str, Any]:
    body = (await api.body(f"/account/{account['uuid']}/statements/{month}"))["data"]
    return {"opening": body["opening_balance"], "closing": body["closing_balance"]}


@router.get("/statements")
async def statements(request: Request) -> Response:
    """Each readable account with its months and their PDFs (and balances, when few)."""

    async def build(api: Api) -> dict[str, Any]:
        body = (await api.body("/accounts", {"per_page": ACCOUNTS_PER_PAGE}))["data"]
        now = datetime.now(UTC)
        groups = []
        for owned, rows in ((True, body["items"]), (False, body["related_team_accounts"])):
            for account in rows:
                months = months_between(str(account["created_at"]), now)
                groups.append({"account": account, "own": owned, "months": months})
        with_balances = sum(len(group["months"]) for group in groups) <= BALANCE_MONTHS
        for group in groups:
            group["rows"] = [
                {
                    "month": month,
                    "label": datetime.strptime(month, "%Y-%m").strftime("%B %Y"),
                    **(await _balances(api, group["account"], month) if with_balances else {}),
                }
                for month in group["months"]
            ]
        return {"title": "Statements", "groups": groups, "with_balances": with_balances}

    return await show(request, "statements.html", build)


@router.get("/statements/{accountUuid}/{month}.pdf")
async def statement_pdf(request: Request, account_uuid: AccountUuid, month: Month) -> Response:
    """One month's printable statement of a readable account, as a download."""

    async def fetch(api: Api) -> Response:
        answer = await api.response(f"/account/{account_uuid}/statements/{month}.pdf")
        name = f"statement-{account_uuid}-{month}.pdf"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return finish(
            request, Response(answer.content, media_type="application/pdf", headers=headers)
        )

    return await as_user(request, fetch)

"""The Team page (docs/teams.md#teams-budgets-requests-receipts): for a team's owner, the members'
budgets (spent and remaining as bars), the pending requests with approve and decline, the purchases
missing receipts, and a budget form; for a member, their budget, their requests and the forms that
ask for a card or more budget. And "Add receipt" on a transaction: the file uploaded (`POST
/attachment`) and linked (`PUT /transaction/{uuid}/receipt`) in one step. Every rule and refusal is
the API's; the page only reads and forwards."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.attachment_pages import read_upload
from cardservice.dashboard.buy_pages import typed_number
from cardservice.dashboard.card_spend import budget_meter
from cardservice.dashboard.views import act, field_errors, show
from cardservice.dashboard.web import amount_input, redirect, render
from cardservice.http.router import Router
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
RequestUuid = Annotated[str, Path(alias="requestUuid", pattern=UUID_PATTERN)]
TransactionUuid = Annotated[str, Path(alias="transactionUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
NOTICES = {
    "budget": "The budget is set.",
    "approved": "The request is approved and carried out.",
    "declined": "The request is declined.",
    "asked": "Your request is sent to the team's owner.",
    "policy": "The receipt policy is saved.",
}
RECEIPT_TYPES = ("receipt", "invoice", "photo")


def _people(accounts: list[dict[str, Any]], budgets: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The team's other people as the owner reads them: each with their accounts' count and
    balances per currency, and their budget when one is set."""
    by_budget = {str(b["member"]["uuid"]): b for b in budgets}
    people: dict[str, dict[str, Any]] = {}
    for account in accounts:
        owner = account["owner"]
        person = people.setdefault(
            str(owner["uuid"]),
            {"name": owner["name"], "accounts": 0, "balances": {}, "cards": 0},
        )
        person["accounts"] += 1
        person["cards"] += int(account.get("cards_count") or 0)
        currency = account["currency"]
        person["balances"][currency] = person["balances"].get(currency, 0) + Decimal(
            str(account["balance"])
        )
    return [
        {**person, "uuid": key, "budget": by_budget.get(key)}
        for key, person in sorted(people.items(), key=lambda item: item[1]["name"])
    ]


async def _policy(api: Api) -> dict[str, Any] | None:
    """The team's receipt policy (`GET /team/receipt-policy`), None while none is set."""
    try:
        return dict((await api.body("/team/receipt-policy"))["data"])
    except ApiError as error:
        if error.status_code == 404:
            return None
        raise


def _policy_values(policy: dict[str, Any] | None, currencies: list[str]) -> dict[str, str]:
    """The receipt policy form filled from the policy (a suggestion while there is none)."""
    if policy is None:
        return {"min_amount": "25", "currency": currencies[0], "remind": "3", "freeze": "7"}
    return {
        "min_amount": str(policy["min_amount"]),
        "currency": policy["currency"],
        "remind": str(policy["remind_after_days"]),
        "freeze": str(policy["freeze_after_days"]),
    }


async def _role(api: Api) -> tuple[str | None, str | None]:
    """The user's team name and role, (None, None) outside a team."""
    team = (await api.body("/user/summary"))["data"]["user"]["team"]
    return (None, None) if team is None else (team["name"], team["role"])


async def _team_accounts(api: Api) -> list[dict[str, Any]]:
    """The accounts of the team's other users, as their owner reads them."""
    body = await api.body("/accounts", {"per_page": 100})
    return list(body["data"]["related_team_accounts"])


def _members(accounts: list[dict[str, Any]]) -> list[dict[str, str]]:
    """The team's members an owner can set a budget for: the owners of the team's accounts."""
    found = {str(a["owner"]["uuid"]): a["owner"]["name"] for a in accounts}
    return [
        {"uuid": uuid_, "name": name} for uuid_, name in sorted(found.items(), key=lambda m: m[1])
    ]


async def _team(api: Api, done: str = "") -> dict[str, Any]:
    name, role = await _role(api)
    context: dict[str, Any] = {"title": "Team", "team": name, "role": role, "errors": {}}
    context["notice"] = NOTICES.get(done)
    if name is None:
        return context
    budgets = [budget_meter(b) for b in (await api.body("/team/budgets"))["data"]]
    requests = (await api.body("/team/requests", {"per_page": 50}))["data"]
    missing = (await api.body("/team/missing-receipts", {"limit": 50}))["data"]
    context.update(budgets=budgets, requests=requests, missing=missing)
    if role == "owner":
        accounts = await _team_accounts(api)
        context["members"] = _members(accounts)
        context["currencies"] = sorted({a["currency"] for a in accounts}) or ["USD"]
        context["team_accounts"] = {str(a["uuid"]): a for a in accounts}
        context["pending"] = [r for r in requests if r["status"] == "pending"]
        context["people"] = _people(accounts, budgets)
        context["policy"] = await _policy(api)
        context["policy_values"] = _policy_values(context["policy"], context["currencies"])
    else:
        context["accounts"] = (await api.body("/accounts", {"per_page": 100}))["data"]["items"]
        bins = (await api.body("/dictionary/bins"))["data"]
        context["bins"] = [b for b in bins if b["status"] == "available"]
    return context


@router.get("/team")
async def team(request: Request, done: Done = "") -> Response:
    """The team as the signed-in user may see it (owner or member)."""
    return await show(request, "team.html", lambda api: _team(api, done))


async def _refused(request: Request, api: Api, error: ApiError, default: str) -> Response:
    """The page again with the API's refusal next to the fields it names."""
    if error.status_code not in (404, 409, 422):
        raise error
    context = await _team(api)
    context["errors"] = field_errors(error, default)
    return render(request, "team.html", context, status_code=error.status_code)


@router.post("/team/budget")
async def set_budget(request: Request) -> Response:
    """The owner sets a member's monthly budget (`PUT /team/members/{uuid}/budget`)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        body = {"amount": _number(form.get("amount", "")), "currency": form.get("currency", "")}
        member = form.get("member", "")
        try:
            await api.send("PUT", f"/team/members/{member}/budget", body)
        except ApiError as error:
            return await _refused(request, api, error, "amount")
        return redirect(request, "/app/team?done=budget#notice")

    return await act(request, action)


@router.post("/team/receipt-policy")
async def set_receipt_policy(request: Request) -> Response:
    """The owner sets the team's receipt policy (`PUT /team/receipt-policy`)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        body = {
            "min_amount": _number(form.get("min_amount", "")),
            "currency": form.get("currency", ""),
            "remind_after_days": typed_number(form.get("remind", "").strip()),
            "freeze_after_days": typed_number(form.get("freeze", "").strip()),
        }
        try:
            await api.send("PUT", "/team/receipt-policy", body)
        except ApiError as error:
            return await _refused(request, api, error, "policy")
        return redirect(request, "/app/team?done=policy#notice")

    return await act(request, action)


@router.post("/team/requests/{requestUuid}/approve")
async def approve(request: Request, request_uuid: RequestUuid) -> Response:
    """The owner approves a request: the API carries it out."""
    return await _decide(request, request_uuid, "approve")


@router.post("/team/requests/{requestUuid}/decline")
async def decline(request: Request, request_uuid: RequestUuid) -> Response:
    """The owner declines a request."""
    return await _decide(request, request_uuid, "decline")


async def _decide(request: Request, request_uuid: str, decision: str) -> Response:
    async def action(api: Api, form: dict[str, str]) -> Response:
        body: dict[str, Any] | None = {} if decision == "decline" else None
        try:
            await api.send("POST", f"/team/requests/{request_uuid}/{decision}", body)
        except ApiError as error:
            return await _refused(request, api, error, "request")
        return redirect(request, f"/app/team?done={decision}d#notice")

    return await act(request, action)


@router.post("/team/requests")
async def ask(request: Request) -> Response:
    """A member asks for a card or more budget (`POST /team/requests`)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        try:
            await api.send("POST", "/team/requests", _request_body(form))
        except ApiError as error:
            return await _refused(request, api, error, "kind")
        return redirect(request, "/app/team?done=asked#notice")

    return await act(request, action)


def _number(text: str) -> Decimal | str:
    """A typed amount, exact (`web.amount_input`); anything else as typed, for the API."""
    return amount_input(text)


def _request_body(form: dict[str, str]) -> dict[str, Any]:
    if form.get("kind") == "card":
        body: dict[str, Any] = {
            "kind": "card",
            "account_uuid": form.get("account_uuid", ""),
            "bin_uuid": form.get("bin_uuid", ""),
            "start_balance": _number(form.get("start_balance") or "0"),
        }
        if form.get("description"):
            body["description"] = form["description"]
        return body
    body = {
        "kind": "budget_increase",
        "amount": _number(form.get("amount", "")),
        "currency": form.get("currency", ""),
    }
    if form.get("reason"):
        body["reason"] = form["reason"]
    return body


@router.post("/transactions/{transactionUuid}/receipt")
async def add_receipt(request: Request, transaction_uuid: TransactionUuid) -> Response:
    """Upload the chosen file and link it to the transaction as its receipt, in one step."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        kind = form["type"] if form["type"] in RECEIPT_TYPES else "receipt"
        uploaded = await api.send("POST", "/attachment", {"type": kind, "file": form["file"]})
        body = {"attachment_uuid": uploaded["data"]["uuid"]}
        await api.send("PUT", f"/transaction/{transaction_uuid}/receipt", body)
        return redirect(request, f"/app/transactions/{transaction_uuid}?done=receipt#notice")

    return await act(request, action, read=read_upload)

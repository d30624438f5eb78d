"""The operator console's actions (docs/operations.md#the-operator-console), each behind a
confirmation page: a card frozen, unfrozen or replaced, an account credited — through the
operator API's own use cases (`operator.card_actions`, `operator.funding`), so the rules, the
events and the audit rows are the API's; the actor is the console session.

A credit carries an `external_id` chosen when its confirmation page is drawn: confirming
twice (a double click, a reload) books it once."""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from typing import Annotated, Any, Literal, get_args

from fastapi import Path, Request
from fastapi.responses import Response

from cardservice.cards import ReplaceCardRequest, get_card, holder_of
from cardservice.dashboard.console import act, as_api, show
from cardservice.dashboard.web import CONSOLE_PATH, redirect, render
from cardservice.errors import CardNotFound
from cardservice.http.router import Router
from cardservice.models.base import utcnow
from cardservice.operator import Acting, MoneyRequest, card_actions, funding
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix=CONSOLE_PATH, include_in_schema=False)
CardUuid = Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)]
AccountUuid = Annotated[str, Path(alias="accountUuid", pattern=UUID_PATTERN)]
CardAction = Literal["freeze", "unfreeze", "replace"]
REASONS = get_args(ReplaceCardRequest.model_fields["reason"].annotation)
VERBS = {"freeze": "Freeze", "unfreeze": "Unfreeze", "replace": "Replace"}


async def _card(request: Request, card: uuid.UUID) -> dict[str, Any]:
    """Any holder's card as its holder reads it; 404 for no such card."""
    reader = request.app.state.db.reader
    holder = await holder_of(reader, card)
    if holder is None:
        raise CardNotFound()
    record: dict[str, Any] = as_api(await get_card(reader, holder, card))
    return record


def _found(card: dict[str, Any]) -> str:
    """The cards page, searched for the card's last four digits."""
    return f"{CONSOLE_PATH}/cards?filters%5Bsearch%5D={card['mask'][-4:]}"


@router.get("/cards/{cardUuid:uuid36}/{action}")
async def confirm_card_action(
    request: Request, card_uuid: CardUuid, action: CardAction
) -> Response:
    """The confirmation page of a card action: which card, and what will happen."""

    async def build() -> dict[str, Any]:
        card = await _card(request, uuid.UUID(card_uuid))
        return {"title": f"{VERBS[action]} card {card['mask']}", "card": card,
                "action": action, "reasons": REASONS}  # fmt: skip

    return await show(request, "console/card_confirm.html", build)


@router.post("/cards/{cardUuid:uuid36}/{action}")
async def card_action(request: Request, card_uuid: CardUuid, action: CardAction) -> Response:
    """Do the confirmed card action as the operator API does; back to the card in the list."""
    card, db, cipher = uuid.UUID(card_uuid), request.app.state.db, request.app.state.cipher

    async def work(by: Acting, form: dict[str, str]) -> Response:
        now = utcnow()
        if action == "replace":
            reason = ReplaceCardRequest.model_validate({"reason": form.get("reason", "")}).reason
            record = await db.transact(
                lambda tx: card_actions.replace_holders_card(tx, cipher, by, card, reason, now)
            )
        else:
            frozen = action == "freeze"
            record = await db.transact(
                lambda tx: card_actions.set_card_frozen(tx, by, card, frozen, now)
            )
        return redirect(request, _found(record))

    return await act(request, work)


async def _account(request: Request, account: uuid.UUID) -> dict[str, Any]:
    """Any holder's account as the operator API reads it; 404 for no such account."""
    record: dict[str, Any] = as_api(await funding.account_of(request.app.state.db.reader, account))
    return record


def _amount(text: str) -> Any:
    """The form's amount as the API would read it from JSON (an exact number), or the text
    itself, which the request model then refuses."""
    try:
        return json.loads(text.strip(), parse_float=Decimal)
    except ValueError:
        return text


@router.get("/accounts/{accountUuid:uuid36}/credit")
async def credit_form(request: Request, account_uuid: AccountUuid) -> Response:
    """The credit form: how much arrived, and a description for the statement."""

    async def build() -> dict[str, Any]:
        account = await _account(request, uuid.UUID(account_uuid))
        return {"title": f"Credit {account['name']}", "account": account, "step": "form"}

    return await show(request, "console/credit.html", build)


@router.post("/accounts/{accountUuid:uuid36}/credit")
async def credit(request: Request, account_uuid: AccountUuid) -> Response:
    """First the confirmation (the amount checked, an external id chosen); once confirmed, the
    credit through `funding.move_money`, idempotent by that external id."""
    account_id, db = uuid.UUID(account_uuid), request.app.state.db

    async def work(by: Acting, form: dict[str, str]) -> Response:
        account = await _account(request, account_id)
        body = MoneyRequest.model_validate({
            "amount": _amount(form.get("amount", "")),
            "external_id": form.get("external_id") or f"console-{uuid.uuid4()}",
            "description": form.get("description") or None,
        })  # fmt: skip
        if form.get("confirmed") != "yes":
            context = {"title": f"Credit {account['name']}", "account": account,
                       "step": "confirm", "body": body}  # fmt: skip
            return render(request, "console/credit.html", context)
        await funding.move_money(db, by, "credit", account_id, body)
        return redirect(
            request, f"{CONSOLE_PATH}/accounts?filters%5Buser_uuid%5D={account['owner']['uuid']}"
        )

    return await act(request, work)

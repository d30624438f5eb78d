"""The cards pages: the list, one card with its controls, and closing it for good.

Every change is `PATCH /card/{cardUuid}` of the API (docs/controls.md#lifecycle-patch-cardcarduuid),
sent as the signed-in user: the rules, and the messages of what they refuse, are the API's. A team
owner sees every card of each member the API lists them (`GET /team/cards`: the cards of the
team's members, never another owner's) and opens each on a page of its own with what an owner may
do: freeze, unfreeze, close, the description and the spending controls
(docs/teams.md#a-team-owner-and-the-members-cards).
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated, Any

from fastapi import Path, Query, Request
from fastapi.responses import Response

from cardservice.cards.controls import LIMITS, LISTS
from cardservice.dashboard import card_spend
from cardservice.dashboard.api import Api, ApiError
from cardservice.dashboard.pages import PageNumber
from cardservice.dashboard.token_pages import NOTICES as TOKEN_NOTICES
from cardservice.dashboard.transaction_pages import row_context
from cardservice.dashboard.views import act, as_user, field_errors, page_links, show
from cardservice.dashboard.web import amount_input, redirect, render
from cardservice.http.router import Router
from cardservice.tokens import WALLET_NAMES
from cardservice.values.patterns import UUID_PATTERN

router = Router(prefix="/app", include_in_schema=False)
CardUuid = Annotated[str, Path(alias="cardUuid", pattern=UUID_PATTERN)]
Done = Annotated[str, Query(max_length=16)]
NOTICES = {
    "frozen": "The card is frozen: every authorization on it is declined until you unfreeze it.",
    "active": "The card is active again.",
    "closed": "The card is closed; its balance went back to its account.",
    "controls": "The spending controls are saved.",
    "removed": "Every spending control of this card is removed.",
    "bought": "Your new card is ready.",
    "settings": "The description and automatic top-up are saved.",
    "description": "The description is saved.",
    "activated": "The card is activated: it can pay now.",
    "pin": "The PIN is set: encrypted in your browser, kept by the service as a check value only.",
    **TOKEN_NOTICES,
}
# Where on the card page each notice shows (`card.html`): the section the form was in.
NOTICE_AT = {
    "controls": "controls",
    "removed": "controls",
    "settings": "settings",
    "description": "settings",
    "activated": "physical",
    "pin": "physical",
    **{done: "wallets" for done in TOKEN_NOTICES},
}
FULFILMENT_STEPS = ("ordered", "printed", "shipped", "delivered")
CONTROL_LABELS = {
    "per_authorization": "Per payment",
    "daily": "Per UTC day",
    "weekly": "Per ISO week",
    "monthly": "Per calendar month",
    "lifetime": "Over the card's life",
    "atm_per_day": "ATM withdrawals per day",
    "allowed_tags": "Only these merchant tags",
    "blocked_tags": "Never these merchant tags",
    "allowed_countries": "Only these countries",
    "blocked_countries": "Never these countries",
}


@router.get("/cards")
async def cards(request: Request, page: PageNumber = 1, done: Done = "") -> Response:
    """The user's cards in their order, with freeze and unfreeze; the team's, read-only."""

    async def build(api: Api) -> dict[str, Any]:
        body = await api.body("/card", {"page": page, "per_page": 20})
        return {
            "title": "Cards",
            "cards": body["data"]["cards"],
            "team_cards": await _team_cards(request, api),
            "pages": page_links(body["meta"]),
            "total": body["meta"]["total"],
            "notice": "Your new cards are ready." if done == "bought" else None,
            "ask_for_cards": await asks_for_cards(request, api),
        }

    return await show(request, "cards.html", build)


async def _team_cards(request: Request, api: Api) -> list[dict[str, Any]]:
    """A team owner's members' cards (`GET /team/cards`, up to 500): every card of each member
    that is not closed. Nobody else has any to see."""
    team = request.state.summary["user"]["team"]
    if team is None or team["role"] != "owner":
        return []
    return list((await api.body("/team/cards", {"per_page": 500}))["data"]["cards"])


async def asks_for_cards(request: Request, api: Api) -> bool:
    """A team member whose team's card policy is `request` (`GET /team/card-policy`,
    docs/teams.md): they ask the owner for a card instead of buying one. Without a policy
    (or where the service has none to read), members buy as the API lets them."""
    team = request.state.summary["user"]["team"]
    if team is None or team["role"] != "member":
        return False
    try:
        policy = (await api.body("/team/card-policy"))["data"]
    except ApiError:
        return False
    return bool(policy.get("member_cards") == "request")


def _form_values(card: dict[str, Any]) -> dict[str, str]:
    """The controls form filled from the card's current controls (empty: none)."""
    controls = card["spending_controls"] or {}
    values = {name: "" if controls.get(name) is None else str(controls[name]) for name in LIMITS}
    for name in LISTS:
        values[name] = ", ".join(controls.get(name) or ())
    return values


async def _card_page(request: Request, api: Api, card_uuid: str) -> tuple[str, dict[str, Any]]:
    """The card page's template and context: the holder's own page (`card.html`), or — for a
    team owner reading a member's card — the owner's (`card_owner.html`)."""
    card = (await api.body(f"/card/{card_uuid}"))["data"]
    account = (await api.body(f"/account/{card['account_uuid']}"))["data"]
    if str(account["owner"]["uuid"]) == str(request.state.summary["user"]["uuid"]):
        return "card.html", await _card_context(api, card)
    return "card_owner.html", await _owner_context(api, card, account["owner"]["name"])


async def _owner_context(api: Api, card: dict[str, Any], holder: str) -> dict[str, Any]:
    """A member's card as the team's owner manages it: no number, no transactions, no wallets
    (the holder's), this month's spend and the spend against its limits from the team's reads."""
    month = datetime.now(UTC).date().replace(day=1)
    return {
        "title": f"{holder}'s card {card['mask']}",
        "card": card,
        "holder": holder,
        "values": _form_values(card),
        "settings": {"description": card.get("description") or ""},
        "labels": CONTROL_LABELS,
        "limits": LIMITS,
        "spend": await card_spend.team_spend_against_limits(api, card),
        "month_spend": await card_spend.team_card_spend(api, card, month),
        "month_name": month.strftime("%B %Y"),
        "notice": None,
        "notice_at": "head",
        "errors": {},
    }


async def _card_context(api: Api, card: dict[str, Any]) -> dict[str, Any]:
    card_uuid = str(card["uuid"])
    recent = await api.body("/transaction/report", {"filters[card_uuid]": card_uuid, "per_page": 5})
    return {
        "title": f"Card {card['mask']}",
        "card": card,
        "values": _form_values(card),
        "settings": _settings_values(card),
        "labels": CONTROL_LABELS,
        "limits": LIMITS,
        "spend": await card_spend.spend_against_limits(api, card),
        "notice": None,
        "notice_at": "head",
        "transactions": row_context(recent["data"], {card_uuid: card["mask"]}),
        "transactions_total": recent["meta"]["total"],
        "tokens": (await api.body(f"/card/{card_uuid}/tokens"))["data"],
        "pin_key": await _pin_key(api, card),
        "steps": FULFILMENT_STEPS,
        "wallet_names": WALLET_NAMES,
        "errors": {},
    }


async def _pin_key(api: Api, card: dict[str, Any]) -> dict[str, Any] | None:
    """The PIN key the page encrypts a new PIN with (`GET /card/pin-key`), for a physical card
    that is not closed; None otherwise, or when the service has no PIN keys."""
    if card["form"] != "physical" or card["status"] == "closed":
        return None
    try:
        key: dict[str, Any] = (await api.body("/card/pin-key"))["data"]
    except ApiError:
        return None
    return key


def _settings_values(card: dict[str, Any]) -> dict[str, str]:
    """The description and auto-replenish form filled from the card."""
    replenish = card.get("auto_replenish") or {}
    return {
        "description": card.get("description") or "",
        "auto_replenish": "on" if replenish.get("enabled") else "",
        "auto_replenish_amount": str(replenish.get("amount") or ""),
        "auto_replenish_min_balance": str(replenish.get("min_balance") or ""),
    }


@router.get("/cards/{cardUuid}")
async def card(request: Request, card_uuid: CardUuid, done: Done = "") -> Response:
    """One of the user's cards: its status and actions, and its spending controls form; a team
    member's card, for the team's owner, with the owner's actions."""

    async def draw(api: Api) -> Response:
        template, context = await _card_page(request, api, card_uuid)
        context.update(notice=NOTICES.get(done), notice_at=NOTICE_AT.get(done, "head"))
        return render(request, template, context)

    return await as_user(request, draw)


async def _patch(api: Api, card_uuid: str, change: dict[str, Any]) -> None:
    await api.send("PATCH", f"/card/{card_uuid}", change)


def _back(card_uuid: str, form: dict[str, str], done: str) -> str:
    """Back to the list or to the card, whichever the form was on."""
    if form.get("back") == "list":
        return "/app/cards"
    return f"/app/cards/{card_uuid}?done={done}#notice"


async def _set_status(request: Request, card_uuid: str, status: str) -> Response:
    async def action(api: Api, form: dict[str, str]) -> Response:
        await _patch(api, card_uuid, {"status": status})
        return redirect(request, _back(card_uuid, form, status))

    return await act(request, action)


@router.post("/cards/{cardUuid}/freeze")
async def freeze(request: Request, card_uuid: CardUuid) -> Response:
    """Freeze the card (`PATCH` status `frozen`)."""
    return await _set_status(request, card_uuid, "frozen")


@router.post("/cards/{cardUuid}/unfreeze")
async def unfreeze(request: Request, card_uuid: CardUuid) -> Response:
    """Unfreeze the card (`PATCH` status `active`)."""
    return await _set_status(request, card_uuid, "active")


@router.get("/cards/{cardUuid}/close")
async def close_page(request: Request, card_uuid: CardUuid) -> Response:
    """The confirmation step: closing is final, and this balance returns to this account."""

    async def build(api: Api) -> dict[str, Any]:
        found = (await api.body(f"/card/{card_uuid}"))["data"]
        account = (await api.body(f"/account/{found['account_uuid']}"))["data"]
        return {"title": f"Close card {found['mask']}", "card": found, "account": account}

    return await show(request, "card_close.html", build)


@router.post("/cards/{cardUuid}/close")
async def close(request: Request, card_uuid: CardUuid) -> Response:
    """Close the card for good (`PATCH` status `closed`)."""

    async def action(api: Api, _form: dict[str, str]) -> Response:
        await _patch(api, card_uuid, {"status": "closed"})
        return redirect(request, f"/app/cards/{card_uuid}?done=closed#notice")

    return await act(request, action)


def _amount(text: str) -> Decimal | str | None:
    """An amount field as the API reads it: empty → no limit; else `web.amount_input`."""
    text = text.strip()
    return amount_input(text) if text else None


def _items(text: str, name: str) -> list[str]:
    """A comma- or space-separated list (country codes in capitals)."""
    items = [item for item in text.replace(",", " ").split() if item]
    return [item.upper() for item in items] if name.endswith("countries") else items


def _controls(form: dict[str, str]) -> dict[str, Any]:
    """The `spending_controls` object of the form: an empty allow-list means any."""
    controls: dict[str, Any] = {name: _amount(form.get(name, "")) for name in LIMITS}
    for name in LISTS:
        items = _items(form.get(name, ""), name)
        controls[name] = items if items or name.startswith("blocked") else None
    return controls


@router.post("/cards/{cardUuid}/controls")
async def save_controls(request: Request, card_uuid: CardUuid) -> Response:
    """Set the card's spending controls, or remove them all; refusals shown by their fields."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        removing = form.get("remove") == "all"
        try:
            controls = None if removing else _controls(form)
            await _patch(api, card_uuid, {"spending_controls": controls})
        except ApiError as error:
            if error.status_code != 422:
                raise
            template, context = await _card_page(request, api, card_uuid)
            errors = field_errors(error, "controls", within="spending_controls")
            context.update(values=form, errors=errors)
            return render(request, template, context, status_code=422)
        done = "removed" if removing else "controls"
        return redirect(request, f"/app/cards/{card_uuid}?done={done}#notice")

    return await act(request, action)


def _settings(form: dict[str, str]) -> dict[str, Any]:
    """The `PATCH` body of the settings form: description (empty: none) and auto-replenish;
    the owner's form of a member's card sends the description only (`fields=description`:
    an owner changes no more)."""
    description = form.get("description", "").strip()
    if form.get("fields") == "description":
        return {"description": description}
    enabled = form.get("auto_replenish") == "on"
    replenish: dict[str, Any] = {"enabled": enabled}
    if enabled:  # an empty amount is sent as typed, for the API to name the field
        for name in ("amount", "min_balance"):
            text = form.get(f"auto_replenish_{name}", "").strip()
            replenish[name] = _amount(text) if text else ""
    return {"description": description, "auto_replenish": replenish}


@router.post("/cards/{cardUuid}/settings")
async def save_settings(request: Request, card_uuid: CardUuid) -> Response:
    """Set the card's description and auto-replenish; refusals shown by their fields."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        change = _settings(form)
        try:
            await _patch(api, card_uuid, change)
        except ApiError as error:
            if error.status_code != 422:
                raise
            template, context = await _card_page(request, api, card_uuid)
            errors = {
                ("auto_replenish_" + key if key in ("amount", "min_balance", "enabled") else key): v
                for key, v in field_errors(error, "settings", within="auto_replenish").items()
            }
            context.update(settings=form, settings_errors=errors)
            return render(request, template, context, status_code=422)
        done = "settings" if "auto_replenish" in change else "description"
        return redirect(request, f"/app/cards/{card_uuid}?done={done}#notice")

    return await act(request, action)


@router.post("/cards/{cardUuid}/activate")
async def activate(request: Request, card_uuid: CardUuid) -> Response:
    """Activate a physical card with its last four digits (`POST /card/{cardUuid}/activate`;
    wrong digits are counted by the API, docs/cards.md#activation)."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        last4 = form.get("last4", "").strip()
        await api.send("POST", f"/card/{card_uuid}/activate", {"last4": last4})
        return redirect(request, f"/app/cards/{card_uuid}?done=activated#notice")

    return await act(request, action)


@router.post("/cards/{cardUuid}/pin")
async def set_pin(request: Request, card_uuid: CardUuid) -> Response:
    """Set the card's PIN (`PUT /card/{cardUuid}/pin`, docs/cards.md#the-pin): the page's script
    encrypted it in the browser under the PIN key (RSA-OAEP, SHA-256) and posts only that
    envelope and the key's id; a step-up code is minted and spent at once, as for the card's
    details. The PIN itself never reaches this process."""

    async def action(api: Api, form: dict[str, str]) -> Response:
        body = {"key_id": form.get("key_id", ""), "encrypted_pin": form.get("encrypted_pin", "")}
        code = (await api.send("POST", "/auth/mfa-code"))["data"]["code"]
        await api.send("PUT", f"/card/{card_uuid}/pin", {**body, "mfa_code": code})
        return redirect(request, f"/app/cards/{card_uuid}?done=pin#notice")

    return await act(request, action)

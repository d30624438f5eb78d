"""Team rules (docs/teams.md#teams-budgets-requests-receipts): who may do what, budgets, and
requests decided by the owner.

* Only a team's `owner` manages (sets budgets, decides requests, sets the receipt policy); a
  member reads what concerns them (their budget, their requests); anybody else — a user of
  another team or of none, a member reaching for what only the owner may do — gets 404.
* A budget is a member's monthly amount in one currency the member holds an account in;
  what it has spent is read from the card limits' counter (transactions/budgets.py).
* A request is made by a member; the owner approves it (carried out in the same unit as
  the decision: the card bought by `cards.purchase.buy_cards`, the entry of `POST
  /card/buy`; the month's budget raised) or declines it. A decided request is final
  (`request_decided`, 409), also when two owners approve at once: the request row is locked
  after what the approval locks (the account, the budget: docs/ledger.md, "Lock order") and
  read again under that lock. Nobody decides their own request.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson

from cardservice.auth import Principal
from cardservice.cards import BuyCardsRequest, buy_cards
from cardservice.db.paging import Offset
from cardservice.db.sql import Reader, Row, Tx
from cardservice.encoding import dumps
from cardservice.errors import (
    AccountNotFound,
    NotFound,
    RuleViolation,
    ServiceError,
    ValidationFailed,
)
from cardservice.ledger.minor_units import from_minor, to_minor
from cardservice.security import CardCipher
from cardservice.teams import repository
from cardservice.teams.records import budget_record, request_record
from cardservice.teams.schemas import CreateTeamRequest
from cardservice.transactions import lock_budget
from cardservice.transactions.budgets import month_amount, month_of, month_start

CARD_FIELDS = ("account_uuid", "bin_uuid", "start_balance", "description")
INCREASE_FIELDS = ("amount", "currency", "reason")


class TeamNotFound(NotFound):
    message = "Not found: only a team's owner manages the team."


class MemberNotFound(NotFound):
    message = "No such member of your team."


class RequestNotFound(NotFound):
    message = "Team request not found."


class BudgetNotFound(NotFound):
    message = "The member has no budget."


class RequestDecided(ServiceError):
    status_code, code = 409, "request_decided"
    message = "The request was already decided."


class NoBudget(RuleViolation):
    code, message = "no_budget", "The member has no budget in this currency to increase."


class OwnRequest(RuleViolation):
    code, message = "own_request", "Nobody decides their own request."


def managed_team(caller: Principal) -> uuid.UUID:
    """The team the caller owns; 404 for anybody who is not a team's owner."""
    if caller.team_uuid is None or caller.role != "owner":
        raise TeamNotFound()
    return caller.team_uuid


def own_team(caller: Principal) -> uuid.UUID:
    """The caller's team (owner or member); 404 outside any team."""
    if caller.team_uuid is None:
        raise TeamNotFound()
    return caller.team_uuid


def member_team(caller: Principal) -> uuid.UUID:
    """The team the caller is a member of (role `member`); 404 for anybody else."""
    if caller.team_uuid is None or caller.role != "member":
        raise TeamNotFound("Not found: requests are made by a team's members.")
    return caller.team_uuid


async def _member(reader: Reader | Tx, team_uuid: uuid.UUID, user_uuid: uuid.UUID) -> Row:
    """A member (role `member`) of the team; anybody else is 404."""
    found = await repository.teammate(reader, user_uuid, team_uuid)
    if found is None or found["role"] != "member":
        raise MemberNotFound()
    return found


# --- budgets


async def list_budgets(
    reader: Reader | Tx, caller: Principal, now: datetime
) -> list[dict[str, Any]]:
    """The team's budgets (owner) or the caller's own (member), as they stand this month."""
    team_uuid = own_team(caller)
    member = None if caller.role == "owner" else caller.user_uuid
    month = month_of(now)
    rows = await repository.budgets(reader, team_uuid, month_start(now), member)
    return [budget_record(row, month, month_amount(row, month), int(row["spent"])) for row in rows]


async def set_budget(
    tx: Tx, caller: Principal, member_uuid: uuid.UUID, amount: int, currency: str, now: datetime
) -> dict[str, Any]:
    """The owner sets a member's monthly budget in a currency the member holds an account in
    (replacing any; another currency drops this month's increases). The budget's record."""
    team_uuid = managed_team(caller)
    await _member(tx, team_uuid, member_uuid)
    if not await repository.holds_currency(tx, member_uuid, currency):
        raise ValidationFailed(errors={"currency": ["the member has no account in this currency"]})
    await repository.put_budget(tx, member_uuid, team_uuid, currency, amount, now)
    rows = await repository.budgets(tx, team_uuid, month_start(now), member_uuid)
    month = month_of(now)
    return budget_record(rows[0], month, month_amount(rows[0], month), int(rows[0]["spent"]))


async def delete_budget(tx: Tx, caller: Principal, member_uuid: uuid.UUID) -> None:
    """The owner removes a member's budget (404 when there is none)."""
    team_uuid = managed_team(caller)
    await _member(tx, team_uuid, member_uuid)
    if not await repository.delete_budget(tx, member_uuid, team_uuid):
        raise BudgetNotFound()


# --- requests


def _check_fields(body: CreateTeamRequest) -> None:
    """A request names the fields of its kind and no other (`amount`/`currency` for an
    increase, `account_uuid`/`bin_uuid` for a card)."""
    own, other = (
        (("account_uuid", "bin_uuid"), INCREASE_FIELDS)
        if body.kind == "card"
        else (("amount", "currency"), CARD_FIELDS)
    )
    errors: dict[str, list[str]] = {}
    for name in own:
        if getattr(body, name) is None:
            errors[name] = [f"required for a {body.kind} request"]
    for name in other:
        if name in body.model_fields_set:
            errors[name] = [f"not a field of a {body.kind} request"]
    if errors:
        raise ValidationFailed(errors=errors)


async def _details(tx: Tx, user_uuid: uuid.UUID, body: CreateTeamRequest) -> dict[str, Any]:
    """What is asked, checked against what the member holds now (amounts in minor units)."""
    if body.kind == "card":
        assert body.account_uuid is not None and body.bin_uuid is not None
        if not await repository.owns_account(tx, user_uuid, uuid.UUID(body.account_uuid)):
            raise AccountNotFound()
        if not await repository.bin_exists(tx, uuid.UUID(body.bin_uuid)):
            raise NotFound("BIN not found.")
        return {
            "account_uuid": body.account_uuid.lower(),
            "bin_uuid": body.bin_uuid.lower(),
            "start_balance": to_minor(body.start_balance or Decimal(0)),
            "description": body.description,
        }
    assert body.amount is not None and body.currency is not None
    if await repository.budget_currency(tx, user_uuid) != body.currency:
        raise NoBudget()
    return {"amount": to_minor(body.amount), "currency": body.currency, "reason": body.reason}


async def create_request(
    tx: Tx, caller: Principal, body: CreateTeamRequest, now: datetime
) -> dict[str, Any]:
    """A member asks: a card on one of their own accounts (anybody else's is 404), or more
    budget this month in their budget's currency (`no_budget` without one). The record."""
    team_uuid = member_team(caller)
    _check_fields(body)
    details = await _details(tx, caller.user_uuid, body)
    request_uuid = uuid.uuid4()
    await repository.insert_request(
        tx,
        {
            "uuid": request_uuid,
            "team_uuid": team_uuid,
            "user_uuid": caller.user_uuid,
            "kind": body.kind,
            "details": orjson.dumps(details).decode(),
            "created_at": now,
        },
    )
    return await one_request(tx, caller, request_uuid)


async def one_request(
    reader: Reader | Tx, caller: Principal, request_uuid: uuid.UUID
) -> dict[str, Any]:
    """One request: any of the team's for its owner, one's own for a member; else 404."""
    team_uuid = own_team(caller)
    row = await repository.team_request(reader, request_uuid, team_uuid)
    if row is None:
        raise RequestNotFound()
    record = request_record(row)
    if caller.role != "owner" and record["requested_by"]["uuid"] != str(caller.user_uuid):
        raise RequestNotFound()
    return record


async def list_requests(
    reader: Reader, caller: Principal, status: str | None, page: Offset
) -> tuple[list[dict[str, Any]], int]:
    """The team's requests (owner) or the caller's own (member), newest first."""
    team_uuid = own_team(caller)
    requester = None if caller.role == "owner" else caller.user_uuid
    rows, total = await repository.list_requests(reader, team_uuid, requester, status, page)
    return [request_record(row) for row in rows], total


async def _pending(tx: Tx, caller: Principal, request_uuid: uuid.UUID) -> dict[str, Any]:
    """The team's request as it is now, before the approval's locks (404 when not the team's;
    `request_decided` when it is decided; `own_request` for the requester)."""
    record = await one_request(tx, caller, request_uuid)
    if record["status"] != "pending":
        raise RequestDecided()
    if record["requested_by"]["uuid"] == str(caller.user_uuid):
        raise OwnRequest()
    return record


async def _lock_pending(tx: Tx, team_uuid: uuid.UUID, request_uuid: uuid.UUID) -> Row:
    """The request's row, locked last, still pending (else `request_decided`)."""
    locked = await repository.lock_request(tx, request_uuid, team_uuid)
    if locked is None:
        raise RequestNotFound()
    if locked["status"] != "pending":
        raise RequestDecided()
    return locked


async def _buy_card(
    tx: Tx, cipher: CardCipher, member: uuid.UUID, details: dict[str, Any]
) -> dict[str, Any]:
    """The card, bought on the member's account exactly as `POST /card/buy` buys it."""
    body = BuyCardsRequest(
        account_uuid=details["account_uuid"],
        bin_uuid=details["bin_uuid"],
        start_balance=from_minor(details["start_balance"]),
        description=details["description"],
    )
    bought = await buy_cards(tx, cipher, member, body)
    return {"card_uuids": [card["uuid"] for card in bought["cards"]], "charge": bought["charge"]}


async def _raise_budget(
    tx: Tx, member: uuid.UUID, details: dict[str, Any], now: datetime
) -> dict[str, Any]:
    """The member's budget rises by the amount for this month (`no_budget` when it is gone
    or in another currency now)."""
    budget = await lock_budget(tx, member, details["currency"])
    if budget is None:
        raise NoBudget()
    month, amount = month_of(now), int(details["amount"])
    increase = amount + (int(budget["month_increase"]) if budget["increase_month"] == month else 0)
    await repository.raise_budget(tx, member, increase, month, now)
    total = int(budget["amount"]) + increase
    return {"amount": from_minor(total), "currency": details["currency"], "month": month}


async def approve_request(
    tx: Tx, cipher: CardCipher, caller: Principal, request_uuid: uuid.UUID, now: datetime
) -> dict[str, Any]:
    """The owner approves: the card is bought (its refusals, such as `insufficient_funds`,
    leave the request pending) or the budget raised, and the request approved, in this unit."""
    team_uuid = managed_team(caller)
    record = await _pending(tx, caller, request_uuid)
    member = uuid.UUID(record["requested_by"]["uuid"])
    details = await _stored_details(tx, team_uuid, request_uuid)
    if record["kind"] == "card":
        result = await _buy_card(tx, cipher, member, details)
    else:
        result = await _raise_budget(tx, member, details, now)
    await _lock_pending(tx, team_uuid, request_uuid)
    await repository.decide(
        tx, request_uuid, "approved", caller.user_uuid, None, _json(result), now
    )
    return await one_request(tx, caller, request_uuid)


async def decline_request(
    tx: Tx, caller: Principal, request_uuid: uuid.UUID, reason: str | None, now: datetime
) -> dict[str, Any]:
    """The owner declines, with an optional reason for the member."""
    team_uuid = managed_team(caller)
    await _pending(tx, caller, request_uuid)
    await _lock_pending(tx, team_uuid, request_uuid)
    await repository.decide(tx, request_uuid, "declined", caller.user_uuid, reason, None, now)
    return await one_request(tx, caller, request_uuid)


async def _stored_details(tx: Tx, team_uuid: uuid.UUID, request_uuid: uuid.UUID) -> dict[str, Any]:
    """The request's details as stored (amounts in minor units)."""
    row = await repository.team_request(tx, request_uuid, team_uuid)
    assert row is not None
    details: dict[str, Any] = orjson.loads(row[3])
    return details


def _json(value: dict[str, Any]) -> str:
    return dumps(value).decode()

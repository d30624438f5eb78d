"""GET and PATCH /card/{cardUuid} by its holder or by the holder's team owner, and the owner's
list of those cards, `GET /team/cards` (docs/teams.md#a-team-owner-and-the-members-cards).

A team's owner reads a member's card (a user of role `member` in the team they own) as its
holder does, and changes it through the holder's own use case (`changes.change_card`,
`by="owner"`); each change leaves an audit row naming the owner. Anybody else's card stays
404: another member's for a member, another owner's or another team's for an owner.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.audit import Actor, record_audit
from cardservice.auth import Principal
from cardservice.cards import repository
from cardservice.cards.changes import change_card
from cardservice.cards.records import card_record
from cardservice.cards.schemas import CardChangeRequest
from cardservice.db.sql import Reader, Tx, as_uuid
from cardservice.errors import CardNotFound, NotFound


def _action(body: CardChangeRequest) -> str:
    """The audit row's action: what the status became, or an update of the other fields."""
    status = body.status if "status" in body.model_fields_set else None
    return {"frozen": "card.frozen", "active": "card.unfrozen", "closed": "card.closed"}.get(
        status or "", "card.updated"
    )


async def managed_holder(reader: Reader | Tx, caller: Principal, card_uuid: uuid.UUID) -> uuid.UUID:
    """The card's holder when the caller may read and change the card: the caller, or a member
    of the team the caller owns; anybody else's card (and no card) → `CardNotFound`."""
    holder = await repository.holder_of(reader, card_uuid)
    if holder is None:
        raise CardNotFound()
    if holder == caller.user_uuid:
        return holder
    team = caller.owned_team
    if team is None or not await repository.is_team_member(reader, holder, team):
        raise CardNotFound()
    return holder


async def team_cards(
    reader: Reader, caller: Principal, offset: int, limit: int
) -> tuple[list[dict[str, Any]], int]:
    """The cards the caller manages as a team's owner — every card of each member that is not
    closed, with its holder — a page of them, and how many. Not an owner: 404."""
    team = caller.owned_team
    if team is None:
        raise NotFound("Not found: a team's owner lists the members' cards.")
    rows, total = await repository.page_of_team_cards(reader, team, offset, limit)
    records = [
        {
            **card_record(row),
            "holder": {"uuid": as_uuid(row["holder_uuid"]), "name": row["holder_name"]},
        }
        for row in rows
    ]
    return records, total


async def read_card_as(reader: Reader, caller: Principal, card_uuid: uuid.UUID) -> dict[str, Any]:
    """The caller's own card, or a member's card for the team's owner, as its holder sees it."""
    holder = await managed_holder(reader, caller, card_uuid)
    row = await repository.own_card(reader, holder, card_uuid)
    if row is None:
        raise CardNotFound()
    return card_record(row)


async def change_card_as(
    tx: Tx,
    caller: Principal,
    card_uuid: uuid.UUID,
    body: CardChangeRequest,
    now: datetime,
    request_id: str | None = None,
) -> dict[str, Any]:
    """The caller's own card, or — for a team's owner — a member's card, changed; the card's
    record as its holder sees it."""
    holder = await managed_holder(tx, caller, card_uuid)
    if holder == caller.user_uuid:
        return await change_card(tx, caller.user_uuid, card_uuid, body, now)
    record = await change_card(tx, holder, card_uuid, body, now, by="owner")
    details = {"user_uuid": str(holder), "fields": sorted(body.model_fields_set)}
    actor, action = Actor.user(caller.user_uuid), _action(body)
    await record_audit(
        tx, actor, action, "card", card_uuid, request_id=request_id, details=details, at=now
    )
    return record

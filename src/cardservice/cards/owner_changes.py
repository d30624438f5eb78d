"""PATCH /card/{cardUuid} by its holder or by the holder's team owner
(docs/teams.md#a-team-owner-and-the-members-cards).

A team's owner changes a member's card (a user of role `member` in the team they own) through
the holder's own use case (`changes.change_card`, `by="owner"`), and each change leaves an
audit row naming the owner. Anybody else's card stays 404: another member's for a member,
another owner's or another team's for an owner.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from cardservice.audit import Actor, record_audit
from cardservice.auth import Principal
from cardservice.cards import repository
from cardservice.cards.changes import change_card
from cardservice.cards.schemas import CardChangeRequest
from cardservice.db.sql import Tx
from cardservice.errors import CardNotFound


def _action(body: CardChangeRequest) -> str:
    """The audit row's action: what the status became, or an update of the other fields."""
    status = body.status if "status" in body.model_fields_set else None
    return {"frozen": "card.frozen", "active": "card.unfrozen", "closed": "card.closed"}.get(
        status or "", "card.updated"
    )


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
    holder = await repository.holder_of(tx, card_uuid)
    if holder is None:
        raise CardNotFound()
    if holder == caller.user_uuid:
        return await change_card(tx, caller.user_uuid, card_uuid, body, now)
    team = caller.owned_team
    if team is None or not await repository.is_team_member(tx, holder, team):
        raise CardNotFound()
    record = await change_card(tx, holder, card_uuid, body, now, by="owner")
    details = {"user_uuid": str(holder), "fields": sorted(body.model_fields_set)}
    actor, action = Actor.user(caller.user_uuid), _action(body)
    await record_audit(
        tx, actor, action, "card", card_uuid, request_id=request_id, details=details, at=now
    )
    return record

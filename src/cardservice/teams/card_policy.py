"""The team's card policy (docs/teams.md#the-card-policy): whether a member buys cards
directly (`direct`, the default) or asks the owner (`request`: `POST /card/buy` answers 403
`request_required`, `cards.purchase.check_member_may_buy`). The owner sets it; the members
read it."""

from __future__ import annotations

from typing import Any

from cardservice.auth import Principal
from cardservice.db.sql import Reader, Tx
from cardservice.teams import repository
from cardservice.teams.service import managed_team, own_team


async def get_card_policy(reader: Reader | Tx, caller: Principal) -> dict[str, Any]:
    """The caller's team's card policy (owner and members); 404 outside a team."""
    return {"member_cards": await repository.member_cards(reader, own_team(caller))}


async def put_card_policy(tx: Tx, caller: Principal, member_cards: str) -> dict[str, Any]:
    """The owner sets the team's card policy; the policy as it is now."""
    team_uuid = managed_team(caller)
    await repository.set_member_cards(tx, team_uuid, member_cards)
    return await get_card_policy(tx, caller)

"""Whose rows a caller reads (docs/api.md#records, docs/events.md#events-and-webhooks,
docs/network.md#wallet-tokens, docs/teams.md#teams-budgets-requests-receipts): their own and, for a
team owner, those of every user of the team they own (members and other owners). The one rule of
every read that a team owner shares: accounts, statements, events, a card's wallet tokens. A write
never uses it: it takes the caller's own rows only, so a member's object is 404 to the owner
there."""

from __future__ import annotations

import uuid
from typing import Any


def readable_by(
    column: str, start: int, user_uuid: uuid.UUID, owned_team: uuid.UUID | None
) -> tuple[str, list[Any]]:
    """The condition on `column` (a fixed fragment naming a row's user uuid, `a.user_uuid`)
    for the rows the user may read, with its arguments numbered from `$start`: their own,
    and the team's users' when `owned_team` is the team they own (`Principal.owned_team`);
    None reads their own only."""
    if owned_team is None:
        return f"{column} = ${start}", [user_uuid]
    clause = (
        f"({column} = ${start} OR {column} IN "  # noqa: S608 - fixed fragments, placeholders
        f"(SELECT m.uuid FROM users m WHERE m.team_uuid = ${start + 1}))"
    )
    return clause, [user_uuid, owned_team]

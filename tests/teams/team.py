"""A team built through the services: an owner, members with funded cards, and the calls the
team's tests make."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import httpx
from fastapi import FastAPI

from cardservice.http.router import dumps
from tests.factories import Caller, make_account, make_card, make_user


@dataclass
class Team:
    name: str
    owner: Caller
    members: list[Caller] = field(default_factory=list)


async def make_team(app: FastAPI, members: int = 1) -> Team:
    name = f"team-{uuid.uuid4().hex[:10]}"
    team = Team(name, await make_user(app, team=name, role="owner"))
    for _ in range(members):
        team.members.append(await make_user(app, team=name, role="member"))
    return team


async def call(
    client: httpx.AsyncClient, user: Caller, method: str, path: str, body: object = None
) -> httpx.Response:
    if body is None:
        return await client.request(method, path, headers=user.headers)
    headers = {**user.headers, "Content-Type": "application/json"}
    return await client.request(method, path, headers=headers, content=dumps(body))


async def set_budget(
    client: httpx.AsyncClient, team: Team, member: Caller, amount: object, currency: str = "USD"
) -> httpx.Response:
    body = {"amount": amount, "currency": currency}
    return await call(client, team.owner, "PUT", f"/team/members/{member.uuid}/budget", body)


async def member_card(
    app: FastAPI, client: httpx.AsyncClient, member: Caller, start: str = "500"
) -> str:
    """A card of the member with `start` on it (on an account of its own)."""
    _account, card = await make_card(app, client, member, funds="5000", start_balance=start)
    return card


async def member_account(app: FastAPI, member: Caller, funds: str = "1000") -> uuid.UUID:
    return await make_account(app, member, funds=funds)


async def rows(app: FastAPI, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """The rows of a read through the service's reader, each a tuple of its values."""
    return [tuple(row) for row in await app.state.db.reader.rows(sql, *args)]


async def events_of(client: httpx.AsyncClient, user: Caller, type_: str) -> list[dict[str, Any]]:
    """The user's events of one type (sequenced by the worker's sequencer first)."""
    response = await client.get(
        "/events", headers=user.headers, params={"filters[type]": type_, "limit": 100}
    )
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["data"]
    return found

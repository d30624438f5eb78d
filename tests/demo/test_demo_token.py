"""`cardservice demo` reuses the demo token while it is valid (demo_token.py): the same token
on every run, kept in var/demo-token; near its expiry, or revoked, or gone, a new one — and
the old one, if still live, is revoked, so runs never leave a trail of live tokens."""

from __future__ import annotations

import stat
from datetime import timedelta
from pathlib import Path

import httpx
from fastapi import FastAPI

from cardservice.db.sql import Tx
from cardservice.demo.token import demo_token, keep, read_kept, token_path
from cardservice.models.base import utcnow
from tests.factories import Caller, make_user


async def _demo_token(app: FastAPI, owner: Caller, kept: str | None) -> str:
    async def unit(tx: Tx) -> str:
        return await demo_token(tx, owner.uuid, kept, utcnow())

    result: str = await app.state.db.transact(unit)
    return result


async def _live_tokens(app: FastAPI, owner: Caller) -> int:
    sql = "SELECT count(*) FROM api_tokens WHERE user_uuid = $1 AND revoked_at IS NULL"
    return int(await app.state.db.reader.value(sql, owner.uuid))


async def _accepted(client: httpx.AsyncClient, token: str) -> bool:
    answer = await client.get("/accounts", headers={"Authorization": f"Bearer {token}"})
    return answer.status_code == 200


async def test_a_valid_kept_token_is_reused(app: FastAPI, client: httpx.AsyncClient) -> None:
    owner = await make_user(app)
    first = await _demo_token(app, owner, None)
    again = await _demo_token(app, owner, first)
    assert again == first and await _accepted(client, first)
    assert await _live_tokens(app, owner) == 2  # the factory's token and the demo one


async def test_a_token_near_its_expiry_is_revoked_and_replaced(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner = await make_user(app)
    old = await _demo_token(app, owner, None)
    soon = utcnow() + timedelta(hours=3)
    await app.state.db.transact(
        lambda tx: tx.execute("UPDATE api_tokens SET expires_at = $1 WHERE name = 'demo'", soon)
    )
    new = await _demo_token(app, owner, old)
    assert new != old and await _accepted(client, new)
    assert not await _accepted(client, old)
    assert await _live_tokens(app, owner) == 2


async def test_a_revoked_unknown_or_foreign_token_is_replaced(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    owner, stranger = await make_user(app), await make_user(app)
    first = await _demo_token(app, owner, None)
    await app.state.db.transact(
        lambda tx: tx.execute("UPDATE api_tokens SET revoked_at = $1 WHERE name = 'demo'", utcnow())
    )
    after_revoke = await _demo_token(app, owner, first)
    assert after_revoke != first and await _accepted(client, after_revoke)
    assert await _demo_token(app, owner, "cs_not-a-token") not in {first, after_revoke}
    foreign = await _demo_token(app, owner, stranger.token)
    assert foreign != stranger.token and await _accepted(client, stranger.token)


def test_the_token_is_kept_for_its_owner_only(tmp_path: Path) -> None:
    path = token_path(tmp_path / "var")
    assert read_kept(path) is None
    keep(path, "cs_example")
    assert read_kept(path) == "cs_example"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("\n")
    assert read_kept(path) is None

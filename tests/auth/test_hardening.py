"""docs/api.md#hardening: the failure limit spares valid credentials; the client address behind
trusted proxies; IPv6 clients counted by their /64; MFA codes bounded, tied to their token,
revocable and pruned."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import timedelta

import httpx
import pytest
from fastapi import FastAPI

from cardservice.auth.credentials import (
    MAX_LIVE_MFA_CODES,
    digest,
    issue_mfa_code,
    issue_token,
    prune_credentials,
    revoke_mfa_codes,
    revoke_token,
)
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.models.base import utcnow
from tests.cli.test_cli import Command
from tests.factories import ISSUED_SECRETS, Caller, make_mfa_code, make_user

BAD = {"Authorization": "Bearer cs_not_a_real_token"}


@asynccontextmanager
async def peer(app: FastAPI, address: str) -> AsyncIterator[httpx.AsyncClient]:
    """A client whose socket peer is `address`."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000), raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        yield http


async def _trip(http: httpx.AsyncClient, limit: int, **kwargs: object) -> list[int]:
    return [
        (await http.get("/accounts", headers=BAD, **kwargs)).status_code  # type: ignore[arg-type]
        for _ in range(limit + 1)
    ]


async def test_valid_token_still_answers_200_after_the_failure_limit_trips(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings.auth_failures_per_minute = 2
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    assert await _trip(client, 2) == [401, 401, 429]
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200
    assert (await client.get("/accounts", params={"_code": code})).status_code == 200
    assert (await client.get("/accounts", headers=BAD)).status_code == 429


async def test_blocked_address_follows_the_contract_order(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """No credentials → 401 and a valid code on a bearer-only route → 403, even from a
    blocked address: authentication comes before the rate limit (docs/api.md#errors)."""
    app.state.settings.auth_failures_per_minute = 1
    user = await make_user(app)
    code = await make_mfa_code(app, user)
    assert await _trip(client, 1) == [401, 429]
    anonymous = await client.get("/accounts")
    assert anonymous.status_code == 401 and anonymous.headers["www-authenticate"] == "Bearer"
    wrong_scheme = await client.get("/user/3ds-unassigned", params={"_code": code})
    assert wrong_scheme.status_code == 403


async def test_forwarded_for_is_ignored_from_an_untrusted_peer(app: FastAPI) -> None:
    app.state.settings.auth_failures_per_minute = 1
    async with peer(app, "203.0.113.7") as http:
        spoofed = [
            (
                await http.get("/accounts", headers={**BAD, "X-Forwarded-For": f"198.51.100.{i}"})
            ).status_code
            for i in range(3)
        ]
    assert spoofed == [401, 429, 429]


async def test_behind_a_trusted_proxy_each_client_has_its_own_limit(app: FastAPI) -> None:
    settings = app.state.settings.model_copy(
        update={"trusted_proxies": "10.0.0.0/8, 192.168.1.1", "auth_failures_per_minute": 1}
    )
    app.state.settings = settings
    async with peer(app, "10.1.2.3") as proxy:

        async def attempt(forwarded: str) -> int:
            headers = {**BAD, "X-Forwarded-For": forwarded}
            return (await proxy.get("/accounts", headers=headers)).status_code

        # The right-most untrusted entry is the client; what it wrote to the left is not.
        assert await attempt("198.51.100.1") == 401
        assert await attempt("1.1.1.1, 198.51.100.1") == 429
        assert await attempt("198.51.100.1, 192.168.1.1") == 429
        assert await attempt("198.51.100.2") == 401
        assert await attempt("198.51.100.1, 198.51.100.3, 10.9.9.9") == 401
        user = await make_user(app)
        valid = {**user.headers, "X-Forwarded-For": "198.51.100.1"}
        assert (await proxy.get("/accounts", headers=valid)).status_code == 200


async def test_ipv6_clients_are_counted_by_their_64(app: FastAPI) -> None:
    app.state.settings.auth_failures_per_minute = 2
    statuses = []
    for address in ("2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2:abcd::77"):
        async with peer(app, address) as http:
            statuses.append((await http.get("/accounts", headers=BAD)).status_code)
    async with peer(app, "2001:db8:1:3::1") as neighbour:
        statuses.append((await neighbour.get("/accounts", headers=BAD)).status_code)
    assert statuses == [401, 401, 429, 401]


async def test_a_users_codes_share_one_rate_limit_bucket(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    app.state.settings.rate_limit_per_minute = 2
    user = await make_user(app)
    codes = [await make_mfa_code(app, user) for _ in range(3)]
    statuses = [(await client.get("/accounts", params={"_code": c})).status_code for c in codes]
    assert statuses == [200, 200, 429]
    assert (await client.get("/accounts", headers=user.headers)).status_code == 200


async def _live_codes(app: FastAPI, user: Caller) -> int:
    count = await app.state.db.reader.value(
        "SELECT count(*) FROM mfa_codes WHERE user_uuid = $1 AND revoked_at IS NULL", user.uuid
    )
    return int(count)


async def test_the_21st_code_revokes_the_oldest(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    codes = []
    for _ in range(MAX_LIVE_MFA_CODES + 1):
        issued = await client.post("/auth/mfa-code", headers=user.headers)
        assert issued.status_code == 201
        codes.append(issued.json()["data"]["code"])
    ISSUED_SECRETS.extend(codes)
    assert await _live_codes(app, user) == MAX_LIVE_MFA_CODES
    assert (await client.get("/accounts", params={"_code": codes[0]})).status_code == 401
    for code in (codes[1], codes[-1]):
        assert (await client.get("/accounts", params={"_code": code})).status_code == 200


async def test_a_code_dies_with_the_token_that_minted_it(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    other = await make_mfa_code(app, user)  # issued by the CLI: tied to no token
    issued = await client.post("/auth/mfa-code", headers=user.headers)
    code = issued.json()["data"]["code"]
    ISSUED_SECRETS.append(code)
    assert (await client.get("/accounts", params={"_code": code})).status_code == 200
    assert await app.state.db.transact(lambda tx: revoke_token(tx, user.token[:11])) == 1
    assert (await client.get("/accounts", params={"_code": code})).status_code == 401
    assert (await client.get("/accounts", params={"_code": other})).status_code == 200
    revoked = await app.state.db.reader.value(
        "SELECT revoked_at FROM mfa_codes WHERE code_hash = $1", digest(code)
    )
    assert revoked is not None


async def test_a_code_dies_when_its_token_expires(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)

    async def short_lived(tx: Tx) -> str:
        token_uuid, _plaintext = await issue_token(tx, user.uuid, "short", timedelta(seconds=-1))
        code, _expires = await issue_mfa_code(tx, user.uuid, timedelta(minutes=5), token_uuid)
        return code

    code = await app.state.db.transact(short_lived)
    ISSUED_SECRETS.append(code)
    assert (await client.get("/accounts", params={"_code": code})).status_code == 401


async def test_revoking_a_users_codes_counts_them(app: FastAPI, client: httpx.AsyncClient) -> None:
    user, bystander = await make_user(app), await make_user(app)
    codes = [await make_mfa_code(app, user) for _ in range(3)]
    kept = await make_mfa_code(app, bystander)
    assert await app.state.db.transact(lambda tx: revoke_mfa_codes(tx, user.uuid)) == 3
    assert await app.state.db.transact(lambda tx: revoke_mfa_codes(tx, user.uuid)) == 0
    for code in codes:
        assert (await client.get("/accounts", params={"_code": code})).status_code == 401
    assert (await client.get("/accounts", params={"_code": kept})).status_code == 200


async def _count(app: FastAPI, table: str) -> int:
    return int(await app.state.db.reader.value(f"SELECT count(*) FROM {table}"))


async def test_prune_deletes_credentials_dead_for_30_days(app: FastAPI) -> None:
    user = await make_user(app)
    await make_mfa_code(app, user, ttl=timedelta(days=-1))
    await make_mfa_code(app, user)
    await make_user(app, expires_in=timedelta(days=-1))
    await app.state.db.transact(lambda tx: revoke_token(tx, user.token[:11]))
    now = utcnow()

    async def prune_at(days: float) -> int:
        later = now + timedelta(days=days)
        pruned: int = await app.state.db.transact(lambda tx: prune_credentials(tx, later))
        return pruned

    assert await prune_at(0) == 0
    assert await prune_at(28.5) == 0
    assert await prune_at(29.5) == 2  # the code and the token expired a day ago
    assert (await _count(app, "mfa_codes"), await _count(app, "api_tokens")) == (1, 1)
    assert await prune_at(30.5) == 2  # the live code and the token revoked today
    assert (await _count(app, "mfa_codes"), await _count(app, "api_tokens")) == (0, 0)


async def test_issuing_a_code_prunes_the_users_dead_codes(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    await make_mfa_code(app, user, ttl=timedelta(days=-29))
    back = utcnow() - timedelta(days=31)  # the code's expiry, past the 30 days
    await app.state.db.transact(lambda tx: tx.execute("UPDATE mfa_codes SET expires_at = $1", back))
    assert await _count(app, "mfa_codes") == 1
    issued = await client.post("/auth/mfa-code", headers=user.headers)
    ISSUED_SECRETS.append(issued.json()["data"]["code"])
    assert await _count(app, "mfa_codes") == 1


async def test_cli_mfa_revoke_prints_how_many_and_codes_die(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = Command(settings, monkeypatch, capsys)  # in process: tests/cli proves the process
    user = await make_user(app)
    codes = [await make_mfa_code(app, user) for _ in range(2)]
    assert await cli.value("mfa", "revoke", "--email", user.email) == "2"
    for code in codes:
        assert (await client.get("/accounts", params={"_code": code})).status_code == 401
    assert await cli.value("mfa", "revoke", "--email", user.email) == "0"
    status, _out, unknown = await cli("mfa", "revoke", "--email", "nobody@example.com")
    assert status == 2 and "Traceback" not in unknown
    assert await cli.value("credentials", "prune") == "0"

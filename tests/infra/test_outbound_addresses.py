"""The one URL check of the decision endpoint and of webhooks (`outbound.py`) sees through
IPv6 forms that carry an IPv4 address (issue 28, item 2): IPv4-mapped, IPv4-compatible,
NAT64 (well-known and local-use prefixes), 6to4 and Teredo; port 0 is refused; a host name
that resolves to such an address is refused the same way. Every check is decided before
any connection: nothing here sends a packet anywhere (the resolver is asked about a name
only in the test that answers for it)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from cardservice.infra.outbound import UrlNotAllowed, check_url, is_public, resolve
from tests.factories import make_user
from tests.webhooks.drive import post

DISGUISED = [
    "::ffff:127.0.0.1",  # IPv4-mapped
    "::ffff:169.254.169.254",
    "::127.0.0.1",  # IPv4-compatible
    "::10.0.0.1",
    "64:ff9b::a9fe:a9fe",  # NAT64, the metadata address
    "64:ff9b::7f00:1",
    "64:ff9b::c0a8:1",
    "64:ff9b:1::7f00:1",  # NAT64 local-use prefix (RFC 8215): a local network
    "64:ff9b:1:2:3::808:808",
    "2002:a9fe:a9fe::",  # 6to4
    "2002:7f00:1::",
    "2002:c0a8:101::1",
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo (its client is 192.0.2.45)
    "2001:0:808:808::f7f7:f7f7",  # Teredo with public server and client: still Teredo
]
PUBLIC = [
    "8.8.8.8",
    "2606:4700:4700::1111",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
]


def test_ipv4_inside_ipv6_is_unwrapped_before_deciding() -> None:
    assert [a for a in DISGUISED if is_public(a)] == []
    assert [a for a in PUBLIC if not is_public(a)] == []


@pytest.mark.parametrize("address", DISGUISED)
async def test_disguised_literals_are_refused(address: str) -> None:
    with pytest.raises(UrlNotAllowed):
        await check_url(f"http://[{address}]/hook", allow_private=False)
    with pytest.raises(UrlNotAllowed):
        await resolve(f"https://[{address}]:8443/hook", allow_private=False)


async def test_port_zero_is_refused_even_where_private_addresses_are_allowed() -> None:
    for url in ("http://8.8.8.8:0/", "http://127.0.0.1:0/hook", "https://[::1]:0/"):
        with pytest.raises(UrlNotAllowed):
            await check_url(url, allow_private=True)
        with pytest.raises(UrlNotAllowed):
            await resolve(url, allow_private=True)


async def test_a_name_resolving_to_a_disguised_address_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The system resolver is asked nothing: the loop's `getaddrinfo` answers for
    `disguised.test` with a NAT64 form of 127.0.0.1, as a DNS64 resolver would."""
    loop = asyncio.get_running_loop()

    async def getaddrinfo(host: str, port: int, **_kwargs: Any) -> list[Any]:
        address = "64:ff9b::7f00:1" if host == "disguised.test" else "8.8.8.8"
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(loop, "getaddrinfo", getaddrinfo)
    with pytest.raises(UrlNotAllowed):
        await check_url("https://disguised.test/hook", allow_private=False)
    target = await resolve("https://public.test/hook", allow_private=False)
    assert target.address == "8.8.8.8"


async def test_webhooks_and_the_decision_endpoint_share_the_check(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """Both refuse every disguised form with `url_not_allowed` (webhooks no longer refuse
    IPv6 literals by a pattern), and both accept a public IPv6 literal; nothing is saved
    but the two public ones."""
    app.state.settings = app.state.settings.model_copy(update={"webhook_allow_private": False})
    user = await make_user(app)
    for address in DISGUISED:
        url = f"http://[{address}]/hook"
        hook = await post(client, user, "/webhook-endpoints", {"url": url})
        assert hook.status_code == 422 and hook.json()["code"] == "url_not_allowed", hook.text
        decide = await _put(client, user.headers, url)
        assert decide.status_code == 422 and decide.json()["code"] == "url_not_allowed", url
    for url in ("http://8.8.8.8:0/", "http://[2606:4700:4700::1111]:0/"):
        assert (await post(client, user, "/webhook-endpoints", {"url": url})).status_code == 422
        assert (await _put(client, user.headers, url)).status_code == 422
    public = "https://[2606:4700:4700::1111]:8443/hook"
    assert (await post(client, user, "/webhook-endpoints", {"url": public})).status_code == 201
    assert (await _put(client, user.headers, public)).status_code == 200
    reader = app.state.db.reader
    assert await reader.value("SELECT COUNT(*) FROM webhook_endpoints") == 1


async def _put(client: httpx.AsyncClient, headers: dict[str, str], url: str) -> httpx.Response:
    return await client.put("/authorization-endpoint", json={"url": url}, headers=headers)

"""What the service sends to its users' URLs (webhooks, the authorization decision endpoint):
which URLs it may call, and how a message is signed.

* URLs: `http`/`https` whose host resolves only to public addresses, unless private ones
  are allowed (`CARDSERVICE_WEBHOOK_ALLOW_PRIVATE`, on by default exactly when the sandbox
  is). Checked when a URL is saved and again before every call, against the address the
  call then connects to (DNS rebinding). Redirects are never followed.
* Signatures: Standard Webhooks, `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per
  live secret; secrets are `whsec_` + base64 of 24 random bytes. Proved against the
  `standardwebhooks` package in tests/webhooks/test_signing.py.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import ipaddress
import secrets
import socket
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import SplitResult, urlsplit

import httpx

from cardservice.errors import RuleViolation

SECRET_PREFIX = "whsec_"  # noqa: S105 - the prefix, not a secret
SECRET_BYTES = 24


def new_secret() -> str:
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def masked(secret: str) -> str:
    """What lists show of a secret: the prefix and its last four characters."""
    return f"{SECRET_PREFIX}****{secret[-4:]}"


def signature_header(
    live_secrets: Sequence[str], message_id: str, timestamp: int, body: bytes
) -> str:
    """The `webhook-signature` header: one `v1,…` per secret, space-separated."""
    signed = f"{message_id}.{timestamp}.".encode() + body
    return " ".join(
        "v1," + base64.b64encode(hmac.new(_key(s), signed, hashlib.sha256).digest()).decode()
        for s in live_secrets
    )


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def signed_headers(
    live_secrets: Sequence[str], message_id: str, body: bytes, at: datetime
) -> dict[str, str]:
    """The Standard Webhooks headers of a JSON `body` sent at `at`."""
    stamp = int(at.timestamp())
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(stamp),
        "webhook-signature": signature_header(live_secrets, message_id, stamp, body),
        "content-type": "application/json",
    }


def outbound_client(timeout: float | None = None) -> httpx.AsyncClient:
    """The HTTP client for users' URLs: no redirects followed, no proxy from the environment;
    `timeout` for every call, or each call sets its own."""
    return httpx.AsyncClient(follow_redirects=False, trust_env=False, timeout=timeout)


class UrlNotAllowed(RuleViolation):
    code, message = "url_not_allowed", "The URL must be http(s) and reach a public address."


@dataclass(frozen=True, slots=True)
class Target:
    """A URL with the address it resolved to: connect there, name the host in `Host`/SNI."""

    url: str
    host: str
    address: str
    port: int

    @property
    def connect_url(self) -> str:
        parts = urlsplit(self.url)
        address = f"[{self.address}]" if ":" in self.address else self.address
        return parts._replace(netloc=f"{address}:{self.port}").geturl()


def _parts(url: str) -> SplitResult:
    if not url.isascii() or any(c.isspace() or not c.isprintable() for c in url):
        raise UrlNotAllowed("The URL must be ASCII without spaces (IDN hosts in punycode).")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise UrlNotAllowed("The URL is not valid.") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UrlNotAllowed("The URL must be http:// or https:// with a host.")
    if parts.username or parts.password:
        raise UrlNotAllowed("The URL must not carry credentials.")
    try:
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise UrlNotAllowed("The URL's port is not valid.") from None
    return parts


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


async def check_url(url: str, allow_private: bool) -> None:
    """When a URL is saved (a webhook endpoint, the decision endpoint): its form, and,
    unless private addresses are allowed (then any address will do, and nothing is looked
    up), that its host resolves to public addresses only."""
    _parts(url)
    if not allow_private:
        await resolve(url, allow_private)


async def resolve(url: str, allow_private: bool) -> Target:
    """The URL's target; `UrlNotAllowed` (422) when it is not http(s), does not resolve,
    or any of its addresses is loopback, private, link-local, multicast or reserved."""
    parts = _parts(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UrlNotAllowed("The URL's host does not resolve.") from None
    addresses = [str(info[4][0]) for info in found]
    if not addresses:
        raise UrlNotAllowed("The URL's host does not resolve.")
    if not allow_private and not all(is_public(a) for a in addresses):
        raise UrlNotAllowed()
    return Target(url=url, host=host, address=addresses[0], port=port)


@asynccontextmanager
async def post_checked(
    client: httpx.AsyncClient,
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    allow_private: bool,
) -> AsyncIterator[httpx.Response]:
    """POST `body` to a user's URL, its host resolved and checked first and the connection
    made to the address checked (`Host` and TLS SNI still name the host): a name that turned
    private since it was saved is refused (`UrlNotAllowed`). The response's body is not read:
    the caller reads what it needs (`read_at_most`)."""
    target = await resolve(url, allow_private)
    extensions = {"sni_hostname": target.host} if urlsplit(url).scheme == "https" else {}
    async with client.stream(
        "POST",
        target.connect_url,
        content=body,
        headers={**headers, "host": urlsplit(url).netloc},
        extensions=extensions,
    ) as response:
        yield response


async def read_at_most(response: httpx.Response, limit: int) -> bytes | None:
    """The response's body, or None once it is longer than `limit` bytes."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)

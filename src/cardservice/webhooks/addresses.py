"""Where a webhook may be sent: `http`/`https` URLs whose host resolves only to public
addresses, unless private ones are allowed (`CARDSERVICE_WEBHOOK_ALLOW_PRIVATE`, on by
default exactly when the sandbox is). Checked when an endpoint is saved and again before
every attempt, against the address the attempt then connects to (DNS rebinding)."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from cardservice.errors import RuleViolation


class UrlNotAllowed(RuleViolation):
    code, message = "url_not_allowed", "Webhook URLs must be public http(s) addresses."


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


async def check_endpoint_url(url: str, allow_private: bool) -> None:
    """When an endpoint is saved: the URL's form, and, unless private addresses are
    allowed (then any address will do, and nothing is looked up), that its host resolves
    to public addresses only."""
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

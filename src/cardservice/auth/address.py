"""The client address (docs/api.md#hardening) and the key its failed authentications are counted
under.

The client is the socket peer, unless the peer is a trusted proxy
(`CARDSERVICE_TRUSTED_PROXIES`): then it is the right-most address of `X-Forwarded-For`
that is not itself a trusted proxy. Entries left of it are whatever the client wrote and
are never believed. An IPv6 client is counted by its /64 (one subscriber's prefix), so
rotating addresses inside it does not buy fresh attempts.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence

from starlette.requests import Request

from cardservice.config import Network

IPV6_CLIENT_PREFIX = 64


def _is_trusted(address: str, trusted: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(request: Request, trusted: Sequence[Network]) -> str:
    """The socket peer, or the right-most untrusted `X-Forwarded-For` entry behind a trusted
    proxy (every entry trusted: the left-most one)."""
    peer = request.client.host if request.client else ""
    if not trusted or not _is_trusted(peer, trusted):
        return peer or "unknown"
    forwarded = [
        entry.strip()
        for header in request.headers.getlist("x-forwarded-for")
        for entry in header.split(",")
        if entry.strip()
    ]
    for entry in reversed(forwarded):
        if not _is_trusted(entry, trusted):
            return entry
    return forwarded[0] if forwarded else peer


def client_scheme(request: Request, trusted: Sequence[Network]) -> str:
    """The scheme the client used: the request's own, or, from a trusted proxy, the last
    value of its `X-Forwarded-Proto` (the proxy that terminated TLS says so)."""
    peer = request.client.host if request.client else ""
    if trusted and _is_trusted(peer, trusted):
        said = [
            value.strip().lower()
            for header in request.headers.getlist("x-forwarded-proto")
            for value in header.split(",")
            if value.strip()
        ]
        if said and said[-1] in ("http", "https"):
            return said[-1]
    return request.url.scheme


def address_key(address: str) -> str:
    """What a client's limit is kept under: an IPv4 address, an IPv6 /64, else the text."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_CLIENT_PREFIX), strict=False))
    return str(ip)

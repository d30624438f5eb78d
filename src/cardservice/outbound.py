"""What the service sends out to its users' URLs: which URLs it may call, and how a message
is signed (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`).

Shared by everything that calls a user's URL (the authorization decision endpoint; webhooks).
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import secrets
import socket
from datetime import datetime
from urllib.parse import urlsplit

import httpx
from standardwebhooks import Webhook

from cardservice.errors import RuleViolation

SECRET_PREFIX = "whsec_"  # noqa: S105 - a prefix, not a secret


class UrlNotAllowed(RuleViolation):
    code = "url_not_allowed"
    message = "The URL must be http(s) and reach a public address."


def _public(address: str) -> bool:
    return ipaddress.ip_address(address.split("%", 1)[0]).is_global


async def check_url(url: str, allow_private: bool) -> str:
    """`url` if the service may call it: http or https with a host, and, unless private
    addresses are allowed (`CARDSERVICE_WEBHOOK_ALLOW_PRIVATE`), every address the host
    resolves to is public (no loopback, private, link-local or reserved range)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UrlNotAllowed(errors={"url": ["must be an http or https URL with a host"]})
    if allow_private:
        return url
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            parts.hostname, parts.port or 443, type=socket.SOCK_STREAM
        )
    except (OSError, UnicodeError) as exc:
        raise UrlNotAllowed(errors={"url": ["the host does not resolve"]}) from exc
    if not found or not all(_public(str(info[4][0])) for info in found):
        raise UrlNotAllowed(errors={"url": ["the host is not a public address"]})
    return url


def new_secret() -> str:
    """A signing secret: `whsec_` + base64 of 24 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(24)).decode()


def signed_headers(secrets_: list[str], message_id: str, body: str, at: datetime) -> dict[str, str]:
    """The Standard Webhooks headers of `body`: one `v1,…` signature per live secret."""
    signatures = " ".join(Webhook(secret).sign(message_id, at, body) for secret in secrets_)
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
        "content-type": "application/json",
    }


def outbound_client() -> httpx.AsyncClient:
    """The HTTP client for users' URLs: no redirects followed, no proxy from the environment;
    each call sets its own timeout."""
    return httpx.AsyncClient(follow_redirects=False, trust_env=False)

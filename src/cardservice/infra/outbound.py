"""What the service sends to its users' URLs (webhooks, the authorization decision endpoint):
which URLs it may call, and how a message is signed.

* URLs: `http`/`https`, a port other than 0, whose host resolves only to public addresses,
  unless private ones are allowed (`CARDSERVICE_WEBHOOK_ALLOW_PRIVATE`, on by default
  exactly when the sandbox is). An IPv6 address that carries an IPv4 one (mapped,
  compatible, NAT64, 6to4, Teredo) is public only if what it carries is too. Checked when a
  URL is saved and again before every call, against the address the call then connects to
  (DNS rebinding). Redirects are never followed.
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
import ssl
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import SplitResult, urlsplit

import h11

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


class UrlNotAllowed(RuleViolation):
    code, message = "url_not_allowed", "The URL must be http(s) and reach a public address."


@dataclass(frozen=True, slots=True)
class Target:
    """A URL with the address it resolved to: connect there, name the host in `Host`/SNI."""

    scheme: str
    host: str
    address: str
    port: int
    netloc: str  # the `Host` header
    path: str  # path and query, what the request line asks for


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
        port = parts.port
    except ValueError:
        raise UrlNotAllowed("The URL's port is not valid.") from None
    if port == 0:
        raise UrlNotAllowed("The URL's port is not valid.")
    return parts


_IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")  # RFC 6052: the IPv4 address is the last 32 bits
# RFC 8215: a translator of the site's own, whose prefix length (and so where the IPv4
# address sits) is the operator's choice: a local network, refused whatever it carries.
_NAT64_LOCAL = ipaddress.IPv6Network("64:ff9b:1::/48")


def _carried(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """The IPv4 addresses an IPv6 address carries: IPv4-mapped `::ffff:a.b.c.d`,
    IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4 `2002:AABB:CCDD::`,
    Teredo `2001::/32` (its server and its client)."""
    low = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip.ipv4_mapped is not None:
        return [ip.ipv4_mapped]
    if int(ip) >> 32 == 0 or ip in _NAT64:
        return [low]
    if ip.sixtofour is not None:
        return [ip.sixtofour]
    if ip.teredo is not None:
        return list(ip.teredo)
    return []


def is_public(address: str) -> bool:
    """Whether a call may go to `address`: it, and every IPv4 address it carries, is
    globally routable unicast. The local-use NAT64 prefix is never public."""
    ip: _IPAddress = ipaddress.ip_address(address.split("%", 1)[0])
    checked: list[_IPAddress] = [ip]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip in _NAT64_LOCAL:
            return False
        checked += _carried(ip)
    return all(one.is_global and not one.is_multicast for one in checked)


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
        addresses = [str(ipaddress.ip_address(host))]  # a literal address: nothing to look up
    except ValueError:
        addresses = await _addresses(host, port)
    if not addresses:
        raise UrlNotAllowed("The URL's host does not resolve.")
    if not allow_private and not all(is_public(a) for a in addresses):
        raise UrlNotAllowed()
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, addresses[0], port, parts.netloc, path)


async def _addresses(host: str, port: int) -> list[str]:
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise UrlNotAllowed("The URL's host does not resolve.") from None
    return [str(info[4][0]) for info in found]


class CallFailed(Exception):
    """The call did not get a whole HTTP answer: no connection, TLS refused, the peer closed
    early or spoke something other than HTTP/1.1."""


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    body: bytes | None  # None: longer than the caller's limit (and not read to its end)


_Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]
_Key = tuple[str, str, int, str]  # scheme, address, port, host


class Outbound:
    """POSTs to users' URLs over HTTP/1.1 (h11 on asyncio streams), keeping connections
    alive per checked address. Built for this one job: no redirects (a 3xx is an answer), no
    proxies, no cookies, certificates verified against the host's name. About a fifth of a
    general client's CPU per call (httpx 0.84 ms, this 0.16 ms; docs/performance.md).

    Time limits are the caller's (`asyncio.timeout` around `post`): a call cut short closes
    its connection instead of returning it to the pool."""

    KEEP_ALIVE_SECONDS = 5.0
    IDLE_PER_TARGET = 32
    READ_SIZE = 65536

    def __init__(self, tls: ssl.SSLContext | None = None) -> None:
        self._tls = tls
        self._idle: dict[_Key, list[tuple[float, _Stream]]] = {}

    async def __aenter__(self) -> Outbound:
        return self

    async def __aexit__(self, *_exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        idle, self._idle = self._idle, {}
        for streams in idle.values():
            for _since, (_reader, writer) in streams:
                writer.close()

    async def post(
        self,
        url: str,
        body: bytes,
        headers: Mapping[str, str],
        *,
        allow_private: bool,
        limit: int,
    ) -> Answer:
        """POST `body` to a user's URL: its host resolved and checked first, the connection
        made to the address checked (`Host` and TLS SNI still name the host), so a name
        that turned private since it was saved is refused (`UrlNotAllowed`). The answer's
        body is read up to `limit` bytes. `CallFailed` when no whole answer came."""
        target = await resolve(url, allow_private)
        try:
            request = h11.Request(
                method="POST",
                target=target.path,
                headers=[
                    ("host", target.netloc),
                    ("content-length", str(len(body))),
                    *headers.items(),
                ],
            )
        except h11.LocalProtocolError as exc:  # a header h11 will not send: nothing went out
            raise CallFailed(f"not a valid HTTP request: {exc}") from exc
        key = (target.scheme, target.address, target.port, target.host)
        stream = self._take(key)
        if stream is not None:
            try:
                return await self._exchange(key, stream, request, body, limit)
            except _Stale:
                pass  # the peer closed it while idle: once more on a new connection
        try:
            return await self._exchange(key, await self._open(target), request, body, limit)
        except _Stale as stale:
            raise CallFailed("the peer closed the connection without answering") from stale

    def _take(self, key: _Key) -> _Stream | None:
        streams = self._idle.get(key)
        now = time.monotonic()
        while streams:
            since, stream = streams.pop()
            alive = not stream[0].at_eof() and not stream[1].is_closing()
            if alive and now - since < self.KEEP_ALIVE_SECONDS:
                return stream
            stream[1].close()
        return None

    def _keep(self, key: _Key, stream: _Stream) -> None:
        streams = self._idle.setdefault(key, [])
        if len(streams) < self.IDLE_PER_TARGET:
            streams.append((time.monotonic(), stream))
        else:
            stream[1].close()

    async def _open(self, target: Target) -> _Stream:
        tls = None
        if target.scheme == "https":
            tls = self._tls or ssl.create_default_context()
            self._tls = tls
        try:
            return await asyncio.open_connection(
                target.address,
                target.port,
                ssl=tls,
                server_hostname=target.host if tls else None,
            )
        except OSError as exc:  # refused, unreachable, TLS refused (ssl.SSLError is one)
            raise CallFailed(f"{type(exc).__name__}: {exc}") from exc

    async def _exchange(
        self, key: _Key, stream: _Stream, request: h11.Request, body: bytes, limit: int
    ) -> Answer:
        reader, writer = stream
        kept = False
        try:
            answer, reusable = await _round_trip(reader, writer, request, body, limit)
            if reusable:
                self._keep(key, stream)
                kept = True
            return answer
        finally:
            if not kept:
                writer.close()


class _Stale(Exception):
    """A connection ended before any byte of the answer: it may have been closed idle."""


async def _round_trip(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    request: h11.Request,
    body: bytes,
    limit: int,
) -> tuple[Answer, bool]:
    """One request and its answer on a connection; whether the connection can be reused."""
    http = h11.Connection(h11.CLIENT)
    status, received, chunks = 0, 0, []
    try:
        writer.write(http.send(request) + http.send(h11.Data(data=body)))
        writer.write(http.send(h11.EndOfMessage()))
        await writer.drain()
        while True:
            event = http.next_event()
            if event is h11.NEED_DATA:
                data = await reader.read(Outbound.READ_SIZE)
                if not data and not status:
                    raise _Stale()
                http.receive_data(data)
            elif isinstance(event, h11.Response):
                status = event.status_code
            elif isinstance(event, h11.Data):
                received += len(event.data)
                if received > limit:
                    return Answer(status, None), False
                chunks.append(event.data)
            elif isinstance(event, h11.EndOfMessage):
                reusable = http.our_state is h11.DONE and http.their_state is h11.DONE
                return Answer(status, b"".join(chunks)), reusable
    except ConnectionError as exc:
        if not status:
            raise _Stale() from exc
        raise CallFailed(f"{type(exc).__name__}: {exc}") from exc
    except OSError as exc:
        raise CallFailed(f"{type(exc).__name__}: {exc}") from exc
    except h11.ProtocolError as exc:
        raise CallFailed(f"not an HTTP/1.1 answer: {exc}") from exc

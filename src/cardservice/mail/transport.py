"""Handing a message to the SMTP server (aiosmtplib): `smtp://` (STARTTLS when the server
offers it) or `smtps://` (TLS from the start), the server's certificate verified (against
`CARDSERVICE_SMTP_CA_FILE` when set, else the system's CAs), with the URL's user and password
when given.

Before the `DATA` command goes out the caller's `before_data` is awaited (the courier marks
the mail `in_doubt` there, docs/mail.md#delivery); when it answers False the session ends
with `QUIT` before `DATA` — the server keeps nothing — and `MailAbandoned` is raised.
What the outcome says:

* none: the server answered 250 to the message's end: it took it;
* `MailRefused`: a 5xx answer (but to the login), final;
* `MailFailed`: anything else before `DATA`, a 4xx at any step, or a refused login (a wrong
  password is the operator's to fix, not the mail's fault): try again later;
* `MailInDoubt`: `DATA` went out and no answer came (a lost connection, the timeout): the
  server may have taken the message, and SMTP gives no way to ask.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import unquote, urlsplit

import aiosmtplib


class MailFailed(Exception):
    """The server did not take the message; try again later."""


class MailRefused(MailFailed):
    """The server refused the message for good (a 5xx answer)."""


class MailInDoubt(MailFailed):
    """`DATA` went out and the server's answer to the message's end never came."""


class MailAbandoned(Exception):
    """`before_data` said no: the session ended before `DATA`, nothing was handed over."""


@dataclass(frozen=True, slots=True)
class SmtpServer:
    host: str
    port: int
    username: str | None
    password: str | None
    implicit_tls: bool
    ca_file: str | None = None

    @classmethod
    def from_url(cls, url: str, ca_file: str | None = None) -> SmtpServer:
        """`smtp[s]://[user[:password]@]host[:port]` (checked by Settings); port 25 or 465;
        `ca_file`: the CAs its certificate is verified against (None: the system's)."""
        parts = urlsplit(url)
        implicit = parts.scheme == "smtps"
        return cls(
            host=parts.hostname or "",
            port=parts.port or (465 if implicit else 25),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            implicit_tls=implicit,
            ca_file=ca_file,
        )

    def __repr__(self) -> str:  # never the password
        return f"SmtpServer({self.host}:{self.port}, tls={self.implicit_tls})"


def _code(exc: Exception) -> int | None:
    if isinstance(exc, aiosmtplib.SMTPRecipientsRefused) and exc.recipients:
        return min(r.code for r in exc.recipients)
    return exc.code if isinstance(exc, aiosmtplib.SMTPResponseException) else None


class _Session(aiosmtplib.SMTP):
    """aiosmtplib's client, asking `before_data` before its `DATA` command, and noting
    whether `DATA` went out and whether the message's end was answered 250."""

    def __init__(self, before_data: Callable[[], Awaitable[bool]], **options: Any) -> None:
        super().__init__(**options)
        self._before_data = before_data
        self.data_sent = self.taken = False

    async def data(self, message: str | bytes, /, **options: Any) -> aiosmtplib.SMTPResponse:
        if not await self._before_data():
            raise MailAbandoned("another attempt holds the mail")
        self.data_sent = True
        response = await super().data(message, **options)
        self.taken = True
        return response


async def _always() -> bool:
    return True


def _session(
    server: SmtpServer, seconds: float, before_data: Callable[[], Awaitable[bool]]
) -> _Session:
    return _Session(
        before_data,
        hostname=server.host,
        port=server.port,
        username=server.username,
        password=server.password,
        use_tls=server.implicit_tls,
        start_tls=False if server.implicit_tls else None,
        cert_bundle=server.ca_file,
        timeout=seconds,
    )


async def check_login(server: SmtpServer, seconds: float) -> None:
    """Connect, TLS and log in as the service does, then `QUIT` (`cardservice doctor`);
    `MailFailed` with the server's answer (never the password) when that fails."""
    try:
        async with asyncio.timeout(seconds), _session(server, seconds, _always):
            pass
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        raise MailFailed(f"{type(exc).__name__}: {exc}"[:500]) from exc


async def deliver(
    server: SmtpServer,
    message: EmailMessage,
    seconds: float,
    before_data: Callable[[], Awaitable[bool]] = _always,
) -> None:
    """Hand the message to the server within `seconds` (see the module's outcomes)."""
    session = _session(server, seconds, before_data)
    try:
        async with asyncio.timeout(seconds):
            async with session:
                await session.send_message(message)
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        if session.taken:  # the 250 came; what failed was the QUIT after it
            return
        code = _code(exc)
        text = f"{type(exc).__name__}: {exc}"[:500]
        if session.data_sent and code is None:
            raise MailInDoubt(text) from exc
        final = code is not None and 500 <= code < 600
        if final and not isinstance(exc, aiosmtplib.SMTPAuthenticationError):
            raise MailRefused(text) from exc
        raise MailFailed(text) from exc

"""Handing a message to the SMTP server (aiosmtplib): `smtp://` (STARTTLS when the server
offers it) or `smtps://` (TLS from the start), the server's certificate verified (against
`CARDSERVICE_SMTP_CA_FILE` when set, else the system's CAs), with the URL's user and password
when given.
A 5xx answer is final (`MailRefused`); anything else — a 4xx, a lost connection, a timeout —
is worth another attempt (`MailFailed`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

import aiosmtplib


class MailFailed(Exception):
    """The server did not take the message; try again later."""


class MailRefused(MailFailed):
    """The server refused the message for good (a 5xx answer)."""


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


async def deliver(server: SmtpServer, message: EmailMessage, seconds: float) -> None:
    """Hand the message to the server within `seconds`; `MailRefused` for a final no,
    `MailFailed` else."""
    try:
        async with asyncio.timeout(seconds):
            await aiosmtplib.send(
                message,
                hostname=server.host,
                port=server.port,
                username=server.username,
                password=server.password,
                use_tls=server.implicit_tls,
                start_tls=False if server.implicit_tls else None,
                cert_bundle=server.ca_file,
                timeout=seconds,
            )
    except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
        code = _code(exc)
        text = f"{type(exc).__name__}: {exc}"[:500]
        if code is not None and 500 <= code < 600:
            raise MailRefused(text) from exc
        raise MailFailed(text) from exc

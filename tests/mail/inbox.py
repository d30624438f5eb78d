"""A real SMTP server on 127.0.0.1 (aiosmtpd, in a thread of its own) that keeps every
message it is handed, and can hold its answer to the message (`hold()`): the client has sent
the whole message but is not told it arrived — the moment a killed sender cannot know about."""

from __future__ import annotations

import asyncio
import threading
import time
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from tests.live_server import _free_port


class Inbox:
    """`scheme` `smtps` with `ssl_context`: TLS from the connection's start; other `options`
    go to aiosmtpd's server (`tls_context`, `require_starttls`, `authenticator`, …)."""

    def __init__(self, scheme: str = "smtp", credentials: str = "", **options: Any) -> None:
        self.messages: list[EmailMessage] = []
        self.refusals: list[str] = []  # answers to the next messages instead of taking them
        self.logins: list[str] = []  # who the server authenticated, in order
        self._answer = threading.Event()
        self._answer.set()
        self.port = _free_port()
        self.scheme, self.credentials = scheme, credentials
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port, **options)

    @property
    def url(self) -> str:
        at = f"{self.credentials}@" if self.credentials else ""
        return f"{self.scheme}://{at}127.0.0.1:{self.port}"

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._answer.set()
        self._controller.stop()

    def hold(self) -> None:
        """Keep the next messages but do not answer them until `release()`."""
        self._answer.clear()

    def release(self) -> None:
        self._answer.set()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refusals:
            return self.refusals.pop(0)
        found = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(found, EmailMessage)
        found["X-Envelope-To"] = ", ".join(envelope.rcpt_tos)
        tls = server.transport.get_extra_info("ssl_object") is not None
        found["X-Over-TLS"] = "yes" if tls else "no"
        if session.authenticated:
            self.logins.append(str(session.login_data, "utf-8"))
        self.messages.append(found)
        while not self._answer.is_set():  # noqa: ASYNC110 - set from the test's thread
            await asyncio.sleep(0.01)
        return "250 Message accepted for delivery"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]

    async def wait_for(self, count: int, seconds: float = 60) -> list[EmailMessage]:
        """The messages once at least `count` arrived (fails after `seconds`)."""
        deadline = time.monotonic() + seconds
        while len(self.messages) < count:
            assert time.monotonic() < deadline, f"{len(self.messages)} of {count} mails arrived"
            await asyncio.sleep(0.05)
        return list(self.messages)

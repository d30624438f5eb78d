"""A real SMTP server on 127.0.0.1 (aiosmtpd, in a thread of its own) that keeps every
message it is handed, and where a test chooses what happens to one recipient's mail:

* `hold(address, at="rcpt")`: the session stops at that `RCPT TO` (no answer until
  `release()`): its client never reaches `DATA`, so the server keeps nothing of it;
* `hold(address)` (at `data`): the server keeps the whole message but does not answer its end
  until `release()` — the moment a killed sender cannot know about;
* `drop(address)`: the message's end is read, nothing kept, the connection closed unanswered.
"""

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
        self.held_at_rcpt: list[str] = []  # the recipients whose session waits at RCPT now
        self._holds: dict[str, str] = {}  # address → "rcpt" | "data"
        self._dropped: set[str] = set()
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

    def hold(self, address: str, at: str = "data") -> None:
        """Stop this recipient's sessions at `RCPT` or at the message's end until `release()`."""
        self._holds[address] = at
        self._answer.clear()

    def drop(self, address: str) -> None:
        """Lose this recipient's next message after its end: no answer, connection closed."""
        self._dropped.add(address)

    def release(self) -> None:
        self._holds.clear()
        self._answer.set()

    async def _wait(self) -> None:
        while not self._answer.is_set():  # noqa: ASYNC110 - set from the test's thread
            await asyncio.sleep(0.01)

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if self._holds.get(address) == "rcpt":
            self.held_at_rcpt.append(address)
            await self._wait()
            self.held_at_rcpt.remove(address)
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str | None:
        if self.refusals:
            return self.refusals.pop(0)
        to = ", ".join(envelope.rcpt_tos)
        if to in self._dropped:
            self._dropped.discard(to)
            server.transport.close()
            return None
        found = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(found, EmailMessage)
        found["X-Envelope-To"] = to
        tls = server.transport.get_extra_info("ssl_object") is not None
        found["X-Over-TLS"] = "yes" if tls else "no"
        if session.authenticated:
            self.logins.append(str(session.login_data, "utf-8"))
        self.messages.append(found)
        if self._holds.get(to) == "data":
            await self._wait()
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

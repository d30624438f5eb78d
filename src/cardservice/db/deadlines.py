"""An answer's deadline: a channel that must answer within a time (ISO 8583: `91` after
`CARDSERVICE_ISO8583_ANSWER_SECONDS`) runs the work under it (`within`) and answers for it
from the deadline's timer when it passes (`watch`), while the work goes on (a COMMIT is never
cancelled: it may be waiting for a synchronous standby, and a cancelled wait commits locally
only).

The work and the channel agree through the deadline (`current()`, a context variable of the
work's task):
- every write unit of the work carries it (`Database.transact` puts it on the Tx): once the
  channel has answered, the unit's next statement raises `AnsweredAlready` and the unit
  rolls back — nothing recorded, as the answer said. A unit that waited past the deadline
  (for a lock, a connection, SQLite's writer) stops there instead of running on;
- `claim()`, once the unit committed: the work's answer is the channel's (True), or the
  deadline passed during the COMMIT (False): the work must then undo what the answer says
  did not happen (ISO 8583: an approval's hold is released), in a unit run `outside()` it;
- `allow(seconds)`: the work is about to wait `seconds` for something the channel's answer
  may wait for (a decision endpoint, docs/controls.md#the-decision-endpoint): the deadline moves to
  after it, plus the time the channel gives the database.

Outside a channel with a deadline (HTTP, the CLI, tests calling a participant) `current()`
is None and `allow` does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import Callable

_current: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar(
    "cardservice_deadline", default=None
)


class Deadline:
    """`seconds` from now, moved by `allow`; `missed` once the channel answered for the work."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.at = asyncio.get_running_loop().time() + seconds
        self.claimed = False
        self.missed = False
        self._timer: asyncio.TimerHandle | None = None
        self._on_miss: Callable[[], None] = _nothing

    def watch(self, on_miss: Callable[[], None]) -> None:
        """Call `on_miss` (the channel's answer for the work) when the deadline passes before
        the work claimed its answer or ended (`stop`); from then on `missed`, and the work's
        `claim()` is False. A timer, not a task of its own beside the work: the work runs in
        the channel's task, under `within(self)` (one task a request, not two and a wait:
        docs/performance.md#the-services-python-an-approval)."""
        self._on_miss = on_miss
        self._timer = asyncio.get_running_loop().call_at(self.at, self._due)

    def _due(self) -> None:
        if self.claimed:  # its answer is on its way (no await between the claim and the end)
            return
        loop = asyncio.get_running_loop()
        if loop.time() < self.at:  # moved by `allow`
            self._timer = loop.call_at(self.at, self._due)
            return
        self.missed = True
        self._on_miss()

    def stop(self) -> bool:
        """The work ended: True when its answer is the channel's (the deadline had not been
        missed); the timer stops."""
        if self._timer is not None:
            self._timer.cancel()
        return not self.missed

    def claim(self) -> bool:
        """The work's answer is the channel's (True), or the channel answered for it."""
        if self.missed:
            return False
        self.claimed = True
        return True


def _nothing() -> None:
    pass


def allow(seconds: float) -> None:
    """The work will wait up to `seconds` for something outside the database: the deadline
    moves to `seconds` from now plus the time the channel gives the database."""
    deadline = _current.get()
    if deadline is not None:
        now = asyncio.get_running_loop().time()
        deadline.at = max(deadline.at, now + seconds + deadline.seconds)


class AnsweredAlready(Exception):
    """Raised by a unit's statement once the channel answered for its work: the unit rolls
    back, nothing is recorded (as the channel's answer said)."""


class _Carrying:
    """The units run inside carry `deadline` (a class, not a generator's context manager: a
    request enters two of them, docs/performance.md#a-units-fixed-python)."""

    __slots__ = ("_deadline", "_token")

    def __init__(self, deadline: Deadline | None) -> None:
        self._deadline = deadline

    def __enter__(self) -> None:
        self._token = _current.set(self._deadline)

    def __exit__(self, *_exc: object) -> None:
        _current.reset(self._token)


def outside() -> contextlib.AbstractContextManager[None]:
    """Units run here carry no deadline (the work's own undoing, after its channel answered)."""
    return _Carrying(None)


def within(deadline: Deadline | None) -> contextlib.AbstractContextManager[None]:
    """Units run here carry `deadline` (a request's work run by another task for it)."""
    return _Carrying(deadline)


def current() -> Deadline | None:
    """The deadline of the work running now (None outside a channel that has one). Read it
    in the work's own task: a unit may run in another (SQLite's units, `db/database.py`)."""
    return _current.get()

"""An answer's deadline: a channel that must answer within a time (ISO 8583: `91` after
`CARDSERVICE_ISO8583_ANSWER_SECONDS`) runs the work in a task of its own and answers for it
when the deadline passes, while the work goes on (a COMMIT is never cancelled: it may be
waiting for a synchronous standby, and a cancelled wait commits locally only).

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
import functools
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

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

    def start(self, work: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """The work in a task of its own, this deadline its context's."""
        token = _current.set(self)
        try:
            return asyncio.create_task(work)
        finally:
            _current.reset(token)

    def claim(self) -> bool:
        """The work's answer is the channel's (True), or the channel answered for it."""
        if self.missed:
            return False
        self.claimed = True
        return True

    async def wait(self, task: asyncio.Task[Any]) -> bool:
        """True when `task` ended (or claimed its answer) in time; False when the deadline
        passed first: from then on the work's `claim()` is False."""
        loop = asyncio.get_running_loop()
        while not task.done():
            if self.at <= loop.time() and not self.claimed:
                self.missed = True
                return False
            # one future woken by the task's end or the deadline's timer (what
            # `asyncio.wait({task}, timeout=…)` does, without its sets, coroutine and waiter
            # per call); claimed: no timer, its answer is on its way (no await between the
            # claim and the end)
            woken = loop.create_future()
            wake = functools.partial(_wake, woken)
            task.add_done_callback(wake)
            timer = None if self.claimed else loop.call_at(self.at, _wake, woken)
            try:
                await woken
            finally:
                task.remove_done_callback(wake)
                if timer is not None:
                    timer.cancel()
        return True


def _wake(woken: asyncio.Future[None], _task: object = None) -> None:
    if not woken.done():
        woken.set_result(None)


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


@contextlib.contextmanager
def outside() -> Iterator[None]:
    """Units run here carry no deadline (the work's own undoing, after its channel answered)."""
    token = _current.set(None)
    try:
        yield
    finally:
        _current.reset(token)


@contextlib.contextmanager
def within(deadline: Deadline | None) -> Iterator[None]:
    """Units run here carry `deadline` (a request's work run by another task for it)."""
    token = _current.set(deadline)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> Deadline | None:
    """The deadline of the work running now (None outside a channel that has one). Read it
    in the work's own task: a unit may run in another (SQLite's units, `db/database.py`)."""
    return _current.get()

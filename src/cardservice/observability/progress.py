"""A progress bar for long CLI jobs (`demo`, `keys rotate`, bench data sets): drawn on a
terminal, silent anywhere else, so logs and pipes never receive carriage returns."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import TracebackType
from typing import TextIO

BAR_WIDTH = 30
Report = Callable[[str, int, int], None]  # stage, items done, items in the stage


class Progress:
    """`with Progress("cards", total=500) as bar: bar.advance()` — one redrawn line on stderr."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None) -> None:
        self.label = label
        self.total = max(total, 1)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        self.visible = self.stream.isatty()

    def advance(self, step: int = 1) -> None:
        """Count `step` more items done and redraw the bar."""
        self.done = min(self.done + step, self.total)
        self._draw()

    def _draw(self) -> None:
        if not self.visible:
            return
        filled = BAR_WIDTH * self.done // self.total
        bar = "█" * filled + "░" * (BAR_WIDTH - filled)
        percent = 100 * self.done // self.total
        self.stream.write(f"\r{self.label} {bar} {percent:3d}% {self.done}/{self.total}")
        self.stream.flush()

    def __enter__(self) -> Progress:
        self._draw()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self.visible:
            self.stream.write("\n")
            self.stream.flush()


class Stages:
    """One bar per stage of a job (a table, a user's history), each finished when the next
    begins: `report(stage, done, total)` is the callback long jobs take."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream
        self._bar: Progress | None = None

    def report(self, stage: str, done: int, total: int) -> None:
        if self._bar is None or self._bar.label != stage:
            self.close()
            self._bar = Progress(stage, total, self.stream).__enter__()
        self._bar.advance(done - self._bar.done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)
            self._bar = None

    def __enter__(self) -> Stages:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

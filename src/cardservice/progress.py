"""A progress bar for long CLI jobs (`demo`, bench data sets): drawn on a terminal, silent
anywhere else, so logs and pipes never receive carriage returns."""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TextIO

BAR_WIDTH = 30


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

"""The order `make test` hands whole files to its xdist workers: the longest first, so that the
last files left are short ones and both workers finish together.

`--dist loadfile` gives a worker the next file in the queue whenever it has at most two
tests left; xdist's own queue order (most tests first) put the few-test heavy files (the
Schemathesis runs, the browser walks, a real `serve` per test) at the end, where one worker
ran them alone while the other had nothing left. `tests/durations.json` holds each file's
seconds on both databases (setup, call and teardown) from one run; a file it does not know
yet goes first, as if it were the longest. The Makefile passes `--no-loadscope-reorder` so
xdist keeps this order.

After tests were added or made faster, write the table again from a run's report:
    .venv/bin/python -m pytest -n 2 --dist loadfile --durations=0 ... > run.txt
    .venv/bin/python -m tests.durations run.txt
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path

import orjson
import pytest

TABLE = Path(__file__).with_name("durations.json")
_LINE = re.compile(r"^(?P<seconds>\d+(?:\.\d+)?)s (?:setup|call|teardown)\s+(?P<file>[^:\s]+)::")


def longest_first(items: list[pytest.Item]) -> None:
    """`items` in place: by their file's seconds in the table, the longest (and any file the
    table lacks) first; a file's own tests keep their order."""
    seconds: dict[str, float] = orjson.loads(TABLE.read_bytes())
    unknown = float("inf")

    def key(item: pytest.Item) -> tuple[float, str]:
        file = item.nodeid.split("::", 1)[0]
        return -seconds.get(file, unknown), file

    items.sort(key=key)


def table(report: str) -> dict[str, float]:
    """Each file's seconds from the `--durations=0` lines of a pytest report."""
    totals: defaultdict[str, float] = defaultdict(float)
    for line in report.splitlines():
        found = _LINE.match(line)
        if found is not None:
            totals[found["file"]] += float(found["seconds"])
    return {name: round(total, 1) for name, total in sorted(totals.items())}


if __name__ == "__main__":
    written = table(Path(sys.argv[1]).read_text())
    TABLE.write_bytes(orjson.dumps(written, option=orjson.OPT_INDENT_2) + b"\n")
    print(f"{len(written)} files, {sum(written.values()):.0f} s")

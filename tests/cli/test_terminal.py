"""The readable terminal: human log lines on a TTY, JSON otherwise (or as forced), Alembic's
plugin chatter silenced, and a progress bar only where a person watches."""

from __future__ import annotations

import io
import json
import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cardservice.observability.logs import (
    HumanFormatter,
    JsonFormatter,
    choose_formatter,
    configure_logging,
)
from cardservice.observability.progress import Progress, Stages

BASE = "http://127.0.0.1:8000"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _access_record() -> logging.LogRecord:
    record = logging.makeLogRecord(
        {"name": "cardservice.access", "levelname": "INFO", "levelno": 20, "msg": "request"}
    )
    record.__dict__.update(
        {"method": "GET", "path": "/accounts", "status": 200, "ms": 3.1, "request_id": "abc12345"}
    )
    return record


@pytest.mark.parametrize(
    ("log_format", "stream", "expected"),
    [
        ("auto", Terminal(), HumanFormatter),
        ("auto", io.StringIO(), JsonFormatter),
        ("human", io.StringIO(), HumanFormatter),
        ("json", Terminal(), JsonFormatter),
    ],
)
def test_the_format_follows_the_terminal_unless_forced(
    log_format: str, stream: io.StringIO, expected: type[logging.Formatter]
) -> None:
    assert isinstance(choose_formatter(log_format, stream), expected)


def test_a_human_line_is_one_colored_line_with_the_request() -> None:
    line = HumanFormatter().format(_access_record())
    assert "\n" not in line and "\x1b[32mINFO" in line
    assert "GET /accounts 200 3.1 ms" in line and "request_id=abc12345" in line


def test_a_json_line_parses_and_keeps_every_field() -> None:
    line = json.loads(JsonFormatter().format(_access_record()))
    assert line["msg"] == "request" and line["path"] == "/accounts" and line["status"] == 200


def test_alembic_plugin_lines_are_silenced() -> None:
    configure_logging("INFO")
    assert not logging.getLogger("alembic.runtime.plugins").isEnabledFor(logging.INFO)
    assert logging.getLogger("alembic.runtime.plugins").isEnabledFor(logging.WARNING)


def test_progress_draws_a_bar_on_a_terminal() -> None:
    terminal = Terminal()
    with Progress("cards", total=4, stream=terminal) as bar:
        for _ in range(4):
            bar.advance()
    text = terminal.getvalue()
    assert text.count("\r") == 5 and text.endswith("100% 4/4\n")
    assert "█" * 30 in text


def test_progress_is_silent_in_a_pipe() -> None:
    pipe = io.StringIO()
    with Progress("cards", total=4, stream=pipe) as bar:
        bar.advance(4)
    assert pipe.getvalue() == "" and bar.done == 4


def test_stages_draw_one_finished_bar_per_stage_on_a_terminal_only() -> None:
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        with Stages(stream) as bars:
            for walked in (2, 3):
                bars.report("cards", walked, 3)
            bars.report("codes", 1, 1)
    lines = terminal.getvalue().split("\n")
    assert lines[0].endswith("cards " + "█" * 30 + " 100% 3/3") and "\r" in lines[0]
    assert lines[1].endswith("codes " + "█" * 30 + " 100% 1/1") and lines[2] == ""
    assert pipe.getvalue() == ""


def test_the_steps_of_make_run_print_no_log_line_before_the_welcome(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "CARDSERVICE_VAR_DIR": str(tmp_path),
        "CARDSERVICE_DATABASE_URL": f"sqlite:///{tmp_path / 'cardservice.db.database'}",
        "CARDSERVICE_LOG_FORMAT": "json",
    }
    steps = [
        ["db", "upgrade"],
        ["demo"],
        ["dashboard", "link", "--email", "demo@cardservice.example", "--base-url", BASE],
    ]
    outputs = []
    for step in steps:
        done = subprocess.run(
            [sys.executable, "-m", "cardservice", *step],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        assert done.stderr == "", (step, done.stderr[:500])
        outputs.append(done.stdout.strip())
    assert re.fullmatch(rf"{re.escape(BASE)}/app/login\?link=[\w-]{{43}}", outputs[-1])

"""Logs on stderr: one JSON object a line for machines, one colored line for a person at a
terminal (`CARDSERVICE_LOG_FORMAT=auto|human|json`). Nothing secret is ever passed to a
logger (see docs/operations.md)."""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from typing import TextIO

import orjson

_STANDARD = frozenset(logging.makeLogRecord({}).__dict__) | {"message", "asctime", "color_message"}
RESET = "\x1b[0m"
DIM = "\x1b[2m"
LEVEL_COLORS = {
    "DEBUG": "\x1b[2m",
    "INFO": "\x1b[32m",
    "WARNING": "\x1b[33m",
    "ERROR": "\x1b[31m",
    "CRITICAL": "\x1b[1;31m",
}
# Loggers whose INFO lines say nothing to an operator (Alembic announces each plugin it loads).
QUIET_LOGGERS = ("alembic.runtime.plugins", "alembic.runtime.migration")
# The dashboard's calls into the API in process (dashboard/api.INTERNAL_BASE): each is
# logged once, by the access log; httpx's own line about it would be a second.
IN_PROCESS_HOST = "cardservice.internal"
# A URL or path followed by a query string; the query (`?` up to a space, quote, `#` or
# backslash) is cut from every line, whoever logged it: an MFA code travels in one.
_QUERY = re.compile(r"((?:[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/?#\"'\\]*)?/[^\s?#\"'\\]*)\?[^\s#\"'\\]*")


def without_query(text: str) -> str:
    """`text` with the query string of every URL or path in it cut off."""
    return _QUERY.sub(r"\1", text) if "?" in text else text


def _extras(record: logging.LogRecord) -> dict[str, object]:
    return {
        k: without_query(v) if isinstance(v, str) else v
        for k, v in record.__dict__.items()
        if k not in _STANDARD
    }


class _NotInProcess(logging.Filter):
    """Drops httpx's line about a request to the dashboard's in-process API."""

    def filter(self, record: logging.LogRecord) -> bool:
        return IN_PROCESS_HOST not in str(record.args)


class JsonFormatter(logging.Formatter):
    """`{"ts", "level", "logger", "msg", ...extras}` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC),  # orjson: …T10:15:00.123456Z
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": without_query(record.getMessage()),
        }
        line.update(_extras(record))
        if record.exc_info:
            line["exc"] = without_query(self.formatException(record.exc_info))
        return orjson.dumps(line, default=str, option=orjson.OPT_UTC_Z).decode()


class HumanFormatter(logging.Formatter):
    """`10:15:00 INFO  GET /accounts 200 3.1 ms` — time, colored level, then the event."""

    def format(self, record: logging.LogRecord) -> str:
        extras = _extras(record)
        clock = datetime.fromtimestamp(record.created, UTC).strftime("%H:%M:%S")
        color = LEVEL_COLORS.get(record.levelname, "")
        head = f"{DIM}{clock}{RESET} {color}{record.levelname:<7}{RESET} "
        if record.name == "cardservice.access" and "path" in extras:
            event = f"{extras.pop('method')} {extras.pop('path')} {extras.pop('status')}"
            event += f" {extras.pop('ms')} ms"
        else:
            event = f"{record.name.removesuffix('.error')}: {without_query(record.getMessage())}"
        details = " ".join(f"{k}={v}" for k, v in extras.items() if v is not None)
        line = head + event + (f" {DIM}{details}{RESET}" if details else "")
        if record.exc_info:
            line += "\n" + without_query(self.formatException(record.exc_info))
        return line


def choose_formatter(log_format: str, stream: TextIO) -> logging.Formatter:
    """`human` or `json` as asked; `auto` is human on a terminal, JSON anywhere else."""
    human = log_format == "human" or (log_format == "auto" and stream.isatty())
    return HumanFormatter() if human else JsonFormatter()


def configure_logging(level: str, log_format: str = "auto") -> None:
    """Route every logger (ours, uvicorn's, Alembic's) to stderr in the chosen format."""
    root = logging.getLogger()
    ours = (JsonFormatter, HumanFormatter)
    if not any(isinstance(h.formatter, ours) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(choose_formatter(log_format, sys.stderr))
        root.addHandler(handler)
    root.setLevel(level)
    # No line shows where it was logged from, nor the thread or process: logging's own
    # switches for not working them out on every record (the logging HOWTO, "Optimization")
    logging._srcfile = None
    logging.logThreads = logging.logProcesses = logging.logMultiprocessing = False
    for name in ("uvicorn", "uvicorn.error"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    logging.getLogger("uvicorn.access").disabled = True  # it would log query strings (_code)
    httpx_log = logging.getLogger("httpx")
    if not any(isinstance(f, _NotInProcess) for f in httpx_log.filters):
        httpx_log.addFilter(_NotInProcess())
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(logging.WARNING)

"""What every command module of the command line shares (Click): the argument types, the
one-line refusal, and how a command runs — its settings read when it runs (never for
`--help`), its coroutine on a fresh event loop, its value alone on stdout."""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import UTC, datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import click
from click.shell_completion import CompletionItem

from cardservice import runtime
from cardservice.catalogue import account_currencies
from cardservice.config import Settings
from cardservice.db.database import Database
from cardservice.ledger.minor_units import to_minor
from cardservice.models.base import utcnow
from cardservice.observability.logs import configure_logging

P = ParamSpec("P")
T = TypeVar("T")
DURATION = re.compile(r"^(\d+)([smhd])$")
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class CommandError(Exception):
    """A bad argument or a refused action: one line on stderr, exit status 2."""


def settings() -> Settings:
    """The process's settings (the server's `CARDSERVICE_*` environment), logs on stderr."""
    found = Settings()
    configure_logging(found.log_level, found.log_format)
    return found


def runs(
    body: Callable[Concatenate[Settings, P], Coroutine[Any, Any, str | None]],
) -> Callable[P, None]:
    """A command's callback: `body(settings, **options)` on a new event loop; the value it
    returns is printed alone on stdout (None prints nothing)."""

    @functools.wraps(body)
    def command(*args: P.args, **kwargs: P.kwargs) -> None:
        value = asyncio.run(body(settings(), *args, **kwargs))
        if value is not None:
            click.echo(value)

    return command


class Parsed(click.ParamType[T, Any]):
    """An argument read by `parse`, whose ValueError's text is the one-line refusal."""

    def __init__(
        self, name: str, parse: Callable[[str], T], choices: Callable[[], Sequence[str]] = tuple
    ) -> None:
        self.name = name
        self._parse = parse
        self._choices = choices  # offered to shell completion

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        start = incomplete.upper()
        return [CompletionItem(c) for c in self._choices() if c.upper().startswith(start)]

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> T:
        if not isinstance(value, str):
            return cast(T, value)  # a default, already of its type
        try:
            return self._parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def amount(text: str) -> int:
    """A positive amount with at most 2 decimals, in minor units."""
    try:
        value = to_minor(Decimal(text))
    except (InvalidOperation, ValueError):
        raise ValueError(f"not an amount with at most 2 decimals: {text!r}") from None
    if value <= 0:
        raise ValueError("an amount must be positive")
    return value


def instant(text: str) -> datetime:
    """An ISO 8601 instant with its zone, in UTC."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ValueError(f"not an ISO 8601 instant: {text!r}") from None
    if moment.tzinfo is None:
        raise ValueError(f"give the instant's offset (Z for UTC): {text!r}")
    return moment.astimezone(UTC)


def duration(text: str) -> timedelta:
    """A positive whole number of seconds, minutes, hours or days: 30d, 12h, 15m, 90s."""
    match = DURATION.match(text)
    if match is None or int(match.group(1)) == 0:
        raise ValueError(f"bad duration {text!r}: use e.g. 30d, 12h, 15m")
    return timedelta(seconds=int(match.group(1)) * UNIT_SECONDS[match.group(2)])


def currency_code(text: str) -> str:
    """Three letters, in any case; upper-cased (ISO 4217 spells codes in capitals)."""
    if not (len(text) == 3 and text.isascii() and text.isalpha()):
        raise ValueError(f"not a currency code such as USD: {text!r}")
    return text.upper()


def account_currency(text: str) -> str:
    """One of the catalogue's account currencies, in any case: `eur` is EUR."""
    code = text.upper()
    if code not in account_currencies():
        known = ", ".join(account_currencies())
        raise ValueError(f"{text!r} is not one of the catalogue's currencies: {known}")
    return code


AMOUNT = Parsed("amount", amount)
INSTANT = Parsed("instant", instant)
DURATION_TYPE = Parsed("duration", duration)
CURRENCY = Parsed("currency", currency_code)
ACCOUNT_CURRENCY = Parsed("currency", account_currency, account_currencies)


def due_at(verb: str) -> Callable[[Callable[P, T]], Callable[P, T]]:
    """The `--now` option of a periodic job run once from the command line (cron, tests)."""
    return click.option(
        "--now",
        type=INSTANT,
        help=f"{verb} what is due at this ISO 8601 instant, e.g. 2026-12-01T00:00:00Z "
        "(default: now).",
    )


async def run_job(
    settings: Settings, job: Callable[[Database, datetime], Awaitable[object]], now: datetime | None
) -> str:
    """A periodic job run once at `now` (default: the present) on a `Database` of its own;
    what it prints is what the job answered as text: how many things it did, or its report."""
    db = runtime.database(settings)
    try:
        return str(await job(db, now or utcnow()))
    finally:
        await db.dispose()

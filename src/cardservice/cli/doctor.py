"""`cardservice doctor`: is this environment a deployment that may serve cardholders? One
line per check, `ok` or `FAIL` and why, in the order below; exit status 1 on any failure
(docs/operations.md, "Deploying on PostgreSQL"). SQLite is reported, not failed: it is a
supported one-machine set-up. The keys are checked as `cardservice keys check` checks them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import click

from cardservice.cli.arguments import settings as read_settings
from cardservice.cli.card_keys import (
    KeyCommandError,
    computes_cvv2,
    stored_values_read,
    working_cipher,
)
from cardservice.config import Settings
from cardservice.errors import ServiceError
from cardservice.security import CardCipher, MissingEncryptionKey

log = logging.getLogger("cardservice.cli")


class CheckFailed(Exception):
    """A check's failure: its text says why."""


Check = Callable[[Settings], Awaitable[str]]


async def _database(settings: Settings) -> str:
    from cardservice.migrations import revisions

    try:
        current, heads = await revisions(settings.resolved_database_url)
    except Exception as exc:  # any driver's refusal: the deployment cannot reach it
        raise CheckFailed(f"cannot reach the database ({type(exc).__name__})") from exc
    engine = "SQLite (one machine: docs/operations.md)" if settings.is_sqlite else "PostgreSQL"
    if current != heads:
        at = ", ".join(sorted(current)) or "none"
        raise CheckFailed(
            f"{engine} at {at}, not at head {', '.join(sorted(heads))}: cardservice db upgrade"
        )
    return f"{engine}, migrations at head {', '.join(sorted(heads))}"


async def _keys(settings: Settings) -> str:
    cipher = working_cipher(settings)
    return f"{settings.key_backend}; {await stored_values_read(settings, cipher)}"


async def _cvk(settings: Settings) -> str:
    cipher = CardCipher.from_settings(settings)
    computes_cvv2(cipher)
    if settings.key_backend == "pkcs11":
        return "in the PKCS#11 token"
    return "CARDSERVICE_CVK" if settings.cvk else f"in {settings.resolved_key_file}"


async def _fingerprint_key(settings: Settings) -> str:
    if not settings.fingerprint_key:
        raise CheckFailed(
            "CARDSERVICE_FINGERPRINT_KEY is not pinned: it derives from the oldest encryption "
            "key, and retiring that key would break every card's fingerprint "
            "(cardservice keys fingerprint-key prints the one in use)"
        )
    return "pinned"


async def _pkcs11(settings: Settings) -> str:
    if settings.key_backend != "pkcs11":
        return "not used (CARDSERVICE_KEY_BACKEND=local)"
    from cardservice.security.pkcs11 import Pkcs11Cipher

    cipher = Pkcs11Cipher.from_settings(settings)
    assert isinstance(cipher, Pkcs11Cipher)
    with cipher.token.session() as session:
        generation, _key = cipher.keys.newest_pan_key(session)
    cipher.token.close()
    return (
        f"token {settings.pkcs11_token_label!r} reachable, card-number key generation {generation}"
    )


async def _metrics_token(settings: Settings) -> str:
    if not settings.metrics_token:
        raise CheckFailed(
            "CARDSERVICE_METRICS_TOKEN is not set: /metrics answers anyone who reaches the port"
        )
    return "set: /metrics needs it"


async def _sandbox(settings: Settings) -> str:
    if settings.sandbox:
        raise CheckFailed("CARDSERVICE_SANDBOX is on: anyone with a token can mint money")
    if settings.sandbox is None and settings.is_sqlite:
        raise CheckFailed(
            "CARDSERVICE_SANDBOX is unset: on SQLite served on a loopback address (behind a "
            "proxy) the sandbox is on; set CARDSERVICE_SANDBOX=0"
        )
    return "off"


async def _mail(settings: Settings) -> str:
    from cardservice.mail.transport import MailFailed, SmtpServer, check_login

    if not settings.smtp_url:
        return "not configured: no mail is sent (docs/mail.md#configuration)"
    ca_file = str(settings.smtp_ca_file) if settings.smtp_ca_file else None
    server = SmtpServer.from_url(settings.smtp_url, ca_file)
    try:
        await check_login(server, settings.smtp_timeout_seconds)
    except MailFailed as exc:
        raise CheckFailed(f"the SMTP server {server.host}:{server.port} refused us: {exc}") from exc
    login = f"logged in as {server.username}" if server.username else "no login"
    return f"{server.host}:{server.port} answers ({login})"


CHECKS: tuple[tuple[str, Check], ...] = (
    ("database", _database),
    ("keys", _keys),
    ("cvk", _cvk),
    ("fingerprint key", _fingerprint_key),
    ("pkcs11", _pkcs11),
    ("metrics token", _metrics_token),
    ("sandbox", _sandbox),
    ("mail", _mail),
)


async def _line(name: str, check: Check, settings: Settings) -> tuple[bool, str]:
    try:
        return True, f"ok   {name}: {await check(settings)}"
    except (CheckFailed, KeyCommandError, MissingEncryptionKey, ServiceError) as exc:
        return False, f"FAIL {name}: {' '.join(str(exc).split())}"
    except Exception as exc:  # a check never stops the others; its text may not be ours
        log.exception("doctor check failed", extra={"check": name})
        return False, f"FAIL {name}: {type(exc).__name__} (the log on stderr has the detail)"


async def _examine(settings: Settings) -> list[tuple[bool, str]]:
    lines = [await _line(*CHECKS[0], settings)]  # the database: the keys' check reads it
    for name, check in CHECKS[1:]:
        if name == "keys" and not lines[0][0]:
            lines.append((False, "FAIL keys: stored values not read: the database is not ready"))
            continue
        lines.append(await _line(name, check, settings))
    return lines


@click.command(name="doctor")
def doctor() -> None:
    """Check this deployment: database and migrations, keys, CVK, pins, PKCS#11, metrics, sandbox.

    One line per check (ok or FAIL and why); exits 1 on any failure."""
    lines = asyncio.run(_examine(read_settings()))
    for _ok, text in lines:
        click.echo(text)
    if not all(ok for ok, _text in lines):
        raise SystemExit(1)

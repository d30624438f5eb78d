"""`cardservice operator-keys create|list|revoke` (docs/operations.md#running-a-program; `topups
expire`: cli/topups.py) and `cardservice operator console-link`
(docs/operations.md#the-operator-console).

A key is printed once, alone on stdout, when it is created; `list` shows prefixes, never keys.
A console link is printed alone on stdout; it works once, within 15 minutes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import click

from cardservice import runtime
from cardservice.cli.arguments import runs
from cardservice.config import Settings
from cardservice.db.sql import Tx


async def in_unit(settings: Settings, work: Callable[[Tx], Awaitable[str]]) -> str:
    """Run `work` as one write unit on the configured database (the routes' own path)."""
    db = runtime.database(settings)
    try:
        return await db.transact(work)
    finally:
        await db.dispose()


@click.group(name="operator-keys")
def operator_keys() -> None:
    """The program operator's API keys (docs/operations.md#running-a-program)."""


@operator_keys.command(name="create")
@click.option("--name", required=True, help="What the key is for, e.g. back-office.")
@click.option(
    "--scopes",
    required=True,
    help="Comma-separated scopes: users,funding,cards,reports,network,catalogue,webhooks.",
)
@runs
async def create(settings: Settings, name: str, scopes: str) -> str:
    """Create a key; prints it once, alone."""
    from cardservice.operator import CLI, create_key, parse_scopes

    chosen = parse_scopes(scopes)

    async def work(tx: Tx) -> str:
        _uuid, plaintext = await create_key(tx, CLI, name, chosen)
        return plaintext

    return await in_unit(settings, work)


@operator_keys.command(name="list")
@runs
async def list_(settings: Settings) -> str:
    """Every key: id, prefix, name, scopes, state (never the key)."""
    from cardservice.operator import list_keys

    async def work(tx: Tx) -> str:
        keys = await list_keys(tx)
        return "\n".join(_line(key) for key in keys) if keys else "(no operator keys)"

    return await in_unit(settings, work)


def _line(key: dict[str, Any]) -> str:
    state = f"revoked {key['revoked_at']}" if key["revoked_at"] else "live"
    scopes = ",".join(key["scopes"])
    return f"{key['uuid']}  {key['prefix']}…  {key['name']}  {scopes}  {state}"


@operator_keys.command(name="revoke")
@click.argument("key", metavar="PREFIX_OR_ID")
@runs
async def revoke(settings: Settings, key: str) -> str:
    """Revoke the key PREFIX_OR_ID; prints how many.

    PREFIX_OR_ID: the key's id, or its first 12 characters."""
    from cardservice.operator import CLI, revoke_key

    async def work(tx: Tx) -> str:
        return str(await revoke_key(tx, CLI, key))

    return await in_unit(settings, work)


@click.group(name="operator")
def operator() -> None:
    """The program operator's console (docs/operations.md#the-operator-console)."""


@operator.command(name="console-link")
@click.option(
    "--base-url",
    default="",
    help="The service's address to put before the path, e.g. http://127.0.0.1:8000.",
)
@runs
async def console_link(settings: Settings, base_url: str) -> str:
    """Print a one-time operator console sign-in link (valid 15 minutes, audited)."""
    from cardservice.operator import CLI, create_console_link

    async def work(tx: Tx) -> str:
        url, _expires = await create_console_link(tx, CLI, base_url or settings.public_url)
        return url

    return await in_unit(settings, work)

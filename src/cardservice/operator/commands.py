"""`cardservice operator-keys create|list|revoke` (API.md §15; `topups expire`: topups/commands.py).

A key is printed once, alone on stdout, when it is created; `list` shows prefixes, never keys.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import Any

from cardservice.config import Settings
from cardservice.db import Database
from cardservice.sql import Tx


async def in_unit(settings: Settings, work: Callable[[Tx], Awaitable[str]]) -> str:
    """Run `work` as one write unit on the configured database (the routes' own path)."""
    db = Database(settings)
    try:
        return await db.transact(work)
    finally:
        await db.dispose()


async def _create(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.operator.keys import create_key, parse_scopes

    scopes = parse_scopes(args.scopes)

    async def work(tx: Tx) -> str:
        _uuid, plaintext = await create_key(tx, args.name, scopes)
        return plaintext

    return await in_unit(settings, work)


async def _list(_args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.operator.keys import list_keys

    async def work(tx: Tx) -> str:
        keys = await list_keys(tx)
        return "\n".join(_line(key) for key in keys) if keys else "(no operator keys)"

    return await in_unit(settings, work)


def _line(key: dict[str, Any]) -> str:
    state = f"revoked {key['revoked_at']}" if key["revoked_at"] else "live"
    scopes = ",".join(key["scopes"])
    return f"{key['uuid']}  {key['prefix']}…  {key['name']}  {scopes}  {state}"


async def _revoke(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.operator.keys import revoke_key

    async def work(tx: Tx) -> str:
        return str(await revoke_key(tx, args.key))

    return await in_unit(settings, work)


def register(sub: Any) -> None:
    """Add `operator-keys` to the CLI."""
    keys = sub.add_parser("operator-keys", help="the program operator's API keys").add_subparsers(
        dest="operator_keys", required=True
    )
    create = keys.add_parser("create", help="create a key; prints it once, alone")
    create.add_argument("--name", required=True)
    create.add_argument(
        "--scopes", required=True, help="comma-separated: users,funding,cards,reports,network"
    )
    create.set_defaults(handler=_create)
    keys.add_parser("list", help="every key: id, prefix, name, scopes, state").set_defaults(
        handler=_list
    )
    revoke = keys.add_parser("revoke", help="revoke a key by id or prefix; prints how many")
    revoke.add_argument("key", metavar="PREFIX_OR_ID")
    revoke.set_defaults(handler=_revoke)

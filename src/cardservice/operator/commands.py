"""`cardservice operator-keys create|list|revoke` and `cardservice topups expire` (API.md §15).

A key is printed once, alone on stdout, when it is created; `list` shows prefixes, never keys.
"""

from __future__ import annotations

import argparse
from datetime import datetime
from typing import Any

from cardservice.config import Settings
from cardservice.sql import Tx


async def _create(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.cli import in_unit
    from cardservice.operator.keys import create_key, parse_scopes

    scopes = parse_scopes(args.scopes)

    async def work(tx: Tx) -> str:
        _uuid, plaintext = await create_key(tx, args.name, scopes)
        return plaintext

    return await in_unit(settings, work)


async def _list(_args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.cli import in_unit
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
    from cardservice.cli import in_unit
    from cardservice.operator.keys import revoke_key

    async def work(tx: Tx) -> str:
        return str(await revoke_key(tx, args.key))

    return await in_unit(settings, work)


async def _expire(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.db import Database
    from cardservice.models.base import utcnow
    from cardservice.topups.service import sweep_expired_topups

    db = Database(settings)
    try:
        return str(await sweep_expired_topups(db, args.now or utcnow()))
    finally:
        await db.dispose()


def _instant(text: str) -> datetime:
    from cardservice.cli import CommandError

    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise CommandError(f"not an ISO 8601 instant: {text!r}") from None
    if moment.tzinfo is None:
        raise CommandError("give the instant with its zone, e.g. 2026-12-01T00:00:00Z")
    return moment


def register(sub: Any) -> None:
    """Add `operator-keys` and `topups` to the CLI."""
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
    topups = sub.add_parser("topups", help="top-ups").add_subparsers(dest="topups", required=True)
    expire = topups.add_parser("expire", help="expire the unpaid top-ups due; prints how many")
    expire.add_argument("--now", type=_instant, help="ISO 8601, e.g. 2026-12-01T00:00:00Z")
    expire.set_defaults(handler=_expire)

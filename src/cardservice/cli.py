"""The `cardservice` command: the same services as the routes, values alone on stdout."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import uuid
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from datetime import timedelta
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from cardservice.config import Settings
from cardservice.errors import ServiceError, ValidationFailed
from cardservice.events import outbox
from cardservice.keys import commands as key_commands
from cardservice.ledger import commands as ledger_commands
from cardservice.logs import configure_logging
from cardservice.network import commands as network_commands
from cardservice.network.commands import SimulationFailed
from cardservice.operator import commands as operator_commands
from cardservice.sandbox import commands as simulate_commands
from cardservice.sql import Tx
from cardservice.topups import commands as topup_commands
from cardservice.topups import service as topups
from cardservice.transactions import expiry

ModelT = TypeVar("ModelT", bound=BaseModel)
Handler = Callable[[argparse.Namespace, Settings], Coroutine[Any, Any, str | None]]
DURATION = re.compile(r"^(\d+)([smhd])$")
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class CommandError(Exception):
    """A bad argument or a refused action: one line on stderr, exit status 2."""


def parse_duration(text: str) -> timedelta:
    match = DURATION.match(text)
    if match is None or int(match.group(1)) == 0:
        raise CommandError(f"bad duration {text!r}: use e.g. 30d, 12h, 15m")
    return timedelta(seconds=int(match.group(1)) * UNIT_SECONDS[match.group(2)])


def parse_uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise CommandError(f"not a uuid: {text!r}") from None


async def in_unit(settings: Settings, work: Callable[[Tx], Awaitable[str]]) -> str:
    """Run `work` as one write unit on the configured database (the routes' own path)."""
    from cardservice.db import Database

    db = Database(settings)
    try:
        return await db.transact(work)
    finally:
        await db.dispose()


def _request(model: type[ModelT], **fields: Any) -> ModelT:
    """The operator API's request model, from the command's arguments (422 → one line)."""
    from cardservice.web import validation_errors

    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        raise ValidationFailed(errors=validation_errors(exc)) from None


def run_server(args: argparse.Namespace, settings: Settings) -> None:
    """Migrate the embedded database, prepare the workers' metrics directory (before any
    worker imports the metrics), then run uvicorn (it owns the event loop)."""
    import uvicorn

    from cardservice.http_protocol import protocol_class
    from cardservice.metrics import MULTIPROC_ENV, prepare_multiprocess_dir
    from cardservice.migrations import upgrade_database

    if args.workers < 1 or not 0 < args.port < 65536:
        raise CommandError("--workers must be ≥ 1 and --port 1..65535")
    metrics_dir = prepare_multiprocess_dir(settings.var_dir / "metrics" / str(args.port))
    os.environ[MULTIPROC_ENV] = str(metrics_dir)  # read by the workers' prometheus_client
    if settings.is_sqlite and args.migrate:
        asyncio.run(upgrade_database(settings.resolved_database_url))
    # The app is built by each worker from the environment: tell it how it is served (the
    # sandbox default and the in-process share of each rate limit depend on it).
    os.environ["CARDSERVICE_BIND_HOST"] = args.host
    os.environ["CARDSERVICE_WORKERS"] = str(args.workers)
    if args.iso8583_port is not None:  # every worker listens on it too (SO_REUSEPORT)
        os.environ["CARDSERVICE_ISO8583_PORT"] = str(args.iso8583_port)
    uvicorn.run(
        "cardservice.asgi:app",
        host=args.host,
        port=args.port,
        workers=args.workers,
        access_log=False,
        log_config=None,
        proxy_headers=False,
        http=protocol_class(),  # malformed HTTP gets the §1.1 body, not plain text
    )


async def cmd_worker(_args: argparse.Namespace, settings: Settings) -> None:
    """Deliver webhooks until SIGTERM or SIGINT (several may run on PostgreSQL)."""
    import signal

    from cardservice.db import Database
    from cardservice.migrations import upgrade_database
    from cardservice.outbound import Outbound
    from cardservice.security import CardCipher
    from cardservice.webhooks.worker import DeliveryWorker

    if settings.is_sqlite:
        await upgrade_database(settings.resolved_database_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    db = Database(settings)
    try:
        async with Outbound() as client:
            await DeliveryWorker(db, settings, CardCipher.from_settings(settings), client).run(stop)
    finally:
        await db.dispose()


async def cmd_db_upgrade(_args: argparse.Namespace, settings: Settings) -> None:
    from cardservice.migrations import upgrade_database

    await upgrade_database(settings.resolved_database_url)
    return None


async def cmd_users_create(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.operator.audit import CLI
    from cardservice.operator.schemas import CreateUserRequest
    from cardservice.operator.service import onboard_user

    body = _request(
        CreateUserRequest, email=args.email, name=args.name, team=args.team, role=args.role
    )

    async def work(tx: Tx) -> str:
        return str((await onboard_user(tx, CLI, body))["uuid"])

    return await in_unit(settings, work)


async def cmd_accounts_create(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.operator.audit import CLI
    from cardservice.operator.funding import open_account
    from cardservice.operator.schemas import CreateAccountRequest
    from cardservice.users.service import user_by_email

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, args.email)
        body = _request(
            CreateAccountRequest,
            user_uuid=str(user), name=args.name, currency=args.currency, type=args.type,
        )  # fmt: skip
        return str((await open_account(tx, CLI, body))["uuid"])

    return await in_unit(settings, work)


async def cmd_accounts_set_status(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.operator.audit import CLI
    from cardservice.operator.funding import change_account_status

    account = parse_uuid(args.account_uuid)

    async def work(tx: Tx) -> str:
        return str((await change_account_status(tx, CLI, account, args.status))["status"])

    return await in_unit(settings, work)


async def cmd_tokens_issue(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.operator.audit import CLI
    from cardservice.operator.service import issue_user_token
    from cardservice.users.service import user_by_email

    expires = parse_duration(args.expires_in) if args.expires_in else None

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, args.email)
        plaintext, _expires_at = await issue_user_token(tx, CLI, user, args.name, expires)
        return plaintext

    return await in_unit(settings, work)


async def cmd_tokens_revoke(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.auth.credentials import revoke_token

    async def work(tx: Tx) -> str:
        return str(await revoke_token(tx, args.token))

    return await in_unit(settings, work)


async def cmd_mfa_issue(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.auth.credentials import issue_mfa_code
    from cardservice.users.service import user_by_email

    if args.ttl < 10 or args.ttl > 86_400:
        raise CommandError("--ttl must be 10..86400 seconds")

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, args.email)
        code, _expires = await issue_mfa_code(tx, user, timedelta(seconds=args.ttl))
        return code

    return await in_unit(settings, work)


async def cmd_mfa_revoke(args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.auth.credentials import revoke_mfa_codes
    from cardservice.users.service import user_by_email

    async def work(tx: Tx) -> str:
        return str(await revoke_mfa_codes(tx, await user_by_email(tx, args.email)))

    return await in_unit(settings, work)


async def cmd_credentials_prune(_args: argparse.Namespace, settings: Settings) -> str | None:
    from cardservice.auth.credentials import prune_credentials
    from cardservice.models.base import utcnow

    async def work(tx: Tx) -> str:
        return str(await prune_credentials(tx, utcnow()))

    return await in_unit(settings, work)


async def cmd_keys_generate(_args: argparse.Namespace, _settings: Settings) -> str:
    from cardservice.security import generate_key

    return generate_key()


async def cmd_keys_generate_cvk(_args: argparse.Namespace, _settings: Settings) -> str:
    from cardservice.security import generate_cvk

    return generate_cvk()


async def cmd_keys_fingerprint_key(_args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.security import CardCipher

    return CardCipher.from_settings(settings).fingerprint_key.hex()


async def cmd_keys_rotate(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.db import Database
    from cardservice.key_rotation import rotate_keys
    from cardservice.progress import Stages
    from cardservice.security import CardCipher

    if not settings.fingerprint_key:
        raise CommandError(
            "pin the fingerprint key first, so retiring the old key keeps every card's "
            "fingerprint: CARDSERVICE_FINGERPRINT_KEY=$(cardservice keys fingerprint-key)"
        )
    if args.batch < 1:
        raise CommandError("--batch must be ≥ 1")
    cipher = CardCipher.from_settings(settings)
    if settings.key_backend == "pkcs11" and not args.resume:
        from cardservice.security.pkcs11 import Pkcs11Cipher

        assert isinstance(cipher, Pkcs11Cipher)
        cipher.keys.create_pan_key()  # a new generation in the token; then move every row

    db = Database(settings)
    try:
        with Stages() as bars:  # a bar per table on a terminal, nothing in a pipe
            changed = await rotate_keys(db, cipher, bars.report, args.batch)
    finally:
        await db.dispose()
    return str(changed)


async def cmd_dashboard_link(args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.operator.audit import CLI
    from cardservice.operator.service import sign_in_link
    from cardservice.users.service import user_by_email

    async def work(tx: Tx) -> str:
        url, _expires = await sign_in_link(
            tx, CLI, await user_by_email(tx, args.email), args.base_url
        )
        return url

    return await in_unit(settings, work)


async def cmd_openapi(_args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.app import create_app
    from cardservice.encoding import dumps

    app = create_app(settings)
    try:
        return dumps(app.openapi()).decode()
    finally:
        await app.state.db.dispose()


async def cmd_demo(_args: argparse.Namespace, settings: Settings) -> str:
    from cardservice.demo import create_demo
    from cardservice.progress import Stages

    with Stages() as bars:  # the history drawn on a terminal, nothing in a pipe
        return await create_demo(settings, bars.report)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardservice", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the API (migrates the embedded database first)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=1)
    serve.add_argument(
        "--no-migrate",
        dest="migrate",
        action="store_false",
        help="skip the embedded database's migration check (already done, as in `make run`)",
    )
    serve.add_argument(
        "--iso8583-port",
        type=int,
        help="also answer ISO 8583 on this port (API.md §14; CARDSERVICE_ISO8583_PORT)",
    )
    serve.set_defaults(handler=None, run=run_server)

    sub.add_parser("worker", help="deliver webhooks (serve runs one loop too)").set_defaults(
        handler=cmd_worker
    )

    db = sub.add_parser("db", help="database migrations").add_subparsers(dest="db", required=True)
    db.add_parser("upgrade", help="apply pending migrations").set_defaults(handler=cmd_db_upgrade)

    users = sub.add_parser("users", help="users").add_subparsers(dest="users", required=True)
    create = users.add_parser("create", help="create a user; prints its uuid")
    create.add_argument("--email", required=True)
    create.add_argument("--name", required=True)
    create.add_argument("--team")
    create.add_argument("--role", choices=["owner", "member"])
    create.set_defaults(handler=cmd_users_create)

    accounts = sub.add_parser("accounts", help="accounts").add_subparsers(
        dest="accounts", required=True
    )
    acc = accounts.add_parser("create", help="create an account; prints its uuid")
    acc.add_argument("--email", required=True)
    acc.add_argument("--name", required=True)
    acc.add_argument("--currency", required=True)
    acc.add_argument("--type", default="main")
    acc.set_defaults(handler=cmd_accounts_create)
    status = accounts.add_parser("set-status", help="set an account's status")
    status.add_argument("account_uuid")
    status.add_argument("status", choices=["active", "frozen", "closed"])
    status.set_defaults(handler=cmd_accounts_set_status)

    tokens = sub.add_parser("tokens", help="bearer tokens").add_subparsers(
        dest="tokens", required=True
    )
    issue = tokens.add_parser("issue", help="issue a token; prints it alone")
    issue.add_argument("--email", required=True)
    issue.add_argument("--name", default="cli")
    issue.add_argument("--expires-in")
    issue.set_defaults(handler=cmd_tokens_issue)
    revoke = tokens.add_parser("revoke", help="revoke a token by id or prefix")
    revoke.add_argument("token", metavar="TOKEN_PREFIX_OR_ID")
    revoke.set_defaults(handler=cmd_tokens_revoke)

    mfa = sub.add_parser("mfa", help="MFA codes").add_subparsers(dest="mfa", required=True)
    code = mfa.add_parser("issue", help="issue an MFA code; prints it alone")
    code.add_argument("--email", required=True)
    code.add_argument("--ttl", type=int, default=600)
    code.set_defaults(handler=cmd_mfa_issue)
    mfa_revoke = mfa.add_parser("revoke", help="revoke all of a user's codes; prints how many")
    mfa_revoke.add_argument("--email", required=True)
    mfa_revoke.set_defaults(handler=cmd_mfa_revoke)

    credentials = sub.add_parser("credentials", help="tokens and codes").add_subparsers(
        dest="credentials", required=True
    )
    credentials.add_parser(
        "prune", help="delete tokens and codes dead for 30 days; prints how many"
    ).set_defaults(handler=cmd_credentials_prune)

    keys = sub.add_parser("keys", help="encryption keys").add_subparsers(dest="keys", required=True)
    keys.add_parser("generate", help="print a new encryption key").set_defaults(
        handler=cmd_keys_generate
    )
    keys.add_parser(
        "generate-cvk", help="print a new card verification key (CARDSERVICE_CVK)"
    ).set_defaults(handler=cmd_keys_generate_cvk)
    keys.add_parser(
        "fingerprint-key", help="print the card-fingerprint key in use (to pin it)"
    ).set_defaults(handler=cmd_keys_fingerprint_key)
    rotate = keys.add_parser(
        "rotate", help="re-encrypt every stored secret under the newest key; prints how many"
    )
    rotate.add_argument("--batch", type=int, default=500, help="rows per write unit")
    rotate.add_argument(
        "--resume", action="store_true", help="pkcs11: no new key, finish the last rotation"
    )
    rotate.set_defaults(handler=cmd_keys_rotate)
    key_commands.register(keys)

    dashboard = sub.add_parser("dashboard", help="the web dashboard").add_subparsers(
        dest="dashboard", required=True
    )
    link = dashboard.add_parser("link", help="print a one-time sign-in link (15 minutes)")
    link.add_argument("--email", required=True)
    link.add_argument("--base-url", default="", help="e.g. http://127.0.0.1:8000")
    link.set_defaults(handler=cmd_dashboard_link)

    sub.add_parser("openapi", help="print the OpenAPI document").set_defaults(handler=cmd_openapi)

    sub.add_parser("demo", help="create demo data; prints a bearer token last").set_defaults(
        handler=cmd_demo
    )
    simulate_commands.register(sub)
    ledger_commands.register(sub)
    network_commands.register(sub)
    operator_commands.register(sub)
    topup_commands.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; never prints a traceback for a user error."""
    parser = _parser()
    args = parser.parse_args(argv)
    settings = Settings()
    configure_logging(settings.log_level, settings.log_format)
    outbox.register()
    expiry.register()
    topups.register()  # the unpaid top-ups' sweep (API.md §15)
    handler: Handler | None = args.handler
    try:
        if handler is None:
            args.run(args, settings)
            return 0
        value = asyncio.run(handler(args, settings))
    except (CommandError, ServiceError, argparse.ArgumentTypeError, SimulationFailed) as exc:
        detail = ""
        if isinstance(exc, ServiceError) and exc.errors:
            detail = " (" + "; ".join(f"{k}: {', '.join(v)}" for k, v in exc.errors.items()) + ")"
        print(f"cardservice: error: {exc}{detail}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    if value is not None:
        print(value)
    return 0

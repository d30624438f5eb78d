"""The `cardservice` command (Click): the same services as the routes, values alone on stdout,
a refusal as one line on stderr with exit status 2. Each command module adds its group:
`cardholders.py` (users, accounts, cards, tokens, MFA codes, credentials, dashboard links),
`catalogue.py` (BINs, a program's fees, FX rates), `clearing.py`, `card_keys.py` (the card
keys: `keys …`), `ledger.py`, `network.py`, `operator_keys.py` (the operator API keys, the
console's links), `simulate.py`, `teams.py` and `topups.py`; the server's own commands are
here."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import click

from cardservice.cli.arguments import CommandError, runs, settings
from cardservice.cli.card_keys import keys
from cardservice.cli.cardholders import COMMANDS as CARDHOLDER_COMMANDS
from cardservice.cli.catalogue import catalogue
from cardservice.cli.clearing import clearing
from cardservice.cli.disputes import disputes
from cardservice.cli.doctor import doctor
from cardservice.cli.ledger import ledger
from cardservice.cli.mail import mail
from cardservice.cli.network import SimulationFailed, network
from cardservice.cli.operator_keys import operator, operator_keys
from cardservice.cli.simulate import simulate
from cardservice.cli.teams import team
from cardservice.cli.topups import topups as topups_commands
from cardservice.config import Settings
from cardservice.errors import ServiceError

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}
__all__ = ["CommandError", "cardservice", "main"]


@click.group(name="cardservice", context_settings=CONTEXT)
def cardservice() -> None:
    """cardservice: a self-hostable card-issuing service. Every command reads the server's
    CARDSERVICE_* environment; a value it prints is alone on stdout, logs go to stderr."""


@dataclass(frozen=True, slots=True)
class ServeOptions:
    host: str
    port: int
    workers: int
    migrate: bool
    iso8583_port: int | None


@cardservice.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to bind.")
@click.option("--port", type=click.INT, default=8000, show_default=True, help="The HTTP port.")
@click.option(
    "--workers",
    type=click.INT,
    default=1,
    show_default=True,
    help="Server processes (each with its own event loop and webhook loop).",
)
@click.option(
    "--no-migrate",
    is_flag=True,
    help="Skip the embedded database's migration check (already done, as in `make run`).",
)
# the ISO 8583 listener, answered from processes of its own (a help text is wrapped at
# hyphens, so the option cites its headings here): docs/network.md#the-network-interface-iso-8583,
# docs/network.md#isolation-from-other-work
@click.option(
    "--iso8583-port",
    type=click.INT,
    help="Also answer ISO 8583 on this port, from processes of its own, one per worker"
    " (CARDSERVICE_ISO8583_PORT).",
)
def serve(host: str, port: int, workers: int, no_migrate: bool, iso8583_port: int | None) -> None:
    """Serve the API (migrates the embedded database first)."""
    run_server(ServeOptions(host, port, workers, not no_migrate, iso8583_port), settings())


def run_server(args: ServeOptions, settings: Settings) -> None:
    """Migrate the embedded database, prepare the workers' metrics directory (before any
    worker imports the metrics), start the network's processes when an ISO 8583 port is
    set, then run uvicorn (it owns the event loop)."""
    import uvicorn

    from cardservice.http.protocol import protocol_class
    from cardservice.migrations import upgrade_database
    from cardservice.network.process import NetworkProcesses
    from cardservice.observability.metrics import count_in_files

    if args.workers < 1 or not 0 < args.port < 65536:
        raise CommandError("--workers must be ≥ 1 and --port 1..65535")
    count_in_files(settings.var_dir / "metrics" / str(args.port))  # every process of the server
    if settings.is_sqlite and args.migrate:
        asyncio.run(upgrade_database(settings.resolved_database_url))
    # The app is built by each worker from the environment: tell it how it is served (the
    # sandbox default and the in-process share of each rate limit depend on it).
    os.environ["CARDSERVICE_BIND_HOST"] = args.host
    os.environ["CARDSERVICE_WORKERS"] = str(args.workers)
    if args.iso8583_port is not None:
        os.environ["CARDSERVICE_ISO8583_PORT"] = str(args.iso8583_port)
    iso8583_port = args.iso8583_port or settings.iso8583_port
    # the network answers from processes of its own, one per worker
    # (docs/network.md#isolation-from-other-work)
    with NetworkProcesses(args.workers if iso8583_port is not None else 0):
        uvicorn.run(
            "cardservice.asgi:app",
            host=args.host,
            port=args.port,
            workers=args.workers,
            access_log=False,
            log_config=None,
            proxy_headers=False,
            # malformed HTTP gets the docs/api.md#errors body, not plain text
            http=protocol_class(),
        )


@cardservice.command(name="worker")
@runs
async def worker(settings: Settings) -> None:
    """Deliver webhooks and run the periodic jobs (the ledger's sealer among them) until
    SIGTERM or SIGINT.

    `serve` runs one delivery loop in every process too; several workers may run on
    PostgreSQL."""
    import signal

    from cardservice import runtime
    from cardservice.migrations import upgrade_database
    from cardservice.webhooks import DeliveryWorker

    if settings.is_sqlite:
        await upgrade_database(settings.resolved_database_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    parts = runtime.build(settings)
    try:
        await DeliveryWorker(parts.db, settings, parts.cipher, parts.outbound, parts.jobs).run(stop)
    finally:
        await parts.aclose()


@cardservice.group(name="db")
def db() -> None:
    """Database migrations."""


@db.command(name="upgrade")
@runs
async def db_upgrade(settings: Settings) -> None:
    """Apply the pending migrations to CARDSERVICE_DATABASE_URL."""
    from cardservice.migrations import upgrade_database

    await upgrade_database(settings.resolved_database_url)


@cardservice.command(name="openapi")
@runs
async def openapi(settings: Settings) -> str:
    """Print the OpenAPI document (`make client` reads it)."""
    from cardservice.app import create_app
    from cardservice.encoding import dumps

    app = create_app(settings)
    try:
        return dumps(app.openapi()).decode()
    finally:
        await app.state.db.dispose()


@cardservice.command(name="demo")
@runs
async def demo(settings: Settings) -> str:
    """Create the demo data (once); prints a bearer token last.

    The demo owner's token is kept in <var>/demo-token and reused while valid."""
    from cardservice.demo.seed import create_demo
    from cardservice.observability.progress import Stages

    with Stages() as bars:  # the history drawn on a terminal, nothing in a pipe
        return await create_demo(settings, bars.report)


for group in (
    *CARDHOLDER_COMMANDS,
    catalogue,
    clearing,
    doctor,
    keys,
    disputes,
    ledger,
    mail,
    network,
    operator,
    operator_keys,
    simulate,
    team,
    topups_commands,
):
    cardservice.add_command(group)


def _refusal(exc: Exception) -> str:
    """One line: the refusal, and a service error's field errors."""
    if isinstance(exc, click.UsageError) and exc.ctx is not None:
        return f"{exc.ctx.command_path}: error: {' '.join(exc.format_message().split())}"
    detail = ""
    if isinstance(exc, ServiceError) and exc.errors:
        detail = " (" + "; ".join(f"{k}: {', '.join(v)}" for k, v in exc.errors.items()) + ")"
    message = exc.format_message() if isinstance(exc, click.ClickException) else str(exc)
    return f"cardservice: error: {' '.join(message.split())}{detail}"


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; never prints a traceback for a user error."""
    try:
        code = cardservice.main(
            args=list(argv) if argv is not None else None,
            prog_name="cardservice",
            standalone_mode=False,
        )
    except click.exceptions.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help(), file=sys.stderr)
        return 2
    except (click.ClickException, CommandError, ServiceError, SimulationFailed) as exc:
        print(_refusal(exc), file=sys.stderr)
        return 2
    except click.Abort:
        return 130
    return code if isinstance(code, int) else 0

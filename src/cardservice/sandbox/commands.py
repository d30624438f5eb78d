"""`cardservice simulate …`: the sandbox engine from the command line, for scripted scenarios."""

from __future__ import annotations

import argparse
import uuid
from datetime import timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

from cardservice import cli_types
from cardservice.config import Settings
from cardservice.db import Database
from cardservice.models.base import utcnow
from cardservice.outbound import Outbound
from cardservice.security import CardCipher
from cardservice.sql import Tx
from cardservice.transactions.authorize import authorization_of, authorize_card
from cardservice.transactions.deposits import deposit
from cardservice.transactions.expiry import sweep_expired_holds
from cardservice.transactions.schemas import ERROR_SLUGS
from cardservice.transactions.service import (
    CaptureMessage,
    RefundMessage,
    ReversalMessage,
    capture_purchase,
    refund_purchase,
    reverse_purchase,
)
from cardservice.transactions.three_ds import issue_code
from cardservice.users.service import user_by_email


def _rate(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise argparse.ArgumentTypeError(f"not a rate: {text!r}") from None
    if not value.is_finite() or value <= 0:
        raise argparse.ArgumentTypeError("a rate must be a positive number")
    return value


def _uuid(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a uuid: {text!r}") from None


async def _run(args: argparse.Namespace, settings: Settings) -> str:
    db, cipher = Database(settings), CardCipher.from_settings(settings)

    async def unit(tx: Tx) -> str:
        user = await user_by_email(tx, args.email)
        result: str = await args.action(tx, cipher, user, args)
        return result

    try:
        return await db.transact(unit)
    finally:
        await db.dispose()


async def _expire_holds(args: argparse.Namespace, settings: Settings) -> str:
    """Release the holds due at `--now` (default: now); prints how many were released."""
    db = Database(settings)
    try:
        return str(await sweep_expired_holds(db, args.now or utcnow()))
    finally:
        await db.dispose()


async def _deposit(tx: Tx, _cipher: CardCipher, user: uuid.UUID, args: Any) -> str:
    return str((await deposit(tx, user, args.account, args.amount))["uuid"])


async def _run_authorization(args: argparse.Namespace, settings: Settings) -> str:
    """An authorization as the sandbox route answers it: the user's decision endpoint is
    asked between two units of work (transactions/authorize.py), so it has a handler of its own."""
    db, cipher, http = Database(settings), CardCipher.from_settings(settings), Outbound()
    message = authorization_of(
        args.card, args.amount, args.currency, args.merchant, vars(args), "sandbox"
    )
    try:
        user = await db.transact(lambda tx: user_by_email(tx, args.email))
        row = await authorize_card(
            db, http, cipher, user, message, allow_private=settings.private_urls_allowed
        )
    finally:
        await http.aclose()
        await db.dispose()
    error = row["error_slug"]
    return f"{row['uuid']} {row['status']}{' ' + error if error else ''}"


async def _transition(args: argparse.Namespace, settings: Settings) -> str:
    """A capture, reversal or refund through its entry (transactions/service.py)."""
    db, purchase = Database(settings), args.transaction
    try:
        user = await db.transact(lambda tx: user_by_email(tx, args.email))
        if args.step == "refund":
            row = await refund_purchase(db, user, RefundMessage(purchase, args.amount, "sandbox"))
        elif args.step == "settle":
            capture = CaptureMessage(purchase, args.amount, args.final, args.rate, "sandbox")
            row = await capture_purchase(db, user, capture)
        else:
            row = await reverse_purchase(db, user, ReversalMessage(purchase, "sandbox"))
    finally:
        await db.dispose()
    return str(row["status"])


async def _three_ds(tx: Tx, cipher: CardCipher, user: uuid.UUID, args: Any) -> str:
    ttl = timedelta(seconds=args.ttl)
    record = await issue_code(
        tx, cipher, user, args.card, args.merchant, args.amount, args.currency, ttl
    )
    return str(record["code"])


def register(sub: Any) -> None:
    """Add `simulate deposit|authorize|settle|reverse|refund|3ds|expire-holds` to the CLI."""
    simulate = sub.add_parser("simulate", help="drive the card-network simulator").add_subparsers(
        dest="simulate", required=True
    )
    dep = simulate.add_parser("deposit", help="money arrives on an account; prints the transaction")
    dep.add_argument("--account", type=_uuid, required=True)
    dep.add_argument("--amount", type=cli_types.amount, required=True)
    dep.set_defaults(action=_deposit)
    auth = simulate.add_parser("authorize", help="a card authorization; prints uuid and status")
    auth.add_argument("--card", type=_uuid, required=True)
    auth.add_argument("--amount", type=cli_types.amount, required=True)
    auth.add_argument("--currency", default="USD")
    auth.add_argument("--merchant", required=True)
    auth.add_argument("--mcc")
    auth.add_argument("--tag")
    auth.add_argument("--three-ds-code")
    auth.add_argument(
        "--force-decline", choices=ERROR_SLUGS, help="decline with this transaction-errors slug"
    )
    auth.set_defaults(handler=_run_authorization)
    for step in ("settle", "reverse", "refund"):
        parser = simulate.add_parser(step, help=f"{step} a purchase; prints its status")
        parser.add_argument("transaction", type=_uuid)
        if step in ("refund", "settle"):
            parser.add_argument("--amount", type=cli_types.amount)
        if step == "settle":
            parser.add_argument(
                "--keep-rest-held",
                dest="final",
                action="store_false",
                help="a partial capture that keeps the rest held for later captures",
            )
            parser.add_argument(
                "--rate",
                type=_rate,
                help="a foreign-currency purchase's capture at this rate (merchant → card)",
            )
        parser.set_defaults(step=step, handler=_transition)
    code = simulate.add_parser("3ds", help="a 3DS code for a card; prints the code")
    code.add_argument("--card", type=_uuid, required=True)
    code.add_argument("--merchant", required=True)
    code.add_argument("--amount", type=cli_types.amount, required=True)
    code.add_argument("--currency", default="USD")
    code.add_argument("--ttl", type=int, default=600)
    code.set_defaults(action=_three_ds)
    expire = simulate.add_parser(
        "expire-holds", help="release the holds due at an instant; prints how many"
    )
    expire.add_argument("--now", type=cli_types.instant, help="ISO 8601, e.g. 2026-12-01T00:00:00Z")
    expire.set_defaults(handler=_expire_holds)
    for parser in (
        dep,
        auth,
        code,
        *(simulate.choices[s] for s in ("settle", "reverse", "refund")),
    ):
        parser.add_argument("--email", required=True, help="the user acting")
        if parser.get_default("handler") is None:
            parser.set_defaults(handler=_run)

"""`cardservice simulate …`: the sandbox engine from the command line, for scripted scenarios."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any

import click

from cardservice import runtime
from cardservice.cli.arguments import AMOUNT, CURRENCY, Parsed, due_at, run_job, runs
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.security import CardCipher
from cardservice.transactions import (
    ERROR_SLUGS,
    CaptureMessage,
    RefundMessage,
    ReversalMessage,
    authorization_of,
    authorize_card,
    capture_purchase,
    issue_code,
    refund_purchase,
    reverse_purchase,
    sweep_expired_holds,
)
from cardservice.transactions import deposit as deposit_money
from cardservice.users import user_by_email


def _rate(text: str) -> Decimal:
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"not a rate: {text!r}") from None
    if not value.is_finite() or value <= 0:
        raise ValueError("a rate must be a positive number")
    return value


RATE = Parsed("rate", _rate)
EMAIL = click.option("--email", required=True, help="The user acting (their email).")


@click.group(name="simulate")
def simulate() -> None:
    """Drive the sandbox's card-network simulator.

    The sandbox routes' entries, from the command line (docs/transactions.md)."""


async def _as_user(settings: Settings, email: str, action: Callable[..., Any]) -> str:
    """Run `action(tx, cipher, user)` as one write unit, for the user with this email."""
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher

    async def unit(tx: Tx) -> str:
        result: str = await action(tx, cipher, await user_by_email(tx, email))
        return result

    try:
        return await db.transact(unit)
    finally:
        await parts.aclose()


@simulate.command(name="deposit")
@click.option("--account", type=click.UUID, required=True, help="The account's uuid.")
@click.option("--amount", type=AMOUNT, required=True, help="e.g. 100 or 12.50")
@EMAIL
@runs
async def deposit(settings: Settings, account: uuid.UUID, amount: int, email: str) -> str:
    """Money arrives on an account; prints the transaction's uuid."""

    async def action(tx: Tx, _cipher: CardCipher, user: uuid.UUID) -> str:
        return str((await deposit_money(tx, user, account, amount))["uuid"])

    return await _as_user(settings, email, action)


@simulate.command(name="authorize")
@click.option("--card", type=click.UUID, required=True, help="The card's uuid.")
@click.option("--amount", type=AMOUNT, required=True, help="In the merchant's currency, e.g. 12.50")
@click.option(
    "--currency",
    type=CURRENCY,
    default="USD",
    show_default=True,
    help="The merchant's currency (any case).",
)
@click.option("--merchant", required=True, help="The merchant's name, e.g. Netflix.")
@click.option("--mcc", help="The merchant category code, 4 digits.")
@click.option("--tag", help="A merchant tag of the dictionary, e.g. netflix.")
@click.option("--three-ds-code", help="A 3DS code from `simulate 3ds`.")
@click.option(
    "--force-decline",
    type=click.Choice(ERROR_SLUGS),
    metavar="SLUG",
    help="Decline with this transaction-errors slug, e.g. card_frozen.",
)
@EMAIL
@runs
async def authorize(
    settings: Settings, card: uuid.UUID, amount: int, currency: str, merchant: str,
    mcc: str | None, tag: str | None, three_ds_code: str | None, force_decline: str | None,
    email: str,
) -> str:  # fmt: skip
    """A card authorization; prints its uuid and status.

    A decline adds its slug. The user's decision endpoint is asked between two units of
    work, as the sandbox route does (transactions/authorize.py)."""
    parts = runtime.build(settings)
    db, cipher, http = parts.db, parts.cipher, parts.outbound
    details = {
        "mcc": mcc, "tag": tag, "three_ds_code": three_ds_code, "force_decline": force_decline
    }  # fmt: skip
    message = authorization_of(card, amount, currency, merchant, details, "sandbox")
    try:
        user = await db.transact(lambda tx: user_by_email(tx, email))
        row = await authorize_card(
            db, http, cipher, user, message, allow_private=settings.private_urls_allowed
        )
    finally:
        await parts.aclose()
    error = row["error_slug"]
    return f"{row['uuid']} {row['status']}{' ' + error if error else ''}"


async def _step(settings: Settings, email: str, run: Callable[..., Any]) -> str:
    """A capture, reversal or refund through its entry (transactions/service.py): its status."""
    db = runtime.database(settings)
    try:
        user = await db.transact(lambda tx: user_by_email(tx, email))
        row = await run(db, user)
    finally:
        await db.dispose()
    return str(row["status"])


TRANSACTION = click.argument("transaction", type=click.UUID)


@simulate.command(name="settle")
@TRANSACTION
@click.option("--amount", type=AMOUNT, help="Capture this much (default: what is held).")
@click.option(
    "--keep-rest-held",
    is_flag=True,
    help="A partial capture that keeps the rest held for later captures.",
)
@click.option(
    "--rate",
    type=RATE,
    help="A foreign-currency purchase's capture at this rate (merchant → card).",
)
@EMAIL
@runs
async def settle(
    settings: Settings, transaction: uuid.UUID, amount: int | None, keep_rest_held: bool,
    rate: Decimal | None, email: str,
) -> str:  # fmt: skip
    """Capture the purchase TRANSACTION; prints its status."""
    capture = CaptureMessage(transaction, amount, not keep_rest_held, rate, "sandbox")
    return await _step(settings, email, lambda db, user: capture_purchase(db, user, capture))


@simulate.command(name="reverse")
@TRANSACTION
@EMAIL
@runs
async def reverse(settings: Settings, transaction: uuid.UUID, email: str) -> str:
    """Reverse the purchase TRANSACTION; prints its status.

    Its hold and fee go back to the card."""
    reversal = ReversalMessage(transaction, "sandbox")
    return await _step(settings, email, lambda db, user: reverse_purchase(db, user, reversal))


@simulate.command(name="refund")
@TRANSACTION
@click.option("--amount", type=AMOUNT, help="Refund this much (default: all of it).")
@EMAIL
@runs
async def refund(settings: Settings, transaction: uuid.UUID, amount: int | None, email: str) -> str:
    """Refund the purchase TRANSACTION; prints its status."""
    message = RefundMessage(transaction, amount, "sandbox")
    return await _step(settings, email, lambda db, user: refund_purchase(db, user, message))


@simulate.command(name="3ds")
@click.option("--card", type=click.UUID, required=True, help="The card's uuid.")
@click.option("--merchant", required=True, help="The merchant's name the code is for.")
@click.option("--amount", type=AMOUNT, required=True, help="The amount the code is for.")
@click.option(
    "--currency",
    type=CURRENCY,
    default="USD",
    show_default=True,
    help="The amount's currency (any case).",
)
@click.option(
    "--ttl", type=click.INT, default=600, show_default=True, help="Seconds the code lives."
)
@EMAIL
@runs
async def three_ds(
    settings: Settings, card: uuid.UUID, merchant: str, amount: int, currency: str, ttl: int,
    email: str,
) -> str:  # fmt: skip
    """A 3DS code for a card; prints the code."""

    async def action(tx: Tx, cipher: CardCipher, user: uuid.UUID) -> str:
        ttl_ = timedelta(seconds=ttl)
        record = await issue_code(tx, cipher, user, card, merchant, amount, currency, ttl_)
        return str(record["code"])

    return await _as_user(settings, email, action)


@simulate.command(name="expire-holds")
@due_at("Release")
@runs
async def expire_holds(settings: Settings, now: datetime | None) -> str:
    """Release the holds due; prints how many."""
    return await run_job(settings, sweep_expired_holds, now)

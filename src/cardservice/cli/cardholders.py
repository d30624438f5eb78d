"""`cardservice users|accounts|cards|tokens|mfa|credentials|dashboard …`: a cardholder's
onboarding, credentials and reads, as the operator (audit actor `cli`) — through the same
services as the operator API's and the cardholder's routes. Values print alone on stdout."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import click
from pydantic import BaseModel, ValidationError

from cardservice import runtime
from cardservice.catalogue import account_currencies
from cardservice.cli.arguments import ACCOUNT_CURRENCY, CURRENCY, DURATION_TYPE, runs
from cardservice.cli.operator_keys import in_unit
from cardservice.config import Settings
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx
from cardservice.encoding import dumps
from cardservice.errors import ValidationFailed
from cardservice.operator import CLI
from cardservice.users import user_by_email

PAGE_SIZE = 100  # rows per read while a list walks every page
EMAIL = click.option("--email", required=True, help="The cardholder's email.")
AS_JSON = click.option(
    "--json", "as_json", is_flag=True, help="Print the API's records as a JSON array, not lines."
)
ModelT = TypeVar("ModelT", bound=BaseModel)
Lister = Callable[[Reader, uuid.UUID, dict[str, Any], Page], Awaitable[tuple[list[Any], int]]]


def _request(model: type[ModelT], **fields: Any) -> ModelT:
    """The operator API's request model, from the command's options (422 → one line)."""
    from cardservice.http.router import validation_errors

    try:
        return model.model_validate({k: v for k, v in fields.items() if v is not None})
    except ValidationError as exc:
        raise ValidationFailed(errors=validation_errors(exc)) from None


async def _read_all(
    settings: Settings, email: str, lister: Lister, filters: dict[str, Any]
) -> list[dict[str, Any]]:
    """Every record `lister` pages through for the user with this email."""
    db = runtime.database(settings)
    try:
        user = await db.transact(lambda tx: user_by_email(tx, email))
        records: list[dict[str, Any]] = []
        number, total = 1, 1
        while len(records) < total:
            page, total = await lister(db.reader, user, filters, Page(number, PAGE_SIZE))
            if not page:
                break
            records.extend(page)
            number += 1
        return records
    finally:
        await db.dispose()


def _listing(records: list[dict[str, Any]], as_json: bool, line: Callable[..., str]) -> str | None:
    """A JSON array, or a line per record (none: nothing printed, not an empty line)."""
    if as_json:
        return dumps(records).decode()
    return "\n".join(line(record) for record in records) or None


@click.group(name="users")
def users() -> None:
    """Cardholders."""


@users.command(name="create")
@click.option("--email", required=True, help="The new user's email (their sign-in name).")
@click.option("--name", required=True, help="The user's full name.")
@click.option("--team", help="A team to join (created when new).")
@click.option(
    "--role",
    type=click.Choice(["owner", "member"]),
    help="The user's role in --team; an owner sees the members' accounts.",
)
@runs
async def create_user(
    settings: Settings, email: str, name: str, team: str | None, role: str | None
) -> str:
    """Create a user; prints its uuid."""
    from cardservice.operator import CreateUserRequest, onboard_user

    body = _request(CreateUserRequest, email=email, name=name, team=team, role=role)

    async def work(tx: Tx) -> str:
        return str((await onboard_user(tx, CLI, body))["uuid"])

    return await in_unit(settings, work)


@click.group(name="accounts")
def accounts() -> None:
    """A cardholder's accounts."""


@accounts.command(name="create")
@EMAIL
@click.option("--name", required=True, help="The account's name, e.g. Main.")
@click.option(
    "--currency",
    required=True,
    type=ACCOUNT_CURRENCY,
    help=f"One of the catalogue's currencies ({', '.join(account_currencies())}), "
    "in any case: eur is EUR.",
)
@click.option(
    "--type",
    "type_",
    default="main",
    show_default=True,
    help="A slug of the account-types dictionary: main, budget, team, …",
)
@runs
async def create_account(
    settings: Settings, email: str, name: str, currency: str, type_: str
) -> str:
    """Create an account for a user; prints its uuid."""
    from cardservice.operator import CreateAccountRequest, open_account

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, email)
        body = _request(
            CreateAccountRequest, user_uuid=str(user), name=name, currency=currency, type=type_
        )
        return str((await open_account(tx, CLI, body))["uuid"])

    return await in_unit(settings, work)


@accounts.command(name="set-status")
@click.argument("account_uuid", type=click.UUID)
@click.argument("status", type=click.Choice(["active", "frozen", "closed"]))
@runs
async def set_account_status(settings: Settings, account_uuid: uuid.UUID, status: str) -> str:
    """Set the status of account ACCOUNT_UUID to STATUS.

    Prints the new status."""
    from cardservice.operator import change_account_status

    async def work(tx: Tx) -> str:
        return str((await change_account_status(tx, CLI, account_uuid, status))["status"])

    return await in_unit(settings, work)


@accounts.command(name="list")
@EMAIL
@click.option(
    "--status",
    type=click.Choice(["active", "frozen", "closed"]),
    help="Only the accounts in this status.",
)
@click.option("--currency", type=CURRENCY, help="Only the accounts in this currency (any case).")
@AS_JSON
@runs
async def list_accounts(
    settings: Settings, email: str, status: str | None, currency: str | None, as_json: bool
) -> str | None:
    """A user's own accounts, oldest first.

    One a line: uuid, balance and currency, status, type, name; or the API's records with
    --json."""
    from cardservice.accounts import own_accounts

    filters = {k: v for k, v in (("status", status), ("currency", currency)) if v is not None}
    records = await _read_all(settings, email, own_accounts, filters)
    return _listing(records, as_json, _account_line)


def _account_line(account: dict[str, Any]) -> str:
    balance = f"{account['balance']} {account['currency']}"
    return (
        f"{account['uuid']}  {balance}  {account['status']}  {account['type']}  {account['name']}"
    )


@click.group(name="cards")
def cards() -> None:
    """A cardholder's cards (never their numbers)."""


@cards.command(name="list")
@EMAIL
@click.option("--account", type=click.UUID, help="Only the cards of this account.")
@click.option(
    "--status",
    type=click.Choice(["active", "frozen", "closed"]),
    help="Only the cards in this status.",
)
@AS_JSON
@runs
async def list_cards(
    settings: Settings, email: str, account: uuid.UUID | None, status: str | None, as_json: bool
) -> str | None:
    """A user's cards, in their order.

    One a line: uuid, mask, status, balance and currency, description; or the API's records
    with --json. Never a card's number."""
    from cardservice.cards import list_cards as cards_of

    filters = {k: v for k, v in (("account_uuid", account), ("status", status)) if v is not None}
    records = await _read_all(settings, email, cards_of, filters)
    return _listing(records, as_json, _card_line)


def _card_line(card: dict[str, Any]) -> str:
    balance = f"{card['balance']} {card['currency']}"
    return (
        f"{card['uuid']}  {card['mask']}  {card['status']}  {balance}  {card['description'] or ''}"
    )


@cards.command(name="show")
@click.argument("card_uuid", type=click.UUID)
@EMAIL
@runs
async def show_card(settings: Settings, card_uuid: uuid.UUID, email: str) -> str:
    """The card CARD_UUID of the user, as JSON.

    The API's record: the mask, never the number. Another user's card is not found."""
    from cardservice.cards import get_card

    db = runtime.database(settings)
    try:
        user = await db.transact(lambda tx: user_by_email(tx, email))
        record = await get_card(db.reader, user, card_uuid)
    finally:
        await db.dispose()
    return dumps(record).decode()


@click.group(name="tokens")
def tokens() -> None:
    """A cardholder's bearer tokens."""


@tokens.command(name="issue")
@EMAIL
@click.option("--name", default="cli", show_default=True, help="What the token is for.")
@click.option(
    "--expires-in",
    type=DURATION_TYPE,
    help="A lifetime such as 30d, 12h, 15m or 90s (default: it does not expire).",
)
@runs
async def issue_token(
    settings: Settings, email: str, name: str, expires_in: timedelta | None
) -> str:
    """Issue a token; prints it alone (it is shown once)."""
    from cardservice.operator import issue_user_token

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, email)
        plaintext, _expires_at = await issue_user_token(tx, CLI, user, name, expires_in)
        return plaintext

    return await in_unit(settings, work)


@tokens.command(name="revoke")
@click.argument("token", metavar="TOKEN_PREFIX_OR_ID")
@runs
async def revoke_token(settings: Settings, token: str) -> str:
    """Revoke the token TOKEN_PREFIX_OR_ID; prints how many.

    TOKEN_PREFIX_OR_ID: the token's id, or its first 11 characters."""
    from cardservice.auth import revoke_token as revoke

    async def work(tx: Tx) -> str:
        return str(await revoke(tx, token))

    return await in_unit(settings, work)


@click.group(name="mfa")
def mfa() -> None:
    """A cardholder's one-time MFA codes."""


@mfa.command(name="issue")
@EMAIL
@click.option(
    "--ttl",
    type=click.IntRange(10, 86_400),
    default=600,
    show_default=True,
    help="Seconds the code lives, 10..86400.",
)
@runs
async def issue_mfa(settings: Settings, email: str, ttl: int) -> str:
    """Issue an MFA code; prints it alone."""
    from cardservice.auth import issue_mfa_code

    async def work(tx: Tx) -> str:
        user = await user_by_email(tx, email)
        code, _expires = await issue_mfa_code(tx, user, timedelta(seconds=ttl))
        return code

    return await in_unit(settings, work)


@mfa.command(name="revoke")
@EMAIL
@runs
async def revoke_mfa(settings: Settings, email: str) -> str:
    """Revoke every live code of the user; prints how many."""
    from cardservice.auth import revoke_mfa_codes

    async def work(tx: Tx) -> str:
        return str(await revoke_mfa_codes(tx, await user_by_email(tx, email)))

    return await in_unit(settings, work)


@click.group(name="credentials")
def credentials() -> None:
    """Tokens and codes, all users'."""


@credentials.command(name="prune")
@runs
async def prune(settings: Settings) -> str:
    """Delete the tokens and codes dead for 30 days; prints how many."""
    from cardservice.auth import prune_credentials
    from cardservice.models.base import utcnow

    async def work(tx: Tx) -> str:
        return str(await prune_credentials(tx, utcnow()))

    return await in_unit(settings, work)


@click.group(name="dashboard")
def dashboard() -> None:
    """The web dashboard."""


@dashboard.command(name="link")
@EMAIL
@click.option(
    "--base-url",
    default="",
    help="The dashboard's address to put before the path, e.g. http://127.0.0.1:8000.",
)
@runs
async def sign_in_link(settings: Settings, email: str, base_url: str) -> str:
    """Print a one-time sign-in link for the user (valid 15 minutes)."""
    from cardservice.operator import sign_in_link as link

    async def work(tx: Tx) -> str:
        url, _expires = await link(tx, CLI, await user_by_email(tx, email), base_url)
        return url

    return await in_unit(settings, work)


COMMANDS = (users, accounts, cards, tokens, mfa, credentials, dashboard)

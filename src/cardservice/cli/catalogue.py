"""`cardservice catalogue bins add|update`, `catalogue fees set|show`, `catalogue fx-rates
add|list` (docs/operations.md#your-own-catalogue): the operator's catalogue through the same
services as the operator API (catalogue/service.py), audited with the actor `cli`. Values
print alone on stdout."""

from __future__ import annotations

import uuid
from decimal import Decimal, InvalidOperation
from typing import Any

import click

from cardservice import runtime
from cardservice.cli.arguments import Parsed, runs
from cardservice.cli.cardholders import PAGE_SIZE, _request
from cardservice.cli.operator_keys import in_unit
from cardservice.config import Settings
from cardservice.db.paging import Page
from cardservice.db.sql import Tx
from cardservice.encoding import dumps
from cardservice.operator import CLI


def decimal(text: str) -> Decimal:
    """A decimal number as typed; its bounds and places are the API's (422 → one line)."""
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None
    if not value.is_finite():
        raise ValueError(f"not a number: {text!r}")
    return value


DECIMAL = Parsed("number", decimal)
UUID_ARGUMENT = click.UUID


@click.group(name="catalogue")
def catalogue() -> None:
    """The operator's catalogue: BINs, a program's fees, FX rates
    (docs/operations.md#your-own-catalogue)."""


@catalogue.group(name="bins")
def bins() -> None:
    """BINs cards are issued from."""


@bins.command(name="add")
@click.option("--bin", "digits", required=True, help="The BIN's 6 to 8 digits.")
@click.option(
    "--brand", required=True, type=click.Choice(["visa", "mastercard"]), help="Its network."
)
@click.option("--currency", required=True, help="Its cards' currency, an account currency: USD.")
@click.option(
    "--status",
    type=click.Choice(["available", "unavailable"]),
    default="available",
    show_default=True,
    help="Whether cards can be bought on it.",
)
@click.option("--card-price", required=True, type=DECIMAL, help="A card's price on it: 2.50.")
@runs
async def add_bin(
    settings: Settings, digits: str, brand: str, currency: str, status: str, card_price: Decimal
) -> str:
    """Add a BIN; prints its uuid."""
    from cardservice.catalogue import CreateBinRequest, create_bin

    body = _request(
        CreateBinRequest,
        bin=digits, brand=brand, currency=currency.upper(), status=status, card_price=card_price,
    )  # fmt: skip

    async def work(tx: Tx) -> str:
        return str((await create_bin(tx, CLI, body))["uuid"])

    return await in_unit(settings, work)


@bins.command(name="update")
@click.argument("bin_uuid", metavar="BIN_UUID", type=UUID_ARGUMENT)
@click.option(
    "--status", type=click.Choice(["available", "unavailable"]), help="Stop or resume sales."
)
@click.option("--card-price", type=DECIMAL, help="A new price for cards bought from now on.")
@runs
async def update_bin(
    settings: Settings, bin_uuid: uuid.UUID, status: str | None, card_price: Decimal | None
) -> str:
    """Change a BIN's status or card price; prints its record as JSON.

    BIN_UUID: the BIN's uuid (`/dictionary/bins`)."""
    from cardservice.catalogue import ChangeBinRequest, change_bin

    body = _request(ChangeBinRequest, status=status, card_price=card_price)

    async def work(tx: Tx) -> str:
        return dumps(await change_bin(tx, CLI, bin_uuid, body)).decode()

    return await in_unit(settings, work)


@catalogue.group(name="fees")
def fees() -> None:
    """A program's fees over the fee schedule."""


@fees.command(name="set")
@click.argument("program_uuid", metavar="PROGRAM_UUID", type=UUID_ARGUMENT)
@click.option("--card-decline", type=DECIMAL, help="Per declined authorization: 0.75.")
@click.option("--card-fx", type=DECIMAL, help="Percent of a foreign-currency amount: 1.5.")
@click.option("--card-physical", type=DECIMAL, help="Per physical card ordered: 5.")
@click.option("--card-atm", type=DECIMAL, help="Per ATM withdrawal: 2.")
@click.option("--topup-percent", type=DECIMAL, help="Percent of a new card's start balance: 1.")
@runs
async def set_fees(
    settings: Settings,
    program_uuid: uuid.UUID,
    card_decline: Decimal | None,
    card_fx: Decimal | None,
    card_physical: Decimal | None,
    card_atm: Decimal | None,
    topup_percent: Decimal | None,
) -> str:
    """Replace the program's fees (an option left out: the schedule's); prints them as JSON.

    PROGRAM_UUID: the program's uuid (`GET /operator/programs`)."""
    from cardservice.catalogue import ProgramFeesRequest, set_program_fees
    from cardservice.models.base import utcnow

    body = _request(
        ProgramFeesRequest,
        card_decline=card_decline, card_fx=card_fx, card_physical=card_physical,
        card_atm=card_atm, topup_percent=topup_percent,
    )  # fmt: skip

    async def work(tx: Tx) -> str:
        record = await set_program_fees(tx, CLI, program_uuid, body, utcnow())
        return dumps(record).decode()

    return await in_unit(settings, work)


@fees.command(name="show")
@click.argument("program_uuid", metavar="PROGRAM_UUID", type=UUID_ARGUMENT)
@runs
async def show_fees(settings: Settings, program_uuid: uuid.UUID) -> str:
    """The program's fees and the schedule its cardholders pay, as JSON.

    PROGRAM_UUID: the program's uuid (`GET /operator/programs`)."""
    from cardservice.catalogue import get_program_fees

    db = runtime.database(settings)
    try:
        return dumps(await get_program_fees(db.reader, program_uuid)).decode()
    finally:
        await db.dispose()


@catalogue.group(name="fx-rates")
def fx_rates() -> None:
    """FX rates, each in force from an instant until the pair's next."""


@fx_rates.command(name="add")
@click.option("--base", required=True, help="The merchant's currency: GBP.")
@click.option("--quote", required=True, help="The card's currency: USD.")
@click.option("--rate", required=True, type=DECIMAL, help="1 base = RATE quote: 1.2712.")
@click.option(
    "--effective-at",
    required=True,
    help="From when, ISO 8601 with an offset: 2026-12-01T00:00:00Z.",
)
@runs
async def add_rate(
    settings: Settings, base: str, quote: str, rate: Decimal, effective_at: str
) -> str:
    """Set a rate from an instant on; prints its uuid."""
    from cardservice.catalogue import AddFxRateRequest, add_fx_rate
    from cardservice.models.base import utcnow

    body = _request(
        AddFxRateRequest,
        base=base.upper(), quote=quote.upper(), rate=rate, effective_at=effective_at,
    )  # fmt: skip

    async def work(tx: Tx) -> str:
        return str((await add_fx_rate(tx, CLI, body, utcnow()))["uuid"])

    return await in_unit(settings, work)


@fx_rates.command(name="list")
@click.option("--base", help="Only rates from this currency.")
@click.option("--quote", help="Only rates to this currency.")
@click.option("--json", "as_json", is_flag=True, help="Print the API's records as a JSON array.")
@runs
async def list_rates(
    settings: Settings, base: str | None, quote: str | None, as_json: bool
) -> str | None:
    """The rates set, the latest first: uuid  base/quote  rate  effective_at."""
    from cardservice.catalogue import list_fx_rates

    filters = {key: value.upper() for key, value in (("base", base), ("quote", quote)) if value}
    db = runtime.database(settings)
    try:
        records: list[dict[str, Any]] = []
        number, total = 1, 1
        while len(records) < total:
            page, total = await list_fx_rates(db.reader, filters, Page(number, PAGE_SIZE))
            if not page:
                break
            records.extend(page)
            number += 1
    finally:
        await db.dispose()
    if as_json:
        return dumps(records).decode()
    return "\n".join(_rate_line(record) for record in records) or None


def _rate_line(record: dict[str, Any]) -> str:
    since = dumps(record["effective_at"]).decode().strip('"')  # the API's spelling, unquoted
    return f"{record['uuid']}  {record['base']}/{record['quote']}  {record['rate']}  {since}"

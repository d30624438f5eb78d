"""Loads `data/catalogue.json` into the reference tables (called from migrations).

`sync_catalogue` is an upsert: run again by a later migration after the file changes, it
updates names and adds rows, keeping counters (tag popularity) and never deleting a BIN
or tag that cards or transactions may point at.
"""

from __future__ import annotations

import json
import uuid
from decimal import Decimal
from functools import cache
from importlib import resources
from typing import Any

from sqlalchemy import Connection, delete, insert, inspect, select, update
from sqlalchemy.orm import DeclarativeBase

from cardservice.dictionaries import DEFAULT_PLAN
from cardservice.ledger.minor_units import to_minor
from cardservice.models import (
    Bin,
    DictionaryEntry,
    FeeRate,
    FxRate,
    PaymentCurrency,
    PaymentMethod,
    TransactionTag,
)

DICTIONARY_KINDS = {
    "transaction_statuses": "transaction_status",
    "transaction_errors": "transaction_error",
    "account_statuses": "account_status",
    "account_types": "account_type",
    "dispute_errors": "transaction_error",  # listed after the declines; never a forced decline
}


@cache
def load_catalogue() -> dict[str, Any]:
    text = resources.files("cardservice.catalogue").joinpath("data/catalogue.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def _upsert(
    connection: Connection, model: type[DeclarativeBase], key: str, rows: list[dict[str, Any]]
) -> None:
    column = getattr(model, key)
    existing = set(connection.scalars(select(column)))
    for row in rows:
        if row[key] in existing:
            connection.execute(update(model).where(column == row[key]).values(**row))
        else:
            connection.execute(insert(model).values(**row))


def _dictionaries(connection: Connection, catalogue: dict[str, Any]) -> None:
    connection.execute(delete(DictionaryEntry))
    positions: dict[str, int] = {}
    for key, kind in DICTIONARY_KINDS.items():
        for entry in catalogue[key]:
            position = positions[kind] = positions.get(kind, -1) + 1
            connection.execute(
                insert(DictionaryEntry).values(kind=kind, position=position, **entry)
            )


def _fees(connection: Connection, catalogue: dict[str, Any]) -> None:
    connection.execute(delete(FeeRate).where(FeeRate.plan == DEFAULT_PLAN))
    for position, fee in enumerate(catalogue["fees"]):
        connection.execute(
            insert(FeeRate).values(
                plan=DEFAULT_PLAN,
                slug=fee["slug"],
                name=fee["name"],
                kind=fee["kind"],
                value=to_minor(Decimal(fee["amount"])),
                position=position,
            )
        )


def _payment_methods(connection: Connection, catalogue: dict[str, Any]) -> None:
    connection.execute(delete(PaymentCurrency))
    connection.execute(delete(PaymentMethod))
    for position, method in enumerate(catalogue["payment_methods"]):
        connection.execute(
            insert(PaymentMethod).values(
                slug=method["slug"], name=method["name"], position=position
            )
        )
        for index, currency in enumerate(method["currencies"]):
            connection.execute(
                insert(PaymentCurrency).values(
                    method_slug=method["slug"], position=index, **currency
                )
            )


def hold_days(catalogue: dict[str, Any], category: str) -> int:
    """How many days a pending hold of a tag in `category` lives
    (docs/transactions.md#holds-captures-increments-expiry)."""
    days: dict[str, int] = catalogue["hold_days"]
    return days.get(category, days["default"])


def default_hold_days() -> int:
    """Days a hold lives when the purchase names no tag."""
    return hold_days(load_catalogue(), "")


def account_currencies() -> tuple[str, ...]:
    """The currencies an account may hold: those the catalogue issues cards in (its BINs) or
    converts between (its rate table), ISO 4217 codes as spelled there (upper case)."""
    catalogue = load_catalogue()
    rates = catalogue["fx_rates"]
    found = {b["currency"] for b in catalogue["bins"]}
    found |= {r["base"] for r in rates} | {r["quote"] for r in rates}
    return tuple(sorted(found))


def _tags(connection: Connection, catalogue: dict[str, Any]) -> list[dict[str, Any]]:
    """The catalogue's tags, with `hold_days` once the table has it (migration 20261123_20:
    earlier migrations sync the catalogue too, before the column exists)."""
    columns = {column["name"] for column in inspect(connection).get_columns("transaction_tags")}
    if "hold_days" not in columns:
        return list(catalogue["tags"])
    return [
        {**tag, "hold_days": hold_days(catalogue, tag["category"])} for tag in catalogue["tags"]
    ]


def _fx_rates(connection: Connection, catalogue: dict[str, Any]) -> None:
    """The rate table (migration 20261123_20 on: earlier migrations have no such table)."""
    if not inspect(connection).has_table("fx_rates"):
        return
    connection.execute(delete(FxRate))
    for row in catalogue["fx_rates"]:
        Decimal(row["rate"])  # a malformed rate fails the migration, not an authorization
        connection.execute(
            insert(FxRate).values(
                base=row["base"], quote=row["quote"], rate=row["rate"], set_on=row["date"]
            )
        )


def sync_catalogue(connection: Connection) -> None:
    """Bring the reference tables in line with the shipped catalogue."""
    catalogue = load_catalogue()
    _dictionaries(connection, catalogue)
    _fees(connection, catalogue)
    _payment_methods(connection, catalogue)
    _fx_rates(connection, catalogue)
    _upsert(connection, TransactionTag, "slug", _tags(connection, catalogue))
    bins = [{**b, "uuid": uuid.UUID(b["uuid"])} for b in catalogue["bins"]]
    _upsert(connection, Bin, "uuid", bins)

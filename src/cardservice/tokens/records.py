"""The token record (the API's shape), built from a row in one place: never the DPAN, only
its last four digits. Wallets by their field-48.71 codes and their names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardservice.db.sql import Row, iso_z, text_uuid

TOKEN_FIELDS = (
    "uuid", "card_uuid", "wallet", "device_name", "last4", "status", "created_at", "updated_at",
)  # fmt: skip

# Field 48.71 (docs/network.md#wallet-tokens) → the wallet as the API names it.
WALLET_CODES = {"AP": "apple_pay", "GP": "google_pay", "SP": "samsung_pay", "CF": "card_on_file"}
WALLET_OF_NAME = {name: code for code, name in WALLET_CODES.items()}
# What the holder reads (an activation code's `merchant_name`, the dashboard).
WALLET_NAMES = {
    "apple_pay": "Apple Pay",
    "google_pay": "Google Pay",
    "samsung_pay": "Samsung Pay",
    "card_on_file": "Card on file",
}


def token_columns(table: str) -> str:
    """The select list `token_record` reads (put it first in the row), from alias `table`."""
    return ", ".join(f"{table}.{name}" for name in TOKEN_FIELDS)


def token_record(row: Row | Sequence[Any]) -> dict[str, Any]:
    """A row that starts with `token_columns(…)` → the API's token record."""
    token, card, wallet, device, last4, status, created, updated = tuple(row)[: len(TOKEN_FIELDS)]
    return {
        "uuid": text_uuid(token),
        "card_uuid": text_uuid(card),
        "wallet": wallet,
        "device_name": device,
        "last4": last4,
        "status": status,
        "created_at": iso_z(created),
        "updated_at": iso_z(updated),
    }


def paid_with(token: Row | dict[str, Any]) -> dict[str, str | None]:
    """What a transaction paid with a token shows of it (docs/network.md#wallet-tokens): `{uuid,
    wallet, last4}`."""
    return {"uuid": text_uuid(token["uuid"]), "wallet": token["wallet"], "last4": token["last4"]}

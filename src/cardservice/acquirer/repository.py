"""The acquirer's own reads (cli/network.py, acquirer/simulator.py, acquirer/wallets.py): a
tool that checks its own bookkeeping against the issuer's books, reading them directly (one
machine, a demo and a test rig, never the network's answer path)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

from cardservice.db.sql import Reader, Row, Tx, as_uuid

_SEND_CARD = "SELECT pan_ciphertext, expiry_year, expiry_month FROM cards WHERE uuid = $1"
_SEND_WALLET = "SELECT expiry_year, expiry_month FROM card_tokens WHERE dpan_fingerprint = $1"
_SIM_BIN = "SELECT uuid FROM bins WHERE currency = 'USD' AND status = 'available' ORDER BY bin"
_SIM_CARDS = (
    "SELECT uuid, pan_ciphertext, expiry_year, expiry_month FROM cards WHERE account_uuid = $1"
)
# released late: reversed with no key (only `forget_answer` deletes an answered key's row)
_SIM_PURCHASES = (
    "SELECT card_uuid, status, amount, fee, captured_amount, shortfall, network,"
    " (status = 'reversed' AND NOT EXISTS (SELECT 1 FROM network_messages m"
    " WHERE m.transaction_uuid = t.uuid)) AS released_late"
    " FROM transactions t WHERE account_uuid = $1 AND type = 'card_purchase'"
)
_SIM_OWED = (
    "SELECT p.currency, coalesce(sum(p.amount), 0) AS owed FROM postings p"
    " JOIN journal_entries e ON e.id = p.entry_id JOIN transactions t ON t.uuid = e.reference"
    " WHERE t.account_uuid = $1 AND p.system_book = 'cardholder_receivables'"
    " GROUP BY p.currency"
)
_SIM_CARD_BALANCES = "SELECT uuid, balance FROM cards WHERE account_uuid = $1"
_SIM_POSTED = (
    "SELECT c.uuid, c.balance, coalesce(sum(p.amount), 0) AS posted FROM cards c"
    " LEFT JOIN postings p ON p.card_uuid = c.uuid WHERE c.account_uuid = $1"
    " GROUP BY c.uuid, c.balance"
)


async def card_to_send(reader: Reader, card_uuid: uuid.UUID) -> Row | None:
    """The card's encrypted number and expiry, or None."""
    return await reader.row(_SEND_CARD, card_uuid)


async def token_expiry_to_send(reader: Reader, fingerprint: str) -> str | None:
    """The expiry (YYMM) of the wallet token with this DPAN fingerprint, or None."""
    row = await reader.row(_SEND_WALLET, fingerprint)
    return None if row is None else f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"


async def sim_owner(reader: Reader, card_uuid: uuid.UUID) -> uuid.UUID | None:
    """The user a card belongs to."""
    return as_uuid(await reader.value("SELECT user_uuid FROM cards WHERE uuid = $1", card_uuid))


async def sim_bin(tx: Tx) -> Any:
    """The first available USD BIN's uuid, or None."""
    return await tx.value(_SIM_BIN)


async def sim_cards(reader: Reader, account_uuid: uuid.UUID) -> Sequence[Row]:
    """The account's cards: uuid, encrypted number, expiry."""
    return await reader.rows(_SIM_CARDS, account_uuid)


async def sim_purchases(reader: Reader, account_uuid: uuid.UUID) -> Sequence[Row]:
    """The account's card purchases (with their `network` JSON), and whether each is an
    authorization answered `91` at its deadline that committed after it and was released
    (`released_late`)."""
    return await reader.rows(_SIM_PURCHASES, account_uuid)


async def sim_card_balances(reader: Reader, account_uuid: uuid.UUID) -> Sequence[Row]:
    """The balance of each of the account's cards."""
    return await reader.rows(_SIM_CARD_BALANCES, account_uuid)


async def sim_owed(reader: Reader, account_uuid: uuid.UUID) -> Sequence[Row]:
    """Per currency, what the account's transactions posted to `cardholder_receivables`."""
    return await reader.rows(_SIM_OWED, account_uuid)


async def sim_posted(reader: Reader, account_uuid: uuid.UUID) -> Sequence[Row]:
    """Each of the account's cards: its balance and the sum of its postings."""
    return await reader.rows(_SIM_POSTED, account_uuid)

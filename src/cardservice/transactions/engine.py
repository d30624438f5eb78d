"""The authorization engine: what a card-network authorization message is answered with.

Rules, in order (the first that fails declines with its error slug): the card is active
(`card_frozen`, `card_closed`) and not expired (`card_expired`); its account is active
(`account_inactive`); the merchant tag is not blocked (`merchant_blocked`; a restricted tag
passes but flags the transaction); the currency is the card's (`currency_not_supported`);
a presented 3DS code is an unassigned code of the card (`invalid_3ds`); amount plus the
`card_transaction` fee fits the card balance (`insufficient_funds`).

Approved: a `pending` card_purchase that debits the card at once (amount and fee in one
entry). Declined: a `declined` transaction; the `card_decline` fee is charged as far as
the card balance covers it — except for `currency_not_supported`, whose transaction is in a
currency the card does not hold, so no fee could be shown in it: that decline is free.
Either debit may trigger auto-replenish.

Locks in the global order (docs/ledger.md): the account (through the card), then the card
read together with the fee overrides and the tag; then the transaction is inserted (its
counters, tag popularity included, are kept by the database's trigger, last), the entry
posted (returning the new card balance), and what the request needs beyond that (3DS code,
auto-replenish).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cardservice.dictionaries.fees import default_plan, with_overrides
from cardservice.errors import CardNotFound, NotFound
from cardservice.ledger.entries import SystemBook, book_leg, card_leg, post_entry
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.sql import Row, Tx, as_uuid
from cardservice.transactions.balances import (
    lock_card_account,
    lock_card_with_fees,
    overrides_in,
)
from cardservice.transactions.replenish import replenish_if_low
from cardservice.transactions.rows import insert_transactions, transaction_row
from cardservice.transactions.three_ds import matching_code, use_code

_TAG_EXISTS = "SELECT slug FROM transaction_tags WHERE slug = $1"


class UnknownTag(NotFound):
    message = "Unknown transaction tag."


@dataclass(frozen=True, slots=True)
class Authorization:
    """An authorization request as the network sends it (amount in minor units)."""

    card_uuid: uuid.UUID
    amount: int
    currency: str
    merchant_name: str
    mcc: str | None = None
    merchant_country: str | None = None
    merchant_city: str | None = None
    tag: str | None = None
    three_ds_code: str | None = None


@dataclass(frozen=True, slots=True)
class Tag:
    slug: str
    restriction: str | None  # blocked | restricted


def _refusal(
    account: Row,
    card: Row,
    tag: Tag | None,
    request: Authorization,
    now: datetime,
) -> str | None:
    """Rules 1-4, which need no further reads: card, account, merchant tag, currency."""
    if card["status"] in ("frozen", "closed"):
        return f"card_{card['status']}"
    if (card["expiry_year"], card["expiry_month"]) < (now.year, now.month):
        return "card_expired"
    if account["status"] != "active":
        return "account_inactive"
    if tag is not None and tag.restriction == "blocked":
        return "merchant_blocked"
    if request.currency != card["currency"]:
        return "currency_not_supported"
    return None


async def _tag_exists(tx: Tx, slug: str) -> bool:
    return await tx.value(_TAG_EXISTS, slug) is not None


async def _locked(
    tx: Tx, user_uuid: uuid.UUID, request: Authorization
) -> tuple[Row, Sequence[Row], Tag | None]:
    """Account, then card, locked in that order (the order every money path uses); the card
    comes with the user's fee overrides and the merchant tag. Both are 404s; when the tag is
    unknown too, its message wins (the tag used to be read first)."""
    account = await lock_card_account(tx, user_uuid, request.card_uuid)
    if account is None:
        if request.tag is not None and not await _tag_exists(tx, request.tag):
            raise UnknownTag()
        raise CardNotFound()
    rows = await lock_card_with_fees(tx, user_uuid, request.card_uuid, request.tag)
    if not rows:  # the card went away between the two reads
        raise CardNotFound()
    tag = None
    if request.tag is not None:
        if rows[0]["tag_slug"] is None:
            raise UnknownTag()
        tag = Tag(rows[0]["tag_slug"], rows[0]["tag_restriction"])
    return account, rows, tag


def _new_transaction(
    user_uuid: uuid.UUID,
    card: Row,
    request: Authorization,
    tag: Tag | None,
    now: datetime,
) -> dict[str, Any]:
    return transaction_row(
        user_uuid=user_uuid,
        account_uuid=as_uuid(card["account_uuid"]),
        card_uuid=request.card_uuid,
        type="card_purchase",
        status="pending",
        direction="debit",
        amount=request.amount,
        currency=request.currency,
        merchant_name=request.merchant_name,
        merchant_mcc=request.mcc,
        merchant_country=request.merchant_country,
        merchant_city=request.merchant_city,
        tag_slug=tag.slug if tag else None,
        flagged=bool(tag and tag.restriction == "restricted"),
        created_at=now,
        updated_at=now,
    )


async def _charge(tx: Tx, transaction: dict[str, Any], amount: int, fee: int) -> int:
    """One entry: the card pays `amount` to the merchants and `fee` to the fee book, in the
    transaction's currency (the card's). Returns the card's new balance."""
    card_uuid, currency = transaction["card_uuid"], transaction["currency"]
    posted = await post_entry(
        tx,
        f"{transaction['type']}_{transaction['status']}",
        [
            card_leg(card_uuid, currency, -(amount + fee)),
            book_leg(SystemBook.MERCHANTS, currency, amount),
            book_leg(SystemBook.FEES, currency, fee),
        ],
        reference=transaction["uuid"],
    )
    return posted.balances[card_uuid]


async def authorize(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Answer one authorization: a pending purchase, or a declined transaction with its
    reason. Returns the transaction's row (a dict of its columns)."""
    now = now or utcnow()
    account, rows, tag = await _locked(tx, user_uuid, request)
    card = rows[0]
    fees = with_overrides(await default_plan(tx), overrides_in(rows))
    fee = fees.fixed("card_transaction")
    reason = _refusal(account, card, tag, request, now)
    code = None
    if reason is None and request.three_ds_code is not None:
        code = await matching_code(tx, cipher, request.card_uuid, request.three_ds_code, now)
        reason = None if code is not None else "invalid_3ds"
    balance = card["balance"]
    if reason is None and request.amount + fee > balance:
        reason = "insufficient_funds"
    transaction = _new_transaction(user_uuid, card, request, tag, now)
    if reason is None:
        transaction["fee"] = fee
    else:
        transaction["status"], transaction["error_slug"] = "declined", reason
        if reason != "currency_not_supported":
            transaction["fee"] = min(fees.fixed("card_decline"), balance)
    await insert_transactions(tx, [transaction])
    if code is not None and reason is None:
        await use_code(tx, code, transaction["uuid"], now)
    if reason is None or transaction["fee"]:
        amount = transaction["amount"] if reason is None else 0
        card_balance = await _charge(tx, transaction, amount, transaction["fee"])
        await replenish_if_low(tx, account, card, card_balance, now)
    return transaction

"""The authorization engine: what a card-network authorization message is answered with.

Rules, in order (the first that fails declines with its error slug): the card is active
(`card_frozen`, `card_closed`) and not expired (`card_expired`); its account is active
(`account_inactive`); the merchant tag is not blocked (`merchant_blocked`; a restricted tag
passes but flags the transaction); the currency is the card's (`currency_not_supported`);
a presented 3DS code is an unassigned code of the card (`invalid_3ds`); amount plus the
`card_transaction` fee fits the card balance (`insufficient_funds`).

Approved: a `pending` card_purchase that debits the card at once (amount and fee in one
entry). Declined: a `declined` transaction; the `card_decline` fee is charged as far as
the card balance covers it. Either debit may trigger auto-replenish.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.cards.service import CardNotFound
from cardservice.dictionaries.fees import fee_schedule
from cardservice.errors import NotFound
from cardservice.ledger.entries import SystemBook, book_leg, card_leg, post_entry
from cardservice.models import Account, Card, Transaction, TransactionTag
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions.balances import lock_account, lock_card
from cardservice.transactions.replenish import replenish_if_low
from cardservice.transactions.three_ds import matching_code


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


def _refusal(
    account: Account,
    card: Card,
    tag: TransactionTag | None,
    request: Authorization,
    now: datetime,
) -> str | None:
    """Rules 1-4, which need no further reads: card, account, merchant tag, currency."""
    if card.status in ("frozen", "closed"):
        return f"card_{card.status}"
    if (card.expiry_year, card.expiry_month) < (now.year, now.month):
        return "card_expired"
    if account.status != "active":
        return "account_inactive"
    if tag is not None and tag.restriction == "blocked":
        return "merchant_blocked"
    if request.currency != card.currency:
        return "currency_not_supported"
    return None


async def _tag(session: AsyncSession, slug: str | None) -> TransactionTag | None:
    if slug is None:
        return None
    tag = await session.get(TransactionTag, slug)
    if tag is None:
        raise NotFound("Unknown transaction tag.")
    return tag


async def _locked(
    session: AsyncSession, user_uuid: uuid.UUID, card_uuid: uuid.UUID
) -> tuple[Account, Card]:
    """Account, then card, locked in that order (the order every money path uses)."""
    card = await session.get(Card, card_uuid)
    if card is None or card.user_uuid != user_uuid:
        raise CardNotFound()
    account = await lock_account(session, card.account_uuid)
    return account, await lock_card(session, card_uuid)


def _new_transaction(
    card: Card, request: Authorization, tag: TransactionTag | None, now: datetime
) -> Transaction:
    return Transaction(
        user_uuid=card.user_uuid,
        account_uuid=card.account_uuid,
        card_uuid=card.uuid,
        type="card_purchase",
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


async def _charge(
    session: AsyncSession, transaction: Transaction, card: Card, amount: int, fee: int
) -> None:
    """One entry: the card pays `amount` to the merchants and `fee` to the fee book."""
    await post_entry(
        session,
        f"{transaction.type}_{transaction.status}",
        [
            card_leg(card.uuid, card.currency, -(amount + fee)),
            book_leg(SystemBook.MERCHANTS, card.currency, amount),
            book_leg(SystemBook.FEES, card.currency, fee),
        ],
        reference=transaction.uuid,
    )


async def _count_tag(session: AsyncSession, tag: TransactionTag) -> None:
    """One more transaction for the tag's popularity; run last, so the hot row is held briefly."""
    await session.execute(
        update(TransactionTag)
        .where(TransactionTag.slug == tag.slug)
        .values(transactions_count=TransactionTag.transactions_count + 1)
    )


async def authorize(
    session: AsyncSession,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    now: datetime | None = None,
) -> Transaction:
    """Answer one authorization: a pending purchase, or a declined transaction with its reason."""
    now = now or utcnow()
    tag = await _tag(session, request.tag)
    account, card = await _locked(session, user_uuid, request.card_uuid)
    fees = await fee_schedule(session, user_uuid)
    fee = fees.fixed("card_transaction")
    reason = _refusal(account, card, tag, request, now)
    code = None
    if reason is None and request.three_ds_code is not None:
        code = await matching_code(session, cipher, card.uuid, request.three_ds_code, now)
        reason = None if code is not None else "invalid_3ds"
    if reason is None and request.amount + fee > card.balance:
        reason = "insufficient_funds"
    transaction = _new_transaction(card, request, tag, now)
    if reason is None:
        transaction.status, transaction.fee = "pending", fee
    else:
        transaction.status, transaction.error_slug = "declined", reason
        transaction.fee = min(fees.fixed("card_decline"), card.balance)
    session.add(transaction)
    await session.flush()
    if code is not None and reason is None:
        code.used_at, code.transaction_uuid = now, transaction.uuid
    if reason is None or transaction.fee:
        await _charge(
            session, transaction, card, transaction.amount if reason is None else 0, transaction.fee
        )
        await replenish_if_low(session, account, card, now)
    if tag is not None:
        await _count_tag(session, tag)
    return transaction

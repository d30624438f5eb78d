"""Buying cards: price, refusals, the one journal entry, and idempotency by external_id.

Price per card = card_issue fee + start_balance + round_half_up(start_balance × card_topup %),
from the buyer's fee schedule; the purchase debits the account once for cards_count × that.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

import orjson
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm.attributes import set_committed_value

from cardservice.accounts.repository import own_account_for_update
from cardservice.accounts.service import AccountNotFound
from cardservice.cards import repository
from cardservice.cards.numbers import generate_pan
from cardservice.cards.records import card_record
from cardservice.cards.schemas import AccountBalance, BuyCardsRequest, BuyCardsResult, Charge
from cardservice.dictionaries.fees import fee_schedule
from cardservice.errors import IdempotencyConflict, NotFound, RuleViolation
from cardservice.ledger.entries import SystemBook, account_leg, book_leg, card_leg, post_entry
from cardservice.ledger.money import from_minor, percent_of, to_minor
from cardservice.models import Account, Bin, Card, IdempotencyKey, Transaction, User
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.web import dumps

CARD_VALIDITY_YEARS = 3


class AccountInactive(RuleViolation):
    code, message = "account_inactive", "The account is not active."


class BinUnavailable(RuleViolation):
    code, message = "bin_unavailable", "Cards cannot be issued from this BIN now."


class CurrencyMismatch(RuleViolation):
    code, message = "currency_mismatch", "The account's currency differs from the BIN's."


class InsufficientAccountFunds(RuleViolation):
    code, message = "insufficient_funds", "The account balance does not cover the purchase."


@dataclass(frozen=True, slots=True)
class Price:
    per_card_fees: int
    start_balance: int
    cards_count: int

    @property
    def fees(self) -> int:
        return self.per_card_fees * self.cards_count

    @property
    def start_balance_total(self) -> int:
        return self.start_balance * self.cards_count

    @property
    def total(self) -> int:
        return self.fees + self.start_balance_total


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A response to send: fresh, or replayed for a repeated external_id."""

    status_code: int
    body: bytes
    replayed: bool


def request_fingerprint(body: BuyCardsRequest) -> str:
    """Hash of the request's meaning: `1` and `1.00` are the same amount."""
    canonical = {
        "account_uuid": body.account_uuid.lower(),
        "bin_uuid": body.bin_uuid.lower(),
        "start_balance": to_minor(body.start_balance),
        "description": body.description,
        "cards_count": body.cards_count,
        "auto_replenish_amount": _minor_or_none(body.auto_replenish_amount),
        "auto_replenish_min_balance": _minor_or_none(body.auto_replenish_min_balance),
    }
    return hashlib.sha256(orjson.dumps(canonical, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _minor_or_none(amount: Decimal | None) -> int | None:
    return to_minor(amount) if isinstance(amount, Decimal) else None


async def replay(
    session: AsyncSession, user_uuid: uuid.UUID, body: BuyCardsRequest
) -> StoredResponse | None:
    """The first response to this external_id, or None; 409 when the body differs."""
    if body.external_id is None:
        return None
    stored = await session.get(IdempotencyKey, (user_uuid, body.external_id))
    if stored is None:
        return None
    if stored.request_hash != request_fingerprint(body):
        raise IdempotencyConflict()
    return StoredResponse(stored.status_code, stored.response_body.encode(), replayed=True)


async def price_of(session: AsyncSession, user_uuid: uuid.UUID, body: BuyCardsRequest) -> Price:
    fees = await fee_schedule(session, user_uuid)
    start = to_minor(body.start_balance)
    per_card_fees = fees.fixed("card_issue") + percent_of(start, fees.percent("card_topup"))
    return Price(per_card_fees=per_card_fees, start_balance=start, cards_count=body.cards_count)


async def _checked(
    session: AsyncSession, user_uuid: uuid.UUID, body: BuyCardsRequest
) -> tuple[Account, Bin]:
    account = await own_account_for_update(session, user_uuid, uuid.UUID(body.account_uuid))
    if account is None:
        raise AccountNotFound()
    bin_row = await session.get(Bin, uuid.UUID(body.bin_uuid))
    if bin_row is None:
        raise NotFound("BIN not found.")
    return account, bin_row


def _refuse_if_broken(account: Account, bin_row: Bin, price: Price) -> None:
    if account.status != "active":
        raise AccountInactive()
    if bin_row.status != "available":
        raise BinUnavailable()
    if account.currency != bin_row.currency:
        raise CurrencyMismatch()
    if account.balance < price.total:
        raise InsufficientAccountFunds()


async def _new_card(
    session: AsyncSession,
    cipher: CardCipher,
    owner: User,
    account: Account,
    bin_row: Bin,
    body: BuyCardsRequest,
    sort_order: int,
    now: datetime,
) -> Card:
    while True:
        pan = generate_pan(bin_row.bin)
        fingerprint = cipher.fingerprint(pan)
        if not await repository.fingerprint_taken(session, fingerprint):
            break
    card = Card(
        user_uuid=owner.uuid,
        account_uuid=account.uuid,
        bin_uuid=bin_row.uuid,
        bin=bin_row.bin,
        brand=bin_row.brand,
        currency=bin_row.currency,
        pan_ciphertext=cipher.encrypt(pan),
        pan_fingerprint=fingerprint,
        last4=pan[-4:],
        expiry_month=now.month,
        expiry_year=now.year + CARD_VALIDITY_YEARS,
        balance=0,
        status="active",
        is_favorite=False,
        sort_order=sort_order,
        description=body.description,
        external_id=body.external_id,
        holder_name=owner.name,
        holder_address=None,
        auto_replenish_amount=_minor_or_none(body.auto_replenish_amount),
        auto_replenish_min_balance=_minor_or_none(body.auto_replenish_min_balance),
        created_at=now,
        updated_at=now,
    )
    session.add(card)
    return card


async def buy_cards(
    session: AsyncSession, cipher: CardCipher, user_uuid: uuid.UUID, body: BuyCardsRequest
) -> StoredResponse:
    """Buy `cards_count` cards on the account, all or nothing, in one journal entry."""
    account, bin_row = await _checked(session, user_uuid, body)
    replayed = await replay(session, user_uuid, body)
    if replayed is not None:
        return replayed
    price = await price_of(session, user_uuid, body)
    _refuse_if_broken(account, bin_row, price)
    owner = await session.get_one(User, user_uuid)
    now = utcnow()
    first = await repository.next_sort_order(session, user_uuid)
    cards = [
        await _new_card(session, cipher, owner, account, bin_row, body, first + i, now)
        for i in range(body.cards_count)
    ]
    await session.flush()
    for card in cards:
        session.add(
            Transaction(
                user_uuid=user_uuid,
                account_uuid=account.uuid,
                card_uuid=card.uuid,
                type="card_issue",
                status="completed",
                direction="debit",
                amount=price.start_balance,
                currency=account.currency,
                fee=price.per_card_fees,
                description="Card issue",
                created_at=now,
                updated_at=now,
            )
        )
    currency = account.currency
    await post_entry(
        session,
        "card_buy",
        [
            account_leg(account.uuid, currency, -price.total),
            *(card_leg(card.uuid, currency, price.start_balance) for card in cards),
            book_leg(SystemBook.FEES, currency, price.fees),
        ],
    )
    for card in cards:  # post_entry moved the balances in SQL; mirror them without a write
        set_committed_value(card, "balance", price.start_balance)
    balance = await session.scalar(select(Account.balance).where(Account.uuid == account.uuid))
    result = BuyCardsResult(
        cards=[card_record(card) for card in cards],
        account=AccountBalance(uuid=account.uuid, balance=from_minor(int(balance or 0))),
        charge=Charge(
            total=from_minor(price.total),
            fees=from_minor(price.fees),
            start_balance_total=from_minor(price.start_balance_total),
            currency=currency,
        ),
        external_id=body.external_id,
    )
    response = dumps({"success": True, "data": result})
    if body.external_id is not None:
        session.add(
            IdempotencyKey(
                user_uuid=user_uuid,
                external_id=body.external_id,
                request_hash=request_fingerprint(body),
                status_code=201,
                response_body=response.decode(),
                created_at=now,
            )
        )
        await session.flush()
    return StoredResponse(201, response, replayed=False)

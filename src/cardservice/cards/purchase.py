"""Buying cards: price, refusals, the one journal entry, and idempotency by external_id.

Price per card = card_issue fee + start_balance + round_half_up(start_balance × card_topup %),
from the buyer's fee schedule (the BIN's card price, when it has one, is its card_issue fee),
plus the card_physical fee for a physical card (docs/cards.md#physical-cards); the purchase
debits the account once for cards_count × that.

It reads what it needs in as few statements as it can: lock the account; one read of the
BIN, the buyer's name, last sort position and fee overrides; one insert of the cards (a taken
card number is skipped by the insert and drawn again); one insert of their `card_issue`
transactions; the journal entry (`post_entry`). Idempotency by external_id wraps it
(`cardservice.idempotency`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

import orjson

from cardservice.cards.numbers import generate_pan
from cardservice.cards.records import card_record_of
from cardservice.cards.repository import insert_cards, member_cards_policy, purchase_context
from cardservice.cards.schemas import BuyCardsRequest
from cardservice.db.sql import Reader, Row, Tx, as_uuid
from cardservice.dictionaries import (
    FeeSchedule,
    card_price,
    default_plan,
    program_fees,
    with_overrides,
)
from cardservice.errors import (
    AccountInactive,
    AccountNotFound,
    NotFound,
    RuleViolation,
    ServiceError,
)
from cardservice.idempotency import fingerprint
from cardservice.ledger import SystemBook, account_leg, book_leg, card_leg, post_entry
from cardservice.ledger.minor_units import from_minor, percent_of, to_minor
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions import insert_transactions, lock_account, transaction_row
from cardservice.transactions.program_rules import BinNotAllowed, bin_allowed, expiry_after


class BinUnavailable(RuleViolation):
    code, message = "bin_unavailable", "Cards cannot be issued from this BIN now."


class CurrencyMismatch(RuleViolation):
    code, message = "currency_mismatch", "The account's currency differs from the BIN's."


class InsufficientAccountFunds(RuleViolation):
    code, message = "insufficient_funds", "The account balance does not cover the purchase."


class RequestRequired(ServiceError):
    status_code, code = 403, "request_required"
    message = (
        "Your team's owner decides the members' cards: ask for one"
        " (POST /team/requests with kind card)."
    )


async def check_member_may_buy(
    reader: Reader | Tx, team_uuid: uuid.UUID | None, role: str | None
) -> None:
    """A team member buys cards directly unless the team's card policy is `request`
    (docs/teams.md#the-card-policy); then 403 `request_required`."""
    if team_uuid is None or role != "member":
        return
    if await member_cards_policy(reader, team_uuid) == "request":
        raise RequestRequired()


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
    if body.card_type != "multi_use":  # the default leaves earlier fingerprints as they were
        canonical["card_type"] = body.card_type
    if body.shipping is not None:  # so does a virtual card's
        canonical["shipping"] = body.shipping.model_dump()
    return fingerprint(canonical)


def _minor_or_none(amount: Decimal | None) -> int | None:
    return to_minor(amount) if isinstance(amount, Decimal) else None


def price_of(fees: FeeSchedule, body: BuyCardsRequest) -> Price:
    start = to_minor(body.start_balance)
    per_card_fees = fees.fixed("card_issue") + percent_of(start, fees.percent("card_topup"))
    if body.form == "physical":
        per_card_fees += fees.fixed("card_physical")
    return Price(per_card_fees=per_card_fees, start_balance=start, cards_count=body.cards_count)


async def _lock_account(tx: Tx, user_uuid: uuid.UUID, account_uuid: uuid.UUID) -> Row | None:
    """The caller's account (status, currency, balance), locked and read as it is now."""
    return await lock_account(tx, user_uuid, account_uuid)


@dataclass(frozen=True, slots=True)
class _Context:
    """Everything else a purchase reads, from one statement run after the account lock."""

    owner_name: str
    bin: Row | None  # bin, brand, currency, status
    last_sort_order: int
    overrides: set[tuple[str, str, int]]
    program_bins: str | None  # the user's program's BINs (JSON), None outside a program
    validity_months: int | None
    beneath: list[tuple[str, str, int]]  # the program's fees and the BIN's card price


async def _context(tx: Tx, user_uuid: uuid.UUID, bin_uuid: uuid.UUID) -> _Context:
    """The buyer joined with the BIN and their fee overrides (one row each, or none); plus
    the buyer's last card position."""
    rows = await purchase_context(tx, user_uuid, bin_uuid)
    if not rows:
        raise NotFound("User not found.")
    first = rows[0]
    return _Context(
        owner_name=first["name"],
        bin=first if first["bin_uuid"] is not None else None,
        last_sort_order=int(first["last_sort"] or 0),
        overrides={
            (r["fee_slug"], r["fee_kind"], r["fee_value"])
            for r in rows
            if r["fee_slug"] is not None
        },
        program_bins=first["program_bins"],
        validity_months=first["card_validity_months"],
        beneath=[*program_fees(first["program_fees"]), *card_price(first["card_price"])],
    )


def _refuse_if_broken(account: Row, bin_row: Row, price: Price) -> None:
    if account["status"] != "active":
        raise AccountInactive()
    if bin_row["status"] != "available":
        raise BinUnavailable()
    if account["currency"] != bin_row["currency"]:
        raise CurrencyMismatch()
    if account["balance"] < price.total:
        raise InsufficientAccountFunds()


def _draw_number(cipher: CardCipher, bin_digits: str, card: dict[str, Any]) -> None:
    """A fresh random number for the card: its ciphertext, fingerprint and last four."""
    pan = generate_pan(bin_digits)
    card["pan_ciphertext"] = cipher.encrypt(pan)
    card["pan_fingerprint"] = cipher.fingerprint(pan)
    card["last4"] = pan[-4:]


async def _insert_cards(
    tx: Tx, cipher: CardCipher, bin_digits: str, cards: list[dict[str, Any]]
) -> None:
    """Insert the cards, drawing a new number for any whose number is taken, until all are in."""
    pending = cards
    while pending:
        rows = await insert_cards(tx, pending)
        inserted = {as_uuid(row["uuid"]) for row in rows}
        pending = [card for card in pending if card["uuid"] not in inserted]
        for card in pending:
            _draw_number(cipher, bin_digits, card)


def _new_card(
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    owner_name: str,
    account_uuid: uuid.UUID,
    bin_uuid: uuid.UUID,
    bin_row: Row,
    body: BuyCardsRequest,
    sort_order: int,
    now: datetime,
    validity_months: int | None = None,
) -> dict[str, Any]:
    expiry_month, expiry_year = expiry_after(now, validity_months)
    card: dict[str, Any] = {
        "uuid": uuid.uuid4(),
        "user_uuid": user_uuid,
        "account_uuid": account_uuid,
        "bin_uuid": bin_uuid,
        "bin": bin_row["bin"],
        "brand": bin_row["brand"],
        "currency": bin_row["currency"],
        "expiry_month": expiry_month,
        "expiry_year": expiry_year,
        "balance": 0,  # the journal entry moves the start balance in
        "is_favorite": False,
        "sort_order": sort_order,
        "description": body.description,
        "external_id": body.external_id,
        "holder_name": owner_name,
        "holder_address": None,
        "auto_replenish_amount": _minor_or_none(body.auto_replenish_amount),
        "auto_replenish_min_balance": _minor_or_none(body.auto_replenish_min_balance),
        "spending_controls": None,
        "card_type": body.card_type,
        "locked_merchant": None,
        "created_at": now,
        "updated_at": now,
        "closed_reason": None,
        "frozen_reason": None,
        "verification_failures": None,
        "replaces": None,
        "replaced_by": None,
        **physical_columns(body.form, body.shipping.model_dump() if body.shipping else None, now),
    }
    _draw_number(cipher, bin_row["bin"], card)
    return card


def physical_columns(form: str, shipping: dict[str, Any] | None, now: datetime) -> dict[str, Any]:
    """A new card's form columns: a physical card is `inactive` and `ordered` until it is
    shipped and activated; a virtual one is active at once. No PIN yet either way."""
    physical = form == "physical"
    return {
        "form": form,
        "status": "inactive" if physical else "active",
        "shipping": orjson.dumps(shipping).decode() if physical else None,
        "fulfilment_status": "ordered" if physical else None,
        "fulfilment_carrier": None,
        "fulfilment_tracking": None,
        "fulfilment_updated_at": now if physical else None,
        "pin_pvv": None,
        "pin_blocked": False,
        "pin_failures": 0,
        "activated_at": None,
    }


def _issue_transaction(
    card: dict[str, Any], currency: str, price: Price, now: datetime
) -> dict[str, Any]:
    return transaction_row(
        user_uuid=card["user_uuid"],
        account_uuid=card["account_uuid"],
        card_uuid=card["uuid"],
        type="card_issue",
        status="completed",
        direction="debit",
        amount=price.start_balance,
        currency=currency,
        fee=price.per_card_fees,
        description="Card issue",
        created_at=now,
        updated_at=now,
    )


async def buy_cards(
    tx: Tx, cipher: CardCipher, user_uuid: uuid.UUID, body: BuyCardsRequest
) -> dict[str, Any]:
    """Buy `cards_count` cards on the account, all or nothing, in one journal entry; the
    result (cards, account, charge). The route runs it through `idempotency.act_once`."""
    account_uuid, bin_uuid = uuid.UUID(body.account_uuid), uuid.UUID(body.bin_uuid)
    account = await _lock_account(tx, user_uuid, account_uuid)
    if account is None:
        raise AccountNotFound()
    context = await _context(tx, user_uuid, bin_uuid)
    bin_row = context.bin
    if bin_row is None:
        raise NotFound("BIN not found.")
    if not bin_allowed(context.program_bins, bin_uuid):
        raise BinNotAllowed()
    plan = await default_plan(tx)
    price = price_of(with_overrides(plan, context.overrides, context.beneath), body)
    _refuse_if_broken(account, bin_row, price)
    now = utcnow()
    currency = account["currency"]
    cards = [
        _new_card(
            cipher,
            user_uuid,
            context.owner_name,
            account_uuid,
            bin_uuid,
            bin_row,
            body,
            context.last_sort_order + 1 + i,
            now,
            context.validity_months,
        )
        for i in range(body.cards_count)
    ]
    await _insert_cards(tx, cipher, bin_row["bin"], cards)
    issued = [_issue_transaction(card, currency, price, now) for card in cards]
    await insert_transactions(tx, issued)
    posted = await post_entry(
        tx,
        "card_buy",
        [
            account_leg(account_uuid, currency, -price.total),
            *(card_leg(card["uuid"], currency, price.start_balance) for card in cards),
            book_leg(SystemBook.FEES, currency, price.fees),
        ],
    )
    balance = posted.balances.get(account_uuid, account["balance"])
    result = {
        # post_entry moved the start balances in SQL; the records show them as they are now
        "cards": [card_record_of({**card, "balance": price.start_balance}) for card in cards],
        "account": {"uuid": account_uuid, "balance": from_minor(balance)},
        "charge": {
            "total": from_minor(price.total),
            "fees": from_minor(price.fees),
            "start_balance_total": from_minor(price.start_balance_total),
            "currency": currency,
        },
        "external_id": body.external_id,
    }
    return result

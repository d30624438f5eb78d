"""Force posts (docs/network.md#units-of-records): presentments no authorization is held for,
each a purchase the network approved for the issuer (a stand-in, `presentation.stand_in`)
presented at once (`captured`), booked completed in one `card_purchase_captured` entry (the
card pays the merchants' book and the fee book; what it cannot is its `shortfall`).

They come as a set, a clearing unit's, and this is the one way any is written (one alone is
a set of one): the accounts of their cards locked in one statement and then the cards in one
more (docs/ledger.md, "Lock order": accounts, then cards, each by uuid); each decided in
order in Python (a stand-in is approved whatever the rules say: its fee, its amount in the
card's currency, its shortfall against the card's balance carried from the one before); then
all written together (`ledger.post_entries`: the transactions with their
`transaction.created`, their entries, postings and the cards' balances, one statement on
PostgreSQL).

What needs money written first — a merchant_locked card's binding, auto-replenish, a
single_use card's close after its capture (`engine.follows_approval`) — runs in turn: the
set decided so far is written with that force post, its steps run as after any approval and
capture, and the rows of its account are read again, under the same locks, for the next.
A balance the set would take below zero refuses the whole set (`InsufficientFunds`: the unit
rolls back): checked a force post at a time here, and by the set's statement on each card's
net move.

A clearing unit's presented captures are a set too (`Captures`): the held purchases its
records name locked together (their accounts, cards and rows, one statement each,
`holds.lock_held`), each capture decided in turn by the capture's own rules on the purchase
as the ones before left it (`lifecycle.presented_posting`), and written together
(`holds.write_posts`: the purchases' new amounts in one statement, their entries in one
more). A capture its holder pays part of (beyond the hold) reads what it owes from the
holder's balance as written: the set decided before it is written first. A single_use
card's capture is written at once and the card closed (`closing`), its purchases forgotten.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Any, cast

from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.dictionaries.fees import Fee, default_plan
from cardservice.errors import CardNotFound
from cardservice.ledger import Entry, InsufficientFunds, post_entries
from cardservice.models.base import utcnow
from cardservice.transactions import closing, engine, holds, lifecycle
from cardservice.transactions.engine import Authorization, Decided
from cardservice.transactions.locks import lock_force_post_accounts, lock_force_post_cards
from cardservice.transactions.records import Purchase
from cardservice.transactions.repository import transactions_insert


@dataclass(frozen=True, slots=True)
class ForcePost:
    """One force post: the card's user and the request (its presentation `stand_in` and
    `captured`; no tag, parent or 3DS code)."""

    user_uuid: uuid.UUID
    request: Authorization


@dataclass(slots=True)
class _Decided:
    post: ForcePost
    decided: Decided
    row: dict[str, Any]
    entry: Entry
    balance: int  # the card's after it


@dataclass(slots=True)
class _Set:
    """The set's locked rows as they are now (by card), and what is decided, not written."""

    plan: dict[str, Fee]
    accounts: dict[uuid.UUID, Row] = field(default_factory=dict)
    cards: dict[uuid.UUID, list[dict[str, Any]]] = field(default_factory=dict)
    rates: dict[tuple[str, str], Decimal | None] = field(default_factory=dict)
    pending: list[_Decided] = field(default_factory=list)


async def force_post(tx: Tx, posts: Sequence[ForcePost]) -> list[dict[str, Any]]:
    """Book the force posts in their order (the module's rule), each at the time it is
    decided; their transactions' rows."""
    for post in posts:
        facts, request = post.request.presentation, post.request
        assert facts.stand_in and facts.captured, "a force post is a captured stand-in"
        assert request.tag is None and request.parent_uuid is None
        assert request.three_ds_code is None
    batch = _Set(await default_plan(tx))
    rows = []
    for n, post in enumerate(posts):
        if post.request.card_uuid not in batch.cards:
            await _lock(tx, batch, posts[n:])
        now = utcnow()
        done = await _decide(tx, batch, post, now)
        rows.append(done.row)
        batch.pending.append(done)
        card = done.decided.card
        if engine.follows_approval(post.request, card, done.balance) or _closes(card):
            await _write(tx, batch)
            await _after(tx, done, now)
            _forget_account(batch, as_uuid(card["account_uuid"]))
    await _write(tx, batch)
    return rows


async def _lock(tx: Tx, batch: _Set, posts: Sequence[ForcePost]) -> None:
    """The accounts, then the cards, of the posts not read yet: one statement each."""
    users = {post.request.card_uuid: post.user_uuid for post in posts}
    cards = sorted({card for card in users if card not in batch.cards}, key=str)
    for row in await lock_force_post_accounts(tx, cards):
        card = as_uuid(row["card_uuid"])
        if card is not None and as_uuid(row["card_user_uuid"]) == users[card]:
            batch.accounts[card] = row
    for row in await lock_force_post_cards(tx, cards):
        card = as_uuid(row["uuid"])
        if card in batch.accounts:
            batch.cards.setdefault(card, []).append(dict(row))


async def _decide(tx: Tx, batch: _Set, post: ForcePost, now: datetime) -> _Decided:
    """One force post under the set's locks, on the card as the ones before left it."""
    request = post.request
    account, rows = batch.accounts.get(request.card_uuid), batch.cards.get(request.card_uuid)
    if account is None or not rows:  # not the user's card, or gone
        raise CardNotFound()
    card = rows[0]
    pair = (request.currency, str(card["currency"]))
    if pair not in batch.rates:
        batch.rates[pair] = await engine.rate_to_card(tx, *pair, now)
    rate = batch.rates[pair]
    locked = cast("Sequence[Row]", rows)  # the rows as read, each with its balance carried
    fees, amount, fee = engine.approval_terms(
        account, locked, batch.plan, request, rate, increment=False
    )
    decided = Decided(account, dict(card), None, fees, None, None, fee, None, amount, rate)
    row = engine.answered_row(post.user_uuid, request, decided, None, "stand_in", now)
    legs = holds.placed_legs(
        request.card_uuid, row["currency"], row["amount"], row["fee"], row["shortfall"], True
    )
    paid = sum(leg.amount for leg in legs if leg.card == request.card_uuid)
    if int(card["balance"]) + paid < 0:  # the set's statement checks each card's net only
        raise InsufficientFunds()
    for each in rows:  # the card's balance after it, for the next force post
        each["balance"] = int(card["balance"]) + paid
    entry = Entry("card_purchase_captured", legs, reference=row["uuid"])
    return _Decided(post, decided, row, entry, int(card["balance"]))


def _closes(card: Row) -> bool:
    """A single_use card closes after its capture."""
    return bool(card["card_type"] == "single_use")


async def _write(tx: Tx, batch: _Set) -> None:
    """The decided force posts, written together; their cards' balances checked."""
    pending, batch.pending = batch.pending, []
    if not pending:
        return
    insert = transactions_insert([done.row for done in pending])
    balances = await post_entries(tx, [done.entry for done in pending], insert)
    carried = {done.post.request.card_uuid: done.balance for done in pending}
    assert all(carried[card] == balance for card, balance in balances.items()), (
        "each card's balance is the one its force posts were decided on"
    )


async def _after(tx: Tx, done: _Decided, now: datetime) -> None:
    """What follows the force post once written: as after any approval, then as after any
    capture (a single_use card closes)."""
    request = done.post.request
    await engine.after_approval(tx, request, done.decided, done.row, done.balance, now)
    if _closes(done.decided.card):
        await closing.close_single_use_after_capture(tx, done.post.user_uuid, done.row, now)


def _forget_account(batch: _Set, account: uuid.UUID | None) -> None:
    """The rows of the account's cards are read again (their money moved)."""
    for card in [c for c, row in batch.accounts.items() if as_uuid(row["uuid"]) == account]:
        del batch.accounts[card]
        batch.cards.pop(card, None)


@dataclass(slots=True)
class Captures:
    """A clearing unit's presented captures (the module's rule): `lock` the held purchases,
    `capture` each in turn, `write` what is decided together. `users`: whose money the
    captures decided and not written yet move."""

    purchases: dict[uuid.UUID, Purchase] = field(default_factory=dict)
    holders: dict[uuid.UUID, holds.Holder] = field(default_factory=dict)  # by card
    pending: list[holds.Post] = field(default_factory=list)
    users: set[uuid.UUID] = field(default_factory=set)

    async def lock(self, tx: Tx, purchases: Sequence[uuid.UUID]) -> None:
        """Lock the purchases not locked yet, with their accounts and cards (the lock
        order), and read them."""
        new = sorted({p for p in purchases if p not in self.purchases}, key=str)
        found, holders = await holds.lock_held(tx, new)
        self.purchases.update(found)
        self.holders.update(holders)

    async def capture(
        self, tx: Tx, purchase_uuid: uuid.UUID, amount: int, now: datetime
    ) -> dict[str, Any] | None:
        """A presented, final capture of `amount` of a purchase `lock` read, decided on the
        purchase as the captures before left it; its row after. None when it is not
        pending under the lock (not locked here, or no longer held)."""
        purchase = self.purchases.get(purchase_uuid)
        if purchase is None or purchase.status != "pending" or purchase.card_uuid is None:
            return None
        known = self.holders.get(purchase.card_uuid)
        post = await lifecycle.presented_posting(tx, purchase, amount, now, known)
        if post.read_balance and self.pending:  # what it owes: from the balance written
            await self.write(tx)
            post = await lifecycle.presented_posting(tx, purchase, amount, now, known)
        self.pending.append(post)
        self.users.add(post.purchase.user_uuid)
        self.purchases[purchase_uuid] = post.purchase
        if known is None or known.card_type == "single_use":  # it closes: as after any capture
            await self.write(tx)
            await closing.close_single_use_after_capture(tx, purchase.user_uuid, post.purchase, now)
            self._forget_card(purchase.card_uuid)
        return dict(post.purchase)

    async def write(self, tx: Tx) -> None:
        """The captures decided so far, written together."""
        posts, self.pending = self.pending, []
        self.users.clear()
        await holds.write_posts(tx, posts)

    def _forget_card(self, card: uuid.UUID) -> None:
        """The card's purchases and row are read again by whoever needs them (it closed)."""
        for purchase in [p for p, row in self.purchases.items() if row.card_uuid == card]:
            del self.purchases[purchase]
        self.holders.pop(card, None)

"""The authorization engine: what a card-network authorization message is answered with.

Rules, in order (the first that fails declines with its error slug; docs/controls.md):
0. a card the card-testing guard froze (`suspected_fraud`);
1. a sandbox `force_decline` (any slug of the transaction-errors dictionary);
2. the state, before any detail is compared (docs/network.md, "Card state before details"):
   the card is active (`card_frozen`, `card_closed`), the wallet token it is paid with is
   active (`token_inactive`), the card is not expired (`card_expired`), its account is
   active and its owner not suspended (`account_inactive`);
3. the channel's verification of the card's details (`invalid_expiry`, `invalid_cvv2`;
   transactions/card_testing/); a virtual card's own number presented at a terminal
   (`virtual_card_present`); the PIN, when one was presented (`invalid_pin`,
   `pin_tries_exceeded`: card_testing.pin_refusal, counted in the unit that records); then
   the card's type allows it (a used single_use card: `card_closed`; a merchant_locked card
   at another merchant: `merchant_blocked`; transactions/card_types.py);
4. the merchant tag is not blocked program-wide (`merchant_blocked`; a restricted tag
   passes but flags the transaction);
5. the currency is the card's, or one the rate table converts to it (`currency_not_supported`);
   a foreign amount is converted at the table's rate, and the approval's fee gains the
   `card_fx` percent of the converted amount; every later rule sees the card's amount;
6. the card's spending controls: tag and country (`merchant_blocked`), then the limits
   (`limit_exceeded`; controls.py); then its user's program's controls, the same way
   (transactions/program_rules.py); then the user's team budget in the card's currency
   (`budget_exceeded`; budgets.py);
7. a presented 3DS code is an unassigned code of the card (`invalid_3ds`);
8. amount plus the `card_transaction` fee fits the card balance (`insufficient_funds`);
9. the user's decision endpoint, when one is set (`do_not_honor`; authorize.py asks
   it between two units of work and hands its answer in as a `Verdict`).

Approved: a `pending` card_purchase (or `atm_withdrawal`, `Authorization.type`, charged the
`card_atm` fee instead of `card_transaction`) that holds the amount at once (`holds.place`: card →
`holds` book, the fee to `fees`, in one entry), until captured, released or expired
(lifecycle.py, through `holds.post`/`holds.void`).

An increment (`parent_uuid` set: the pending purchase whose hold it raises) is decided by the
same rules, with no fee of its own (funds: the increment alone); approved, it raises the
parent's hold (`amount`, `authorized_amount`) in one entry; declined, it is recorded as a
declined `card_purchase` child of the parent with no fee, the parent untouched. A parent
that is not a pending purchase of the card refuses it (`invalid_transition`).

Declined: a `declined` transaction; the `card_decline` fee is charged as far as
the card balance covers it — except when the transaction is in a currency the card does not
hold, where no fee could be shown in it, for a `budget_exceeded` decline (the team's rule:
no money moves, docs/teams.md#teams-budgets-requests-receipts), and for the guard's declines (a
verification failure, `suspected_fraud`: a stranger who knows only the number must not cost the
holder anything): those declines are free. A card presented by its number and details (`presented`:
the ISO 8583 channel, where anyone who knows them can send it) pays the fee only for the
declines of `card_testing.CHARGED_DECLINES`: its details were verified on an active card
and the rules then declined; every other decline there is free (docs/network.md, "What a
decline costs"). A verification failure is counted by the guard in the
same unit (the 5th within 24 h freezes the card); an approval resets the count. Either
debit may trigger auto-replenish. `decision` records who decided: `rules`, or the verdict's source.

The work is split in two: `decide` takes the locks and applies rules 1-8 writing nothing;
`record` writes the answer. `authorize` does both in one unit; with a decision endpoint the
service runs `decide` alone first, asks with no unit open, then `authorize`s again with the
verdict, so funds and limits are checked afresh after the answer.

Locks in the global order (docs/ledger.md): the account (through the card; read with the
owner's program controls and whether they have a team budget), then the card read together
with the fee overrides and the tag (a channel that locked both in its own first statement hands
them in: `Locked`, the ISO 8583 host's), then the budget row when there is one; then the
transaction is inserted with its entry when money moves (`post_entry(…, insert=…)`: one
statement on PostgreSQL, returning the new card balance; its counters, tag popularity
included, are kept by the database's trigger, last), and what the request needs beyond that
(the card-testing count, a merchant lock, the 3DS code, auto-replenish).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import orjson

from cardservice.catalogue.loader import default_hold_days
from cardservice.db.sql import Row, Tx, as_uuid
from cardservice.decisions.service import Verdict
from cardservice.dictionaries.fees import (
    Fee,
    FeeSchedule,
    default_plan,
    program_fees,
    with_overrides,
)
from cardservice.errors import CardNotFound, NotFound
from cardservice.ledger.minor_units import converted, percent_of
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.transactions import card_testing, card_types, holds, lifecycle, repository
from cardservice.transactions.budgets import BUDGET_EXCEEDED, budget_refusal
from cardservice.transactions.card_testing import Merchant
from cardservice.transactions.card_types import CARD_PRESENT
from cardservice.transactions.control_checks import (
    ATM_WITHDRAWAL,
    controls_of,
    limit_breached,
    merchant_refused,
)
from cardservice.transactions.locks import (
    lock_authorization_account,
    lock_card_with_fees,
    overrides_in,
)
from cardservice.transactions.program_rules import program_refusal
from cardservice.transactions.records import Purchase
from cardservice.transactions.replenish import replenish_due, replenish_if_low
from cardservice.transactions.repository import (
    insert_transactions,
    transaction_row,
    transactions_insert,
)
from cardservice.transactions.three_ds import matching_code, use_code


class UnknownTag(NotFound):
    message = "Unknown transaction tag."


@dataclass(frozen=True, slots=True)
class Presentation:
    """How an authorization reached the service: what its channel knows and vouches for, as
    data of the request the rules read — never a branch on which channel sent it
    (docs/architecture.md#how-a-new-channel-plugs-in). The sandbox's is `SANDBOX`."""

    channel: str = "sandbox"  # the transaction's `channel`: sandbox | iso8583 | clearing
    network: dict[str, str | None] | None = None  # the network's data (iso8583), shown as is
    # paid with a wallet token (docs/network.md#wallet-tokens): {uuid, wallet, last4}, shown as the
    # transaction's `token`; its card follows a replacement (authorize.py)
    token: dict[str, str | None] | None = None
    # approved by the network on the issuer's behalf (an 0120 advice): recorded as approved
    # whatever the rules say; what the card cannot cover is the cardholder's `shortfall`
    stand_in: bool = False
    # a clearing file's force post (docs/network.md#clearing-files): a stand-in presented and
    # captured at once, booked as a completed purchase in one entry (the card pays the merchants'
    # book, no hold)
    captured: bool = False
    # the clearing record that presented it (a force post's, JSON text): written with the row
    # as its `clearing`, so its `transaction.created` shows the record and its ARN
    clearing: str | None = None
    forced: str | None = None  # the sandbox's `force_decline`: a transaction-errors slug
    # the channel's check of the card's details (card_testing.verification_failure): its
    # decline slug, free and counted by the card-testing guard; None: verified or not checked
    verification: str | None = None
    acceptor: Merchant | None = None  # where the card was presented, for the guard
    token_inactive: bool = False  # paid with a wallet token suspended or awaiting activation
    # the declines that cost the card_decline fee; None: every one but the guard's, the team
    # budget's and an increment's. A card presented by its number and details, which anyone
    # who knows them can send (ISO 8583): `card_testing.CHARGED_DECLINES` only
    charged_declines: frozenset[str] | None = None
    # how the terminal read the card (docs/cards.md#pin-in-iso-8583): chip | contactless |
    # magstripe (card present), keyed | ecommerce; None: not said (card not present)
    entry_mode: str | None = None
    # the PIN the channel received (field 52) as its Visa PVV on the card, never the PIN: ""
    # for a block that does not decode; None: no PIN presented. Compared with the card's PVV
    # under the card's lock (card_testing.pin_refusal)
    pin_pvv: str | None = field(default=None, repr=False)


SANDBOX = Presentation()
# An approval's fixed fee by what was asked for (the fee dictionary's slugs)
APPROVAL_FEES = {"card_purchase": "card_transaction", ATM_WITHDRAWAL: "card_atm"}


@dataclass(frozen=True, slots=True)
class Authorization:
    """An authorization request as the network sends it (amount in minor units), built once
    by its channel and handed to `transactions.authorize.authorize_card`. `uuid` is the
    transaction's: the decision endpoint is asked with it before it is written."""

    card_uuid: uuid.UUID
    amount: int
    currency: str
    merchant_name: str
    mcc: str | None = None
    merchant_country: str | None = None
    merchant_city: str | None = None
    tag: str | None = None
    three_ds_code: str | None = None
    parent_uuid: uuid.UUID | None = None  # an increment of this pending purchase
    uuid: uuid.UUID = field(default_factory=uuid.uuid4)
    merchant_id: str | None = None  # the network's (ISO 8583 DE 42); binds merchant_locked cards
    presentation: Presentation = SANDBOX  # the channel's facts
    # what is asked for: a purchase, or cash at an ATM (docs/cards.md#atm-withdrawals), held,
    # captured and reversed alike; each has its approval fee (`APPROVAL_FEES`)
    type: str = "card_purchase"


@dataclass(frozen=True, slots=True)
class Recorded:
    """What `record` wrote: the transaction's row (a dict of its columns), and the paying
    card's balance after everything the unit did to it (the charge, an auto-replenish), in
    the card's currency — what an ISO 8583 answer shows in field 54."""

    row: dict[str, Any]
    card_balance: int
    card_currency: str


@dataclass(frozen=True, slots=True)
class Locked:
    """An authorization's rows its caller locked in this unit already, as `decide` would lock
    them (docs/ledger.md, "Lock order"): the card's account, as
    `locks.lock_authorization_account` reads it, then the card, as `locks.lock_card_with_fees`
    reads it with the request's tag (one row a fee override; none: the card is gone)."""

    account: Row
    card: Sequence[Row]


@dataclass(frozen=True, slots=True)
class Tag:
    slug: str
    restriction: str | None  # blocked | restricted
    hold_days: int


@dataclass(frozen=True, slots=True)
class Decided:
    """What the rules said, read under the unit's locks (nothing written yet)."""

    account: Row
    card: Row
    tag: Tag | None
    fees: FeeSchedule
    reason: str | None
    three_ds: uuid.UUID | None
    fee: int  # the approval's: `card_transaction` (+ `card_fx`), none for an increment
    parent: Purchase | None  # the purchase an increment raises, locked
    amount: int  # in the card's currency (converted when the merchant's is another)
    rate: Decimal | None  # merchant currency → card currency, for a foreign one

    @property
    def approved(self) -> bool:
        return self.reason is None


def _refusal(
    account: Row,
    card: Row,
    tag: Tag | None,
    request: Authorization,
    now: datetime,
    rate: Decimal | None,
) -> str | None:
    """Rules 0-5, which need no further reads: the guard, forced, the state (card, token,
    account), the card's details (expiry, CVV2, where it was presented, the PIN), merchant
    tag, currency."""
    guarded = card_testing.card_refusal(card)
    if guarded is not None:
        return guarded
    if request.presentation.forced is not None:
        return request.presentation.forced
    state = _state_refusal(account, card, request, now)
    if state is not None:  # the details are never compared: right and wrong answer alike
        return state
    if request.presentation.verification is not None:
        return request.presentation.verification
    if request.presentation.entry_mode in CARD_PRESENT and card_types.virtual_number(
        card, request.presentation.token
    ):
        return "virtual_card_present"
    pin = card_testing.pin_refusal(card, request.presentation.pin_pvv)
    if pin is not None:
        return pin
    if tag is not None and tag.restriction == "blocked":
        return "merchant_blocked"
    if request.currency != card["currency"] and rate is None:
        return "currency_not_supported"
    return None


def _state_refusal(account: Row, card: Row, request: Authorization, now: datetime) -> str | None:
    """Rule 2: what the card, its token and its account are, whatever details came."""
    if card["status"] in ("frozen", "closed", "inactive"):  # inactive: a physical card not
        return f"card_{card['status']}"  # activated yet (docs/cards.md#physical-cards)
    if request.presentation.token_inactive:
        return "token_inactive"
    if (card["expiry_year"], card["expiry_month"]) < (now.year, now.month):
        return "card_expired"
    # docs/operations.md#running-a-program suspended
    if account["status"] != "active" or account["user_status"] != "active":
        return "account_inactive"
    return None


async def _controls_refusal(
    tx: Tx, card: Row, request: Authorization, amount: int, now: datetime
) -> str | None:
    """Rule 6: the card's own controls (merchant first, then limits, on the card's amount)."""
    controls = controls_of(card["spending_controls"])
    if controls is None:
        return None
    if merchant_refused(controls, request.tag, request.merchant_country):
        return "merchant_blocked"
    if await limit_breached(tx, controls, request.card_uuid, amount, now, request.type):
        return "limit_exceeded"
    return None


async def _card_type_refusal(tx: Tx, card: Row, request: Authorization) -> str | None:
    """Rule 2b: single_use and merchant_locked cards (transactions/card_types.py)."""
    merchant = card_types.merchant_key(request.merchant_id, request.merchant_name)
    return await card_types.card_type_refusal(tx, card, merchant, request.parent_uuid is not None)


async def _tag_exists(tx: Tx, slug: str) -> bool:
    return await repository.tag_exists(tx, slug)


async def _locked(
    tx: Tx, user_uuid: uuid.UUID, request: Authorization, locked: Locked | None
) -> tuple[Row, Sequence[Row], Tag | None]:
    """Account, then card, locked in that order (the order every money path uses); the card
    comes with the user's fee overrides and the merchant tag. Both are 404s; when the tag is
    unknown too, its message wins: a wrong tag is told so whatever card the request names.
    The account's row carries the owner's program controls and team budget currency;
    `locked`: both, when the caller locked them in this unit already."""
    if locked is not None:
        account, rows = locked.account, locked.card
    else:
        found = await lock_authorization_account(tx, user_uuid, request.card_uuid)
        if found is None:
            if request.tag is not None and not await _tag_exists(tx, request.tag):
                raise UnknownTag()
            raise CardNotFound()
        account = found
        rows = await lock_card_with_fees(tx, user_uuid, request.card_uuid, request.tag)
    if not rows:  # the card went away between the two reads
        raise CardNotFound()
    tag = None
    if request.tag is not None:
        if rows[0]["tag_slug"] is None:
            raise UnknownTag()
        tag = Tag(rows[0]["tag_slug"], rows[0]["tag_restriction"], rows[0]["tag_hold_days"])
    return account, rows, tag


async def decide(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    now: datetime,
    locked: Locked | None = None,
) -> Decided:
    """Rules 1-8 under the account's and the card's locks (and an increment's parent row's);
    writes nothing. `locked`: the account's and the card's rows, when the caller locked them
    in this unit already."""
    account, rows, tag = await _locked(tx, user_uuid, request, locked)
    card = rows[0]
    parent = None
    if request.parent_uuid is not None:
        parent = await lifecycle.locked_transaction(tx, request.parent_uuid)
        holds.require_status(parent, "pending")
        if parent.card_uuid != request.card_uuid:  # its row lock follows this card's
            raise holds.InvalidTransition("An increment is made on its purchase's card.")
    rate = await rate_to_card(tx, request.currency, card["currency"], now)
    fees, amount, fee = approval_terms(
        account, rows, await default_plan(tx), request, rate, increment=parent is not None
    )
    reason = _refusal(account, card, tag, request, now, rate)
    if reason is None:
        reason = await _card_type_refusal(tx, card, request)
    if reason is None:
        reason = await _controls_refusal(tx, card, request, amount, now)
    # the user's card program's controls, on top of the card's
    # (docs/operations.md#running-a-program)
    if reason is None:
        reason = await program_refusal(
            tx, account["program_controls"], request.card_uuid, request.tag,
            request.merchant_country, amount, now,
        )  # fmt: skip
    # the team budget (docs/teams.md#teams-budgets-requests-receipts)
    if reason is None and account["budget_currency"] is not None:
        reason = await budget_refusal(tx, user_uuid, card["currency"], amount, now)
    code = None
    if reason is None and request.three_ds_code is not None:
        code = await matching_code(tx, cipher, request.card_uuid, request.three_ds_code, now)
        reason = None if code is not None else "invalid_3ds"
    if reason is None and amount + fee > card["balance"]:
        reason = "insufficient_funds"
    return Decided(account, card, tag, fees, reason, code, fee, parent, amount, rate)


def approval_terms(
    account: Row,
    rows: Sequence[Row],
    plan: dict[str, Fee],
    request: Authorization,
    rate: Decimal | None,
    *,
    increment: bool,
) -> tuple[FeeSchedule, int, int]:
    """What an approval costs: the fees that apply (the user's overrides, carried by the
    locked card's `rows`, over their program's, over `plan`, the schedule), the amount in the
    card's currency (converted at `rate`) and the approval's fee (its type's, plus `card_fx`
    of a converted amount; none for an increment)."""
    # the user's program's fees under their own (docs/operations.md#your-own-catalogue)
    fees = with_overrides(plan, overrides_in(rows), program_fees(account["program_fees"]))
    amount = request.amount if rate is None else converted(request.amount, rate)
    fee = 0 if increment else fees.fixed(APPROVAL_FEES[request.type])
    if rate is not None and not increment:
        fee += percent_of(amount, fees.percent("card_fx"))
    return fees, amount, fee


async def rate_to_card(
    tx: Tx, merchant_currency: str, card_currency: str, now: datetime
) -> Decimal | None:
    """The rate from the merchant's currency to the card's in force at `now`; None when they
    are the same or there is no such pair."""
    if merchant_currency == card_currency:
        return None
    rate = await repository.rate(tx, merchant_currency, card_currency, now)
    return None if rate is None else Decimal(rate)


def _new_transaction(
    user_uuid: uuid.UUID,
    decided: Decided,
    request: Authorization,
    now: datetime,
) -> dict[str, Any]:
    card, tag, rate = decided.card, decided.tag, decided.rate
    facts = request.presentation
    hold_days = tag.hold_days if tag is not None else default_hold_days()
    held_until = None if facts.captured else now + timedelta(days=hold_days)
    foreign: dict[str, Any] = {}
    if rate is not None:
        foreign = {
            "currency": card["currency"],
            "merchant_amount": request.amount,
            "merchant_captured_amount": request.amount if facts.captured else 0,
            "merchant_currency": request.currency,
            "rate": str(rate),
        }
    return (
        transaction_row(
            uuid=request.uuid,
            user_uuid=user_uuid,
            account_uuid=as_uuid(card["account_uuid"]),
            card_uuid=request.card_uuid,
            type=request.type,
            status="completed" if facts.captured else "pending",
            direction="debit",
            amount=decided.amount,
            authorized_amount=decided.amount,
            captured_amount=decided.amount if facts.captured else 0,
            hold_expires_at=held_until,
            parent_uuid=request.parent_uuid,
            currency=request.currency,
            merchant_name=request.merchant_name,
            merchant_mcc=request.mcc,
            merchant_country=request.merchant_country,
            merchant_city=request.merchant_city,
            tag_slug=tag.slug if tag else None,
            flagged=bool(tag and tag.restriction == "restricted"),
            created_at=now,
            updated_at=now,
            channel=facts.channel,
            stand_in=facts.stand_in,
            token=None if facts.token is None else orjson.dumps(facts.token).decode(),
            clearing=facts.clearing,
        )
        | foreign
    )


async def _charge(
    tx: Tx,
    transaction: dict[str, Any],
    amount: int,
    fee: int,
    balance: int,
) -> int:
    """The transaction's row written with its entry (one statement on PostgreSQL, left for
    later: `balance` is the card's as this unit locked it, so the new one is worked out here
    and the entry written with the other requests' of a lane's unit, `post_entry`'s `held`):
    the hold of `amount` and the fee (`holds.place`; a force post's pays the merchants' book
    at once), or a decline's fee alone. Returns the card's new balance (`balance`, what it
    was, when the card pays nothing)."""
    card_uuid = transaction["card_uuid"]
    posted = transaction["status"] == "completed"
    kind = f"card_purchase_{'captured' if posted else transaction['status']}"
    entry = await holds.place(
        tx, transaction["uuid"], card_uuid, transaction["currency"], amount, fee, kind=kind,
        shortfall=transaction.get("shortfall", 0), posted=posted,
        insert=transactions_insert([transaction]), balance=balance,
    )  # fmt: skip
    return entry.balances.get(card_uuid, balance)


async def _raise_hold(
    tx: Tx, decided: Decided, parent: Purchase, request: Authorization, now: datetime
) -> Recorded:
    """An approved increment: the parent's hold and authorization grow by the increment (in
    the card's currency; a foreign parent's merchant amount by the merchant's)."""
    amount = decided.amount
    merchant_amount = parent.merchant_amount
    parent = replace(
        parent, amount=parent.amount + amount,
        authorized_amount=parent.authorized_amount + amount, updated_at=now,
        merchant_amount=None if merchant_amount is None else merchant_amount + request.amount,
    )  # fmt: skip
    tx.events_written = False  # the parent's `transaction.updated` is its trigger's: read it
    await repository.raise_hold(
        tx, parent.uuid, parent.amount, parent.authorized_amount, now, parent.merchant_amount
    )
    assert parent.card_uuid is not None
    entry = await holds.place(
        tx, parent.uuid, parent.card_uuid, parent.currency, amount, 0,
        kind="card_purchase_incremented", shortfall=parent.shortfall,
    )  # fmt: skip
    balance = entry.balances.get(parent.card_uuid, decided.card["balance"])
    balance = await replenish_if_low(tx, decided.account, decided.card, balance, now)
    return Recorded(dict(parent), balance, decided.card["currency"])


def _unconvertible(request: Authorization, decided: Decided) -> bool:
    """A stand-in in a currency the card does not hold that the rate table cannot convert."""
    return (
        request.presentation.stand_in
        and decided.rate is None
        and request.currency != decided.card["currency"]
    )


def _decline_fee_due(request: Authorization, decided: Decided, reason: str) -> bool:
    """The `card_decline` fee is due unless the decline is the guard's (a verification
    failure, `suspected_fraud`), the team budget's or an increment's; where the channel says
    which declines cost it (`charged_declines`), only for those."""
    facts = request.presentation
    if reason == facts.forced:
        return decided.parent is None  # the sandbox's forced decline: every slug pays, as declined
    if facts.charged_declines is not None:
        return reason in facts.charged_declines and decided.parent is None
    free = reason in card_testing.FREE_DECLINES or reason == BUDGET_EXCEEDED
    return not free and decided.parent is None


async def _guard(
    tx: Tx, request: Authorization, card: Row, reason: str | None, now: datetime
) -> None:
    """The card-testing guard's count, in the unit that recorded the answer: a verification
    failure counts (at the card and at its merchant), an approval the card's issuer checked
    resets the card's; a wrong PIN counts toward its block, a right one resets that count."""
    facts = request.presentation
    if facts.pin_pvv is not None:
        await card_testing.note_pin(tx, request.card_uuid, card, facts.pin_pvv, reason, now)
    if reason is not None and reason == facts.verification:
        await card_testing.note_card_failure(tx, request.card_uuid, card, now)
        if facts.acceptor is not None:
            await card_testing.note_merchant_failure(tx, facts.acceptor, now)
    elif reason is None and not facts.stand_in:
        await card_testing.note_card_passed(tx, request.card_uuid, card)


def _outcome(decided: Decided, verdict: Verdict | None) -> tuple[str | None, str]:
    """The decline reason (None: approved) and who decided."""
    if not decided.approved or verdict is None:
        return decided.reason, "rules"
    return (None if verdict.approved else "do_not_honor"), verdict.decision


async def record(
    tx: Tx,
    user_uuid: uuid.UUID,
    request: Authorization,
    decided: Decided,
    verdict: Verdict | None,
    now: datetime,
) -> Recorded:
    """Write the answer in the unit that decided: the transaction, its entry, the 3DS code
    used up, auto-replenish. Returns the transaction's row and the card's balance after."""
    card, fees = decided.card, decided.fees
    reason, decision = _outcome(decided, verdict)
    facts = request.presentation
    if facts.stand_in:  # the network approved already: the rules only inform
        reason, decision = None, "stand_in"
    if reason is None and decided.parent is not None:
        return await _raise_hold(tx, decided, decided.parent, request, now)
    transaction = answered_row(user_uuid, request, decided, reason, decision, now)
    if decision == "endpoint" and reason is not None and verdict is not None:
        transaction["description"] = verdict.reason
    if reason is not None:
        transaction["status"], transaction["error_slug"] = "declined", reason
        transaction["authorized_amount"], transaction["hold_expires_at"] = 0, None
        fee_due = _decline_fee_due(request, decided, reason)
        if fee_due and transaction["currency"] == card["currency"]:
            transaction["fee"] = min(fees.fixed("card_decline"), card["balance"])
    card_balance = int(card["balance"])  # as locked: moved only by the entries below
    if reason is None or transaction["fee"]:  # the transaction written with its entry
        amount = transaction["amount"] if reason is None else 0
        card_balance = await _charge(tx, transaction, amount, transaction["fee"], card_balance)
    else:
        await insert_transactions(tx, [transaction])
    if reason is None:
        card_balance = await after_approval(tx, request, decided, transaction, card_balance, now)
        return Recorded(transaction, card_balance, card["currency"])
    await _guard(tx, request, card, reason, now)
    if transaction["fee"]:
        card_balance = await replenish_if_low(tx, decided.account, card, card_balance, now)
    return Recorded(transaction, card_balance, card["currency"])


def answered_row(
    user_uuid: uuid.UUID,
    request: Authorization,
    decided: Decided,
    reason: str | None,
    decision: str,
    now: datetime,
) -> dict[str, Any]:
    """The transaction an answer writes (`reason` None: approved, with its fee and what the
    card cannot cover of it as its `shortfall`; else the caller declines it)."""
    transaction = _new_transaction(user_uuid, decided, request, now)
    transaction["decision"] = decision
    facts = request.presentation
    if facts.network is not None:  # an authorization code only on an approval
        network = facts.network if reason is None else {**facts.network, "auth_code": None}
        transaction["network"] = orjson.dumps(network).decode()
        transaction["auth_code"] = network.get("auth_code")
    if reason is None and _unconvertible(request, decided):
        # a stand-in in a currency the card does not hold and no rate converts: the network
        # approved it, so it is booked, but the card cannot pay any of it — all of it is the
        # cardholder's shortfall, in the merchant's currency, and no fee
        # (docs/network.md#the-network-interface-iso-8583)
        transaction["fee"], transaction["shortfall"] = 0, decided.amount
    elif reason is None:
        transaction["fee"] = decided.fee
        balance = decided.card["balance"]
        transaction["shortfall"] = max(0, decided.amount + decided.fee - balance)
    return transaction


def follows_approval(request: Authorization, card: Row, balance: int) -> bool:
    """Whether `after_approval` writes anything for this approval (`balance`: the card's
    after it)."""
    facts = request.presentation
    return (
        facts.pin_pvv is not None
        or not facts.stand_in
        or card_types.binds_on_approval(card)
        or replenish_due(card, balance)
    )


async def after_approval(
    tx: Tx,
    request: Authorization,
    decided: Decided,
    transaction: dict[str, Any],
    card_balance: int,
    now: datetime,
) -> int:
    """What an approval does after its entry, in its unit: the card-testing guard's count, a
    merchant_locked card bound by its first approval, the 3DS code used up, auto-replenish.
    The card's balance after it."""
    card = decided.card
    await _guard(tx, request, card, None, now)
    merchant = card_types.merchant_key(request.merchant_id, request.merchant_name)
    await card_types.bind_on_approval(tx, card, merchant)
    if decided.three_ds is not None:
        await use_code(tx, decided.three_ds, transaction["uuid"], now)
    return await replenish_if_low(tx, decided.account, card, card_balance, now)


async def authorize(
    tx: Tx,
    cipher: CardCipher,
    user_uuid: uuid.UUID,
    request: Authorization,
    verdict: Verdict | None = None,
    now: datetime | None = None,
) -> dict[str, Any]:
    """Answer one authorization in one unit: a pending purchase, or a declined transaction
    with its reason. `verdict` is the decision endpoint's answer, if it was asked."""
    now = now or utcnow()
    decided = await decide(tx, cipher, user_uuid, request, now)
    return (await record(tx, user_uuid, request, decided, verdict, now)).row

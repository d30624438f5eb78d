"""Top-up rules (docs/operations.md#running-a-program).

* Asking (cardholder): the method and currency are one of `/payment/currencies/{method}`,
  the amount within its min/max; the fee is the method's percent of the amount (rounded
  half-up to the cent); what the account gets, `credit_amount`, is the amount less the fee,
  converted at the rate table when the currency is not the account's
  (`currency_not_supported` when the table has no such pair). Payment amounts are kept to
  the cent, as every amount of the API. The top-up awaits payment for 72 hours under a
  random `reference` the payer quotes.
* Confirming (operator, once): the account is credited for what arrived — the same rule
  applied to `received_amount` — as a `deposit` transaction linked to the top-up, in one
  entry (account +credit, the fee to the `fees` book, `funding` the other side: the deposit
  shows what arrived as its `amount` and the method's fee as its `fee`, converted); the
  top-up is `completed`. A top-up no longer awaiting payment refuses a confirm or a cancel with
  409. Locks: the account, then the top-up row, so two confirms at once credit once.
* Unpaid top-ups expire after 72 hours, swept by the background loop beside the hold sweep
  (`register`, a job of background.py).
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from cardservice.db.database import Database
from cardservice.db.paging import Page
from cardservice.db.sql import Reader, Tx, as_uuid
from cardservice.errors import (
    AccountInactive,
    AccountNotFound,
    NotFound,
    RuleViolation,
    ServiceError,
    ValidationFailed,
)
from cardservice.infra.background import Job
from cardservice.ledger import SystemBook, account_leg, book_leg, post_entry
from cardservice.ledger.minor_units import converted, from_minor, to_minor
from cardservice.models.base import utcnow
from cardservice.operator import Acting
from cardservice.topups import repository
from cardservice.topups.records import topup_record
from cardservice.topups.schemas import TopupRequest
from cardservice.transactions import insert_transactions, transaction_row

LIFETIME = timedelta(hours=72)
REFERENCE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CENT = Decimal("0.01")


class TopupNotFound(NotFound):
    message = "Top-up not found."


class TopupClosed(ServiceError):
    status_code, code = 409, "topup_not_awaiting_payment"
    message = "The top-up is no longer awaiting payment."


class CurrencyNotSupported(RuleViolation):
    code, message = "currency_not_supported", "This currency cannot be converted to the account's."


@dataclass(frozen=True, slots=True)
class Quote:
    """What `amount` (cents of the payment currency) brings the account."""

    fee: int  # cents of the payment currency
    credit: int  # cents of the account's currency
    fee_in_account: int  # the fee converted: what the `fees` book earns


def quote(amount: int, fee_percent: Decimal, rate: Decimal) -> Quote:
    fee = int((Decimal(amount) * fee_percent / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    credit = converted(amount - fee, rate)
    return Quote(fee, credit, converted(amount, rate) - credit)


def _reference() -> str:
    return "TU-" + "".join(secrets.choice(REFERENCE_ALPHABET) for _ in range(10))


async def _terms(tx: Tx, body: TopupRequest, account_currency: str) -> tuple[Decimal, Decimal]:
    """The method's percent fee for the currency and the rate to the account's currency."""
    if not await repository.method_exists(tx, body.method):
        raise ValidationFailed(errors={"method": ["not a payment method of /payment/currencies"]})
    offered = await repository.payment_currency(tx, body.method, body.currency)
    if offered is None:
        raise ValidationFailed(errors={"currency": [f"not a currency of {body.method}"]})
    low, high = Decimal(offered["min_amount"]), Decimal(offered["max_amount"])
    if not low <= body.amount <= high:
        raise ValidationFailed(errors={"amount": [f"must be within {low:f}..{high:f}"]})
    if body.currency == account_currency:
        return Decimal(offered["fee_percent"]), Decimal(1)
    rate = await repository.rate(tx, body.currency, account_currency, utcnow())
    if rate is None:
        raise CurrencyNotSupported()
    return Decimal(offered["fee_percent"]), rate


async def request_topup(
    tx: Tx, user_uuid: uuid.UUID, body: TopupRequest, now: datetime
) -> dict[str, Any]:
    """A new top-up awaiting payment on one of the user's own active accounts."""
    account = await repository.own_account(tx, uuid.UUID(body.account_uuid), user_uuid)
    if account is None:
        raise AccountNotFound()
    if account["status"] != "active":
        raise AccountInactive()
    fee_percent, rate = await _terms(tx, body, account["currency"])
    amount = to_minor(body.amount)
    terms = quote(amount, fee_percent, rate)
    topup = {
        "uuid": uuid.uuid4(),
        "user_uuid": user_uuid,
        "account_uuid": as_uuid(account["uuid"]),
        "method_slug": body.method,
        "currency": body.currency,
        "amount": amount,
        "fee": terms.fee,
        "rate": str(rate),
        "account_currency": account["currency"],
        "credit_amount": terms.credit,
        "reference": _reference(),
        "status": "awaiting_payment",
        "expires_at": now + LIFETIME,
        "received_amount": None,
        "transaction_uuid": None,
        "created_at": now,
        "updated_at": now,
    }
    await repository.insert(tx, topup)
    return topup_record(topup)


async def _fee_percent(tx: Tx, topup: dict[str, Any]) -> Decimal:
    offered = await repository.payment_currency(tx, topup["method_slug"], topup["currency"])
    assert offered is not None, "the catalogue keeps its payment currencies"
    return Decimal(offered["fee_percent"])


async def _locked(tx: Tx, topup_uuid: uuid.UUID) -> tuple[Any, dict[str, Any]]:
    """The top-up's account, then the top-up, locked in the global order; 409 unless it
    still awaits payment."""
    account = await repository.lock_account_of(tx, topup_uuid)
    if account is None:
        raise TopupNotFound()
    row = await repository.lock(tx, topup_uuid)
    assert row is not None
    topup = dict(zip(repository.COLUMNS, row, strict=True))
    if topup["status"] != "awaiting_payment":
        raise TopupClosed()
    return account, topup


async def confirm_topup(
    tx: Tx, acting: Acting, topup_uuid: uuid.UUID, received: int, now: datetime
) -> dict[str, Any]:
    """Credit the account for what arrived (once) and complete the top-up."""
    account, topup = await _locked(tx, topup_uuid)
    if account["status"] != "active":
        raise AccountInactive()
    terms = quote(received, await _fee_percent(tx, topup), Decimal(topup["rate"]))
    currency, account_uuid = account["currency"], as_uuid(account["uuid"])
    assert account_uuid is not None
    row = transaction_row(
        user_uuid=as_uuid(account["user_uuid"]),
        account_uuid=account_uuid,
        card_uuid=None,
        type="deposit",
        status="completed",
        direction="credit",
        amount=terms.credit + terms.fee_in_account,  # what arrived, in the account's currency
        fee=terms.fee_in_account,  # charged with it: the account keeps `credit`
        currency=currency,
        description=f"Top-up {topup['reference']}",
        created_at=now,
        updated_at=now,
    )
    await insert_transactions(tx, [row])
    await post_entry(
        tx,
        "deposit",
        [
            account_leg(account_uuid, currency, terms.credit),
            book_leg(SystemBook.FEES, currency, terms.fee_in_account),
            book_leg(SystemBook.FUNDING, currency, -(terms.credit + terms.fee_in_account)),
        ],
        reference=row["uuid"],
    )
    changes = {
        "status": "completed",
        "received_amount": received,
        "credit_amount": terms.credit,
        "transaction_uuid": row["uuid"],
        "updated_at": now,
    }
    await repository.update(tx, topup_uuid, changes)
    details = {"received_amount": from_minor(received), "currency": topup["currency"],
               "transaction_uuid": str(row["uuid"])}  # fmt: skip
    await acting.record(tx, "topup.confirmed", "topup", topup_uuid, details)
    return topup_record({**topup, **changes})


async def cancel_topup(
    tx: Tx, acting: Acting, topup_uuid: uuid.UUID, now: datetime
) -> dict[str, Any]:
    """An unpaid top-up is cancelled (409 once it is not awaiting payment)."""
    _account, topup = await _locked(tx, topup_uuid)
    changes = {"status": "cancelled", "updated_at": now}
    await repository.update(tx, topup_uuid, changes)
    await acting.record(tx, "topup.cancelled", "topup", topup_uuid)
    return topup_record({**topup, **changes})


def with_pay_to(record: dict[str, Any], pay_to: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """The top-up with where to pay it: the program's details for its method and currency
    (`method:CURRENCY`), else for its method, in their order (`Settings.topup_pay_to`)."""
    method, currency = record["method"], record["currency"]
    lines = pay_to.get(f"{method}:{currency}") or pay_to.get(method) or {}
    return {**record, "pay_to": [{"label": k, "value": v} for k, v in lines.items()]}


async def get_topup(
    reader: Reader | Tx, topup_uuid: uuid.UUID, user_uuid: uuid.UUID | None
) -> dict[str, Any]:
    row = await repository.one(reader, topup_uuid, user_uuid)
    if row is None:
        raise TopupNotFound()
    return topup_record(row)


async def list_topups(
    reader: Reader, user_uuid: uuid.UUID, page: Page
) -> tuple[list[dict[str, Any]], int]:
    rows, total = await repository.page(reader, user_uuid, page.offset, page.size)
    return [topup_record(row) for row in rows], total


async def sweep_expired_topups(db: Database, now: datetime) -> int:
    """Expire every unpaid top-up due at `now` (exactly once whoever else sweeps); how many
    this sweeper expired."""
    return len(await db.transact(lambda tx: repository.expire_due(tx, now)))


async def _sweep_now(db: Database) -> int:
    return await sweep_expired_topups(db, utcnow())


TOPUP_SWEEP_JOB = Job("topup_sweep", lambda settings: settings.hold_sweep_seconds, _sweep_now)
"""Expire the unpaid top-ups as often as the hold sweep runs (`CARDSERVICE_HOLD_SWEEP_SECONDS`):
a job of the background loop (infra/background.py; `cardservice.runtime` lists it)."""

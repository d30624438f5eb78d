"""The rules a card program (programs/, docs/operations.md#running-a-program) adds to buying and
authorizing, read with the rows those paths lock.

* a user in a program buys only from its BINs (`bin_not_allowed`);
* its cards expire `card_validity_months` after issue (36 without a program);
* its spending controls apply to each of its users' cards on top of the card's own, with
  the same evaluation (transactions/control_checks.py): a breach of either declines.
"""

from __future__ import annotations

import uuid
from datetime import datetime

import orjson

from cardservice.db.sql import Tx
from cardservice.errors import RuleViolation
from cardservice.transactions.control_checks import controls_of, limit_breached, merchant_refused

DEFAULT_VALIDITY_MONTHS = 36


class BinNotAllowed(RuleViolation):
    code, message = "bin_not_allowed", "The user's card program does not issue from this BIN."


def bin_allowed(program_bins: str | None, bin_uuid: uuid.UUID) -> bool:
    """No program (None), or the BIN is one of the program's (JSON list of uuids)."""
    if program_bins is None:
        return True
    return str(bin_uuid) in {value.lower() for value in orjson.loads(program_bins)}


def expiry_after(now: datetime, months: int | None) -> tuple[int, int]:
    """(month, year) `months` after `now` (the default validity when None)."""
    total = now.year * 12 + now.month - 1 + (months or DEFAULT_VALIDITY_MONTHS)
    return total % 12 + 1, total // 12


async def program_refusal(
    tx: Tx, stored: str | None, card_uuid: uuid.UUID, tag: str | None,
    country: str | None, amount: int, now: datetime,
) -> str | None:  # fmt: skip
    """The user's program's controls (`stored`: as the program row holds them, read with the
    account's lock, `locks.lock_authorization_account`), checked as a card's own are
    (transactions/control_checks.py) on the card's spend: `merchant_blocked` or `limit_exceeded`;
    None when they pass or there are none. The caller holds the card row's lock."""
    controls = controls_of(stored)
    if controls is None:
        return None
    if merchant_refused(controls, tag, country):
        return "merchant_blocked"
    if await limit_breached(tx, controls, card_uuid, amount, now):
        return "limit_exceeded"
    return None

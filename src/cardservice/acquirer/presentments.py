"""The clearing file an acquirer would send for a simulator run (docs/network.md#clearing-files):
what the acquirer settles with the network. A first presentment of every authorization the run got
approved and did not reverse (DE 3 the authorization's type: a purchase's `00`, an ATM
withdrawal's `01`) — captured online by an 0220 or not: the 0220 was an advice,
the file is what settles — in the authorization's currency, at what was captured online,
else what was authorized, with its approval code and an ARN of its own; after it, a refund
presentment (DE 3 `20`) of each online refund of it, with the purchase's ARN. The service
books the online captures and refunds again as duplicates (nothing moves), so the day's
settlement report equals the file's totals (docs/network.md, "Settling the day").

With the `clearing` fault the file also holds what a real day brings: amounts that differ
from the authorization (tips, partial shipments, also of authorizations captured online),
presentments of authorizations reversed since (force posts), and of cards the service never
issued (unmatched).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from cardservice.clearing.ipm import Presentment, write

UNKNOWN_CARDS = 3  # presentments on numbers the service did not issue (the fault)


class Authorized(Protocol):
    """What the simulator knows of an authorization it sent (`simulator.Sent`)."""

    fields: dict[int, str]
    amount: int
    answer: dict[int, str] | None
    reversed: bool
    captured: int
    refunded: int


def _approval_code(sent: Authorized) -> str | None:
    answer = sent.answer or {}
    return answer.get(38) or sent.fields.get(38)


def _amount(sent: Authorized, rng: random.Random, faulty: bool) -> int:
    """What the merchant presents: what it captured online, else what it authorized; with
    the fault, one in five another amount (up to 25 % more, or less, but never less than
    the run refunded online: that presentment is an operator's exception, docs/network.md,
    not a difference the run checks)."""
    amount = sent.captured or sent.amount
    if faulty and rng.random() < 0.2:
        return max(1, sent.refunded, amount + rng.randint(-amount // 4, amount // 4))
    return amount


def _processing_code(sent: Authorized) -> str:
    """DE 3 of the presentment: the authorization's transaction type (`00` a purchase, `01`
    cash at an ATM), from the default accounts."""
    return str(sent.fields.get(3) or "000000")[:2] + "0000"


def _chosen(sent: Authorized, rng: random.Random, faulty: bool) -> bool:
    """Presented: approved and not reversed (captured online or not) — with the fault, also
    half of those reversed."""
    if sent.answer is None or sent.answer.get(39) != "00":
        return False
    if sent.reversed:
        return faulty and rng.random() < 0.5
    return True


def _presentments(
    sent: Sequence[Authorized], rng: random.Random, faulty: bool
) -> Iterator[Presentment]:
    number = 1
    for item in sent:
        if not _chosen(item, rng, faulty):
            continue
        number += 1
        purchase = Presentment(
            message_number=number, pan=item.fields[2], processing_code=_processing_code(item),
            amount=_amount(item, rng, faulty), currency=item.fields[49],
            approval_code=_approval_code(item), arn=f"7{number:022d}",
            merchant_id=item.fields.get(42, "").strip() or None, merchant_name="Netflix",
            merchant_city="Los Gatos", merchant_country="USA", mcc=item.fields.get(18),
        )  # fmt: skip
        yield purchase
        if item.refunded and not item.reversed:  # the online refund, cleared too
            number += 1
            yield replace(
                purchase, message_number=number, processing_code="200000",
                amount=item.refunded, approval_code=None,
            )  # fmt: skip
    for _ in range(UNKNOWN_CARDS if faulty else 0):
        number += 1
        pan = f"999999{rng.randrange(10**10):010d}"
        yield Presentment(number, pan, "000000", rng.randint(100, 5_000), "840", "ABC123")


def write_run_file(
    path: Path, file_id: str, sent: Sequence[Authorized], seed: int, faults: set[str]
) -> dict[str, Any]:
    """Write the run's clearing file at `path`; what was written."""
    rng = random.Random(seed)  # noqa: S311 - seeded faults, no secret
    with path.open("wb") as out:
        messages = write(out, file_id, _presentments(sent, rng, "clearing" in faults))
    return {"path": str(path), "file_id": file_id, "messages": messages}

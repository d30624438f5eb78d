"""The acquirer's answer to the issuer's chargebacks (docs/disputes.md#the-simulator-answers):
read the issuer's outgoing IPM file as an acquirer would (`clearing.ipm`, by `cardutil`) and
write the incoming file with a second presentment (1240 `205`, full) for a share of its first
chargebacks (`450`/`453`), chosen by a seeded draw: the same file, share and seed write the
same answer. Pre-arbitrations (`451`) are not answered (the issuer wins them at their
deadline)."""

from __future__ import annotations

import random
from pathlib import Path

from cardservice.clearing import ipm

FIRST_CHARGEBACKS = ("450", "453")
MESSAGE = "Merchant's evidence: the goods were delivered and signed for."


def chargebacks(path: Path) -> list[ipm.ChargebackMessage]:
    """The first chargebacks of an outgoing file, in its order."""
    with path.open("rb") as file:
        return [
            ipm.chargeback(message)
            for message in ipm.messages(file)
            if ipm.is_chargeback(message) and message.get("DE24") in FIRST_CHARGEBACKS
        ]


def represent(outgoing: Path, out: Path, share: float, seed: int) -> int:
    """Write `out`: second presentments of `share` of the chargebacks of `outgoing` (file id
    its own: the outgoing file's with `-ANSWER`). Returns how many it holds."""
    items = chargebacks(outgoing)
    draw = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    chosen = [item for item in items if draw.random() < share]
    with outgoing.open("rb") as file:
        header = next(ipm.messages(file))
    answers = (
        ipm.second_presentment_message(
            ipm.SecondPresentment(
                message_number=number,
                pan=item.pan,
                amount=item.amount,
                currency=item.currency,
                arn=item.arn,
                text=MESSAGE,
            )
        )
        for number, item in enumerate(chosen, start=2)
    )
    with out.open("wb") as file:
        ipm.write_messages(file, f"{str(header[ipm.FILE_ID]).strip()}-ANSWER", answers)
    return len(chosen)

"""The acquirer's answer to the issuer's chargebacks (docs/disputes.md#the-simulator-answers):
read the issuer's outgoing IPM file as an acquirer would (`clearing.ipm`, by `cardutil`) and
write the incoming file with a second presentment (1240 `205`, full) for a share of its first
chargebacks (`450`/`453`), chosen by a seeded draw: the same file, share and seed write the
same answer. Its pre-arbitrations (`451`) are answered when asked (`pre_arbitration`:
`accept` → a 1644 `640`, `decline` → `641`), else left unanswered (the issuer wins them at
their deadline)."""

from __future__ import annotations

import random
from pathlib import Path

from cardservice.clearing import ipm

FIRST_CHARGEBACKS = ("450", "453")
MESSAGE = "Merchant's evidence: the goods were delivered and signed for."
ANSWER_MESSAGES = {
    True: "Acquirer accepts the pre-arbitration.",
    False: "Acquirer declines the pre-arbitration: the evidence stands.",
}


def chargebacks(
    path: Path, functions: tuple[str, ...] = FIRST_CHARGEBACKS
) -> list[ipm.ChargebackMessage]:
    """The chargebacks of an outgoing file with those DE 24 functions, in its order."""
    with path.open("rb") as file:
        return [
            ipm.chargeback(message)
            for message in ipm.messages(file)
            if ipm.is_chargeback(message) and message.get("DE24") in functions
        ]


def represent(
    outgoing: Path, out: Path, share: float, seed: int, pre_arbitration: str | None = None
) -> int:
    """Write `out`: second presentments of `share` of the first chargebacks of `outgoing`,
    and, with `pre_arbitration` (`accept` or `decline`), that answer to each of its 451s
    (file id its own: the outgoing file's with `-ANSWER`). Returns how many messages it holds
    between header and trailer."""
    items = chargebacks(outgoing)
    draw = random.Random(seed)  # noqa: S311 - a reproducible simulation, not a secret
    chosen = [item for item in items if draw.random() < share]
    pres = chargebacks(outgoing, ("451",)) if pre_arbitration else []
    with outgoing.open("rb") as file:
        header = next(ipm.messages(file))
    seconds = [
        ipm.second_presentment_message(
            ipm.SecondPresentment(
                message_number=number, pan=item.pan, amount=item.amount,
                currency=item.currency, arn=item.arn, text=MESSAGE,
            )
        )
        for number, item in enumerate(chosen, start=2)
    ]  # fmt: skip
    accepted = pre_arbitration == "accept"
    answers = [
        ipm.pre_arbitration_answer_message(
            ipm.PreArbitrationAnswer(
                message_number=number, pan=item.pan, amount=item.amount,
                currency=item.currency, arn=item.arn, accepted=accepted,
                text=ANSWER_MESSAGES[accepted],
            )
        )
        for number, item in enumerate(pres, start=2 + len(seconds))
    ]  # fmt: skip
    with out.open("wb") as file:
        ipm.write_messages(file, f"{str(header[ipm.FILE_ID]).strip()}-ANSWER", seconds + answers)
    return len(seconds) + len(answers)

"""Mastercard IPM clearing files (docs/network.md#clearing-files), read and written by `cardutil`:
EBCDIC (cp500), variable-length records with their 4-byte length, in 1014-byte blocks, binary
bitmaps, PDS sub-elements in DE 48. This module knows the messages a clearing file holds
(header, first and second presentments, chargebacks, trailer); `clearing/` books and writes
them, the simulator writes and reads them.

Reading streams record by record (`messages`): one record in memory at a time, whatever the
file's size.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import IO, Any

from cardutil import iso8583, mciipm
from cardutil.config import config

ENCODING = "cp500"
HEADER_MTI, HEADER_FUNCTION = "1644", "697"
TRAILER_MTI, TRAILER_FUNCTION = "1644", "695"
PRESENTMENT_MTI, FIRST_PRESENTMENT = "1240", "200"
FILE_ID, MESSAGE_COUNT = "PDS0105", "PDS0306"
SECOND_PRESENTMENTS = ("205", "282")  # DE 24 of a 1240: full, partial (docs/disputes.md)
CHARGEBACK_MTI = "1442"  # DE 24 450 first chargeback, 453 partial, 451 pre-arbitration
# the acquirer's answer to a 451 (docs/disputes.md#the-acquirers-answer-to-a-pre-arbitration):
# a 1644 with DE 24 640 (accepted) or 641 (declined)
ANSWER_MTI, ANSWERS = "1644", {"640": True, "641": False}
MESSAGE_TEXT_LENGTH = 999  # DE 72
PURCHASE, ATM, REFUND = "00", "01", "20"  # the first two digits of DE 3

# cardutil's layout, with the fields the service reads kept as the text they are: DE 12 and
# DE 26 not converted (a date the service does not need, an MCC with its leading zeros), and
# DE 43 not split by cardutil's regular expression (its sub-fields are split on `\` below).
BIT_CONFIG: dict[str, Any] = copy.deepcopy(config["bit_config"])
for _bit in ("12", "26"):
    BIT_CONFIG[_bit].pop("field_python_type", None)
BIT_CONFIG["43"].pop("field_processor", None)

# cardutil formats a hex dump of every record for a debug log line before it knows whether
# the line is logged: two thirds of its reading time. The dump is made only when that
# logger writes debug lines.
_LOGGER = logging.getLogger(iso8583.__name__)
_hexdump = iso8583.hexdump


def _dump_when_logged(*args: Any, **kwargs: Any) -> Any:
    return _hexdump(*args, **kwargs) if _LOGGER.isEnabledFor(logging.DEBUG) else ""


iso8583.hexdump = _dump_when_logged


class Unreadable(Exception):
    """The bytes are not an IPM file (the message says where and why)."""


@dataclass(frozen=True, slots=True)
class Presentment:
    """A first presentment (1240, DE 24 `200`) as the service reads it."""

    message_number: int  # DE 71
    pan: str  # DE 2
    processing_code: str  # DE 3
    amount: int  # DE 4, minor units of DE 49
    currency: str  # DE 49, ISO 4217 numeric
    approval_code: str | None = None  # DE 38
    arn: str | None = None  # DE 31
    merchant_id: str | None = None  # DE 42
    merchant_name: str | None = None  # DE 43 sub-field 1
    merchant_city: str | None = None  # DE 43 sub-field 3
    merchant_country: str | None = None  # DE 43's last 3 characters
    mcc: str | None = None  # DE 26
    local_time: datetime | None = None  # DE 12

    @property
    def refund(self) -> bool:
        return self.processing_code.startswith(REFUND)

    @property
    def atm(self) -> bool:
        """Cash at an ATM (DE 3 `01…`), presented as a purchase is."""
        return self.processing_code.startswith(ATM)


@dataclass(frozen=True, slots=True)
class SecondPresentment:
    """A second presentment (1240, DE 24 `205` full or `282` partial): the merchant's answer
    to a chargeback, naming the purchase by its ARN (DE 31)."""

    message_number: int  # DE 71
    pan: str  # DE 2
    amount: int  # DE 4, minor units of DE 49
    currency: str  # DE 49, ISO 4217 numeric
    arn: str  # DE 31
    partial: bool = False  # DE 24 282
    text: str | None = None  # DE 72, the merchant's message


@dataclass(frozen=True, slots=True)
class ChargebackMessage:
    """A chargeback of the issuer's outgoing file (1442; DE 24 `450`, `453` or `451`)."""

    message_number: int  # DE 71
    function: str  # DE 24
    pan: str  # DE 2
    amount: int  # DE 4, minor units of DE 49
    currency: str  # DE 49, ISO 4217 numeric
    reason_code: str  # DE 25
    arn: str  # DE 31


@dataclass(frozen=True, slots=True)
class PreArbitrationAnswer:
    """The acquirer's answer to a pre-arbitration (1644, DE 24 `640` accepted or `641`
    declined), naming the purchase by its ARN (DE 31)."""

    message_number: int  # DE 71
    pan: str  # DE 2
    amount: int  # DE 4, minor units of DE 49: the amount the 451 claimed
    currency: str  # DE 49, ISO 4217 numeric
    arn: str  # DE 31
    accepted: bool  # DE 24 640 (else 641)
    text: str | None = None  # DE 72, the acquirer's message


def messages(file: IO[bytes]) -> Iterator[dict[str, Any]]:
    """The file's messages one by one, as cardutil reads them (`Unreadable` for bad bytes)."""
    reader = mciipm.IpmReader(file, encoding=ENCODING, iso_config=BIT_CONFIG, blocked=True)
    number = 0
    while True:
        number += 1
        try:
            message = next(reader)
        except StopIteration:
            return
        except Exception as error:  # cardutil raises more than CardutilError on bad bytes
            raise Unreadable(f"message {number} cannot be read: {_reason(error)}") from None
        yield message


def _reason(error: Exception) -> str:
    return str(error.args[0]) if error.args else type(error).__name__


def is_header(message: dict[str, Any]) -> bool:
    return message.get("MTI") == HEADER_MTI and message.get("DE24") == HEADER_FUNCTION


def is_trailer(message: dict[str, Any]) -> bool:
    return message.get("MTI") == TRAILER_MTI and message.get("DE24") == TRAILER_FUNCTION


def is_presentment(message: dict[str, Any]) -> bool:
    """A first presentment of a purchase, an ATM withdrawal or a refund (any other is
    ignored)."""
    return (
        message.get("MTI") == PRESENTMENT_MTI
        and message.get("DE24") == FIRST_PRESENTMENT
        and str(message.get("DE3", ""))[:2] in (PURCHASE, ATM, REFUND)
    )


def is_second_presentment(message: dict[str, Any]) -> bool:
    return message.get("MTI") == PRESENTMENT_MTI and message.get("DE24") in SECOND_PRESENTMENTS


def is_pre_arbitration_answer(message: dict[str, Any]) -> bool:
    return message.get("MTI") == ANSWER_MTI and message.get("DE24") in ANSWERS


def is_chargeback(message: dict[str, Any]) -> bool:
    return message.get("MTI") == CHARGEBACK_MTI


def _text(message: dict[str, Any], element: str) -> str | None:
    value = message.get(element)
    return None if value is None else str(value).strip() or None


def _place(de43: str | None) -> tuple[str | None, str | None, str | None]:
    """DE 43: name\\street\\city\\postcode (10) state (3) country (3)."""
    if not de43:
        return None, None, None
    parts = de43.split("\\")
    name = parts[0].strip() or None
    city = parts[2].strip() or None if len(parts) > 2 else None
    country = parts[3][-3:].strip() or None if len(parts) > 3 else None
    return name, city, country


def presentment(message: dict[str, Any]) -> Presentment:
    """A presentment's fields (`Unreadable` when one the service needs is missing or bad)."""
    number = message.get("DE71")
    missing = [de for de in ("DE2", "DE3", "DE4", "DE49", "DE71") if message.get(de) in (None, "")]
    if missing:
        raise Unreadable(f"presentment {number} lacks {', '.join(missing)}")
    amount, currency = message["DE4"], str(message["DE49"])
    if not isinstance(amount, int) or amount <= 0 or not currency.isdigit():
        raise Unreadable(f"presentment {number}: DE 4 must be a positive amount, DE 49 numeric")
    name, city, country = _place(_text(message, "DE43"))
    return Presentment(
        message_number=int(message["DE71"]),
        pan=str(message["DE2"]),
        processing_code=str(message["DE3"]),
        amount=amount,
        currency=currency,
        approval_code=_text(message, "DE38"),
        arn=_text(message, "DE31"),
        merchant_id=_text(message, "DE42"),
        merchant_name=name,
        merchant_city=city,
        merchant_country=country,
        mcc=_text(message, "DE26"),
    )


def second_presentment(message: dict[str, Any]) -> SecondPresentment:
    """A second presentment's fields (`Unreadable` when one the service needs is missing)."""
    number = message.get("DE71")
    missing = [de for de in ("DE2", "DE4", "DE31", "DE49", "DE71") if message.get(de) in (None, "")]
    if missing:
        raise Unreadable(f"second presentment {number} lacks {', '.join(missing)}")
    amount, currency = message["DE4"], str(message["DE49"])
    if not isinstance(amount, int) or amount <= 0 or not currency.isdigit():
        raise Unreadable(f"presentment {number}: DE 4 must be a positive amount, DE 49 numeric")
    text = _text(message, "DE72")
    return SecondPresentment(
        message_number=int(message["DE71"]), pan=str(message["DE2"]), amount=amount,
        currency=currency, arn=str(message["DE31"]).strip(), partial=message["DE24"] == "282",
        text=None if text is None else text[:MESSAGE_TEXT_LENGTH],
    )  # fmt: skip


def pre_arbitration_answer(message: dict[str, Any]) -> PreArbitrationAnswer:
    """An answer's fields, read as a second presentment's (`Unreadable` likewise)."""
    second = second_presentment({**message, "DE24": "205"})
    return PreArbitrationAnswer(
        message_number=second.message_number, pan=second.pan, amount=second.amount,
        currency=second.currency, arn=second.arn, accepted=ANSWERS[str(message["DE24"])],
        text=second.text,
    )  # fmt: skip


def pre_arbitration_answer_message(item: PreArbitrationAnswer) -> dict[str, Any]:
    message: dict[str, Any] = {
        "MTI": ANSWER_MTI, "DE2": item.pan, "DE4": item.amount,
        "DE24": "640" if item.accepted else "641", "DE31": item.arn, "DE49": item.currency,
        "DE71": item.message_number,
    }  # fmt: skip
    if item.text:
        message["DE72"] = item.text
    return message


def chargeback(message: dict[str, Any]) -> ChargebackMessage:
    """A chargeback's fields, as an acquirer reads them."""
    return ChargebackMessage(
        message_number=int(message["DE71"]), function=str(message["DE24"]),
        pan=str(message["DE2"]), amount=int(message["DE4"]), currency=str(message["DE49"]),
        reason_code=str(message["DE25"]), arn=str(message["DE31"]).strip(),
    )  # fmt: skip


def chargeback_message(item: ChargebackMessage) -> dict[str, Any]:
    return {
        "MTI": CHARGEBACK_MTI, "DE2": item.pan, "DE3": "000000", "DE4": item.amount,
        "DE24": item.function, "DE25": item.reason_code, "DE31": item.arn,
        "DE49": item.currency, "DE71": item.message_number,
    }  # fmt: skip


def second_presentment_message(item: SecondPresentment) -> dict[str, Any]:
    message: dict[str, Any] = {
        "MTI": PRESENTMENT_MTI, "DE2": item.pan, "DE3": "000000", "DE4": item.amount,
        "DE24": "282" if item.partial else "205", "DE31": item.arn, "DE49": item.currency,
        "DE71": item.message_number,
    }  # fmt: skip
    if item.text:
        message["DE72"] = item.text
    return message


def _presentment_message(item: Presentment) -> dict[str, Any]:
    message: dict[str, Any] = {
        "MTI": PRESENTMENT_MTI, "DE2": item.pan, "DE3": item.processing_code,
        "DE4": item.amount, "DE24": FIRST_PRESENTMENT, "DE49": item.currency,
        "DE71": item.message_number,
    }  # fmt: skip
    optional = {
        "DE12": item.local_time.strftime("%y%m%d%H%M%S") if item.local_time else None,
        "DE26": item.mcc, "DE31": item.arn, "DE38": item.approval_code,
        "DE42": item.merchant_id,
    }  # fmt: skip
    message.update({key: value for key, value in optional.items() if value is not None})
    if item.merchant_name:
        country = (item.merchant_country or "")[:3]
        message["DE43"] = f"{item.merchant_name}\\\\{item.merchant_city or ''}\\{country:>16}"
    return message


def write(file: IO[bytes], file_id: str, presentments: Iterable[Presentment]) -> int:
    """Write an IPM file: header (PDS 0105 = `file_id`), the presentments in their order
    (their message numbers as given), trailer (PDS 0306 = the count, header and trailer
    included). Returns the number of messages written."""
    return write_messages(file, file_id, (_presentment_message(item) for item in presentments))


def write_messages(file: IO[bytes], file_id: str, messages: Iterable[dict[str, Any]]) -> int:
    """Write an IPM file of `messages` (each with its DE 71) between a header and a trailer
    (as `write`). Returns the number of messages written."""
    writer = mciipm.IpmWriter(file, encoding=ENCODING, iso_config=BIT_CONFIG, blocked=True)
    writer.write({"MTI": HEADER_MTI, "DE24": HEADER_FUNCTION, "DE71": 1, FILE_ID: file_id})
    count, last = 1, 1
    for message in messages:
        writer.write(message)
        count, last = count + 1, int(message["DE71"])
    count += 1
    writer.write(
        {
            "MTI": TRAILER_MTI,
            "DE24": TRAILER_FUNCTION,
            "DE71": last + 1,
            MESSAGE_COUNT: f"{count:08d}",
        }
    )
    writer.close()
    return count

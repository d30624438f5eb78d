"""The packager: the field layout of docs/network.md#the-network-interface-iso-8583, declared as
data (jPOS's packager).

Every field the service reads or writes is one `FieldSpec`; `PACKAGER` is the layout
handed to pyiso8583 (the default ASCII layout of ISO 8583:1987 for the fields a network
may add that the service ignores, ours over it). The codec pads fixed fields and checks
their characters against `kind`; pyiso8583 frames them.
"""

from __future__ import annotations

import calendar
import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from iso8583 import specs

Kind = Literal["n", "an", "ans"]
_HEX = frozenset("0123456789abcdefABCDEF")


# the days of each month in a leap year (the year is not sent: 29 February is a day of February)
_DAYS = tuple(calendar.monthrange(2000, month)[1] for month in range(1, 13))


def real_transmission_time(value: str) -> bool:
    """Field 7 is a real `MMDDhhmmss` (docs/network.md#fields-checked-first): month 01-12, a day of
    that month (the year is not sent: 29 February is a day of February), hour < 24, minutes and
    seconds < 60.
    """
    month, day = int(value[0:2]), int(value[2:4])
    if not 1 <= month <= 12 or not 1 <= day <= _DAYS[month - 1]:
        return False
    return int(value[4:6]) < 24 and int(value[6:8]) < 60 and int(value[8:10]) < 60


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One data element: its kind (`n` digits, `an` letters and digits, `ans` printable),
    its length (fixed: `length_digits` 0 and exactly `max_len`; LLVAR 2, LLLVAR 3, at least
    `min_len`), and what its value must be beyond its characters (`valid`)."""

    number: int
    name: str
    kind: Kind
    max_len: int
    length_digits: Literal[0, 2, 3] = 0
    min_len: int = 0
    valid: Callable[[str], bool] | None = None

    @property
    def fixed(self) -> bool:
        return self.length_digits == 0


FIELDS: dict[int, FieldSpec] = {
    spec.number: spec
    for spec in (
        FieldSpec(2, "primary account number", "n", 19, 2, min_len=12),
        FieldSpec(3, "processing code", "n", 6),
        FieldSpec(4, "amount, minor units of field 49's currency", "n", 12),
        FieldSpec(
            7, "transmission date and time MMDDhhmmss UTC", "n", 10, valid=real_transmission_time
        ),
        FieldSpec(11, "system trace audit number (STAN)", "n", 6),
        FieldSpec(14, "expiry YYMM", "n", 4),
        FieldSpec(18, "merchant category code", "n", 4),
        FieldSpec(22, "point of service entry mode", "n", 3),
        FieldSpec(32, "acquiring institution id", "n", 11, 2, min_len=1),
        FieldSpec(37, "retrieval reference number", "an", 12),
        FieldSpec(38, "authorization code", "an", 6),
        FieldSpec(39, "response code", "an", 2),
        FieldSpec(41, "card acceptor terminal id", "ans", 8),
        FieldSpec(42, "card acceptor id (merchant id)", "ans", 15),
        FieldSpec(43, "merchant name 1-25, city 26-38, country 39-40", "ans", 40),
        FieldSpec(48, "additional data: sub-elements TTLLvalue", "ans", 999, 3),
        FieldSpec(49, "currency, ISO 4217 numeric", "n", 3),
        # ISO 9564 format 0 under the zone PIN key, as its 16 hex digits (docs/cards.md)
        FieldSpec(52, "PIN data", "an", 16, valid=lambda value: all(c in _HEX for c in value)),
        FieldSpec(54, "additional amounts", "an", 120, 3),
        FieldSpec(70, "network management code", "n", 3),
        FieldSpec(90, "original data elements", "n", 42),
        FieldSpec(95, "replacement amounts", "an", 42),
    )
}

# Sub-elements of field 48.
CVV2, THREE_DS_CODE, MORE_TO_FOLLOW = "92", "41", "60"
# … and a wallet's (docs/network.md#wallet-tokens): token requestor id (11 digits), wallet code,
# device name (≤ 32), risk score (1 low … 5 high), token PAN (the DPAN, 13–19 digits), token expiry
# YYMM, token reference (≤ 32), activation code typed by the holder.
TOKEN_REQUESTOR, WALLET, DEVICE_NAME, RISK_SCORE = "70", "71", "72", "73"
TOKEN_PAN, TOKEN_EXPIRY, TOKEN_REFERENCE, ACTIVATION_CODE = "74", "75", "76", "77"

PURCHASE, REFUND, PROVISIONING = "000000", "200000", "900000"  # field 3
# … and cash: `01`, then the accounts from and to (any), e.g. `010000`
# (docs/cards.md#atm-withdrawals)
WITHDRAWAL = "010000"
ATM_MCC = "6011"


def is_withdrawal(processing_code: str) -> bool:
    """Field 3 of an ATM withdrawal: `01xxxx`."""
    return processing_code[:2] == WITHDRAWAL[:2]


# Field 22's first two digits (how the card's number was read) → the entry mode a transaction
# is presented with (docs/cards.md#pin-in-iso-8583); the third (the terminal's PIN entry
# capability) is not read. Any other value is a card not present.
ENTRY_MODES = {
    "01": "keyed", "02": "magstripe", "05": "chip", "07": "contactless",
    "81": "ecommerce", "90": "magstripe", "91": "contactless",
}  # fmt: skip
SIGN_ON, SIGN_OFF, ECHO = "001", "002", "301"  # field 70

# A request's MTI → its answer's; a repeat (…1) is answered as its first (…0).
RESPONSE_MTI = {
    "0100": "0110", "0101": "0110",
    "0120": "0130", "0121": "0130",
    "0220": "0230", "0221": "0230",
    "0400": "0410", "0401": "0410",
    "0420": "0430", "0421": "0430",
    "0620": "0630", "0621": "0630",
    "0800": "0810",
}  # fmt: skip

# What a response echoes of its request (docs/network.md#the-network-interface-iso-8583), then adds
# 39 (and 38, 54).
ECHOED = (2, 3, 4, 7, 11, 32, 37, 41, 42, 49, 70)

# ISO 4217 numeric → alphabetic, for the currencies a card may hold or a merchant charge in.
CURRENCIES = {
    "036": "AUD", "124": "CAD", "156": "CNY", "203": "CZK", "208": "DKK", "344": "HKD",
    "348": "HUF", "356": "INR", "376": "ILS", "392": "JPY", "410": "KRW", "484": "MXN",
    "554": "NZD", "578": "NOK", "682": "SAR", "702": "SGD", "710": "ZAR", "752": "SEK",
    "756": "CHF", "764": "THB", "784": "AED", "826": "GBP", "840": "USD", "946": "RON",
    "949": "TRY", "978": "EUR", "980": "UAH", "985": "PLN", "986": "BRL",
}  # fmt: skip
NUMERIC_CURRENCIES = {alpha: numeric for numeric, alpha in CURRENCIES.items()}


def _pyiso8583_field(spec: FieldSpec) -> dict[str, Any]:
    return {
        "data_enc": "ascii",
        "len_enc": "ascii",
        "len_type": spec.length_digits,
        "max_len": spec.max_len,
        "desc": spec.name,
    }


def _packager() -> dict[str, Any]:
    layout: dict[str, Any] = copy.deepcopy(specs.default_ascii)
    for number, spec in FIELDS.items():
        layout[str(number)] = _pyiso8583_field(spec)
    return layout


PACKAGER = _packager()

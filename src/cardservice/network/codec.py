"""ISO 8583 messages in and out: the fields of `fields.PACKAGER` framed as pyiso8583 frames
them; this module pads fixed fields, checks every field's characters, and reads the composite
fields (43, 48, 54, 90, 95).

A frame of ASCII fields (every field of the packager is one: ASCII data, ASCII length digits)
with one or two bitmaps is read and written here (`_read`, `_written`): what pyiso8583 reads
and writes of it, without its generic field-by-field machinery (an 0100's `decode` 46 → 15 µs,
its 0110's `encode` 44 → 8 µs: docs/performance.md, "The network process's Python a
request"). Any
other frame or message (a byte not ASCII, a length not digits, a field cut short, bytes after
the last field, a third bitmap, a value of the wrong length) goes to pyiso8583, which reads it
or tells why not, as before: what a frame is read as never depends on the path."""

from __future__ import annotations

import string
from collections.abc import Collection
from dataclasses import dataclass, field

import iso8583
from iso8583.decoder import DecodeError
from iso8583.encoder import EncodeError

from cardservice.network.fields import FIELDS, PACKAGER, RESPONSE_MTI, FieldSpec

REQUESTS = frozenset(RESPONSE_MTI)
RESPONSES = frozenset(RESPONSE_MTI.values())

_PRINTABLE = frozenset(string.printable) - frozenset("\t\n\r\x0b\x0c")
_ALNUM = frozenset(string.ascii_letters + string.digits + " ")


class Unreadable(Exception):
    """A frame that is no ISO 8583 message of a type the service answers: the connection
    that sent it is closed."""


@dataclass(slots=True)
class Message:
    """One message: its MTI and its fields by number (values as on the wire, padding kept);
    `malformed` lists the present fields whose characters or length break their spec."""

    mti: str
    fields: dict[int, str] = field(default_factory=dict)
    malformed: list[int] = field(default_factory=list)

    def get(self, number: int) -> str | None:
        return self.fields.get(number)


def _well_formed(spec: FieldSpec, value: str) -> bool:
    fixed = spec.length_digits == 0
    if (fixed and len(value) != spec.max_len) or len(value) < spec.min_len:
        return False
    if spec.kind == "n":
        digits = value.isascii() and value.isdigit() if value else not fixed
    else:  # a set's C loop over the characters, 4 × a generator's (decode 40 → 35 µs)
        digits = (_ALNUM if spec.kind == "an" else _PRINTABLE).issuperset(value)
    return digits and (spec.valid is None or spec.valid(value))


def decode(frame: bytes, known: Collection[str] = REQUESTS) -> Message:
    """A frame's message (`Unreadable` when pyiso8583 cannot read it or its MTI is not one
    of `known`: by default the requests the service answers)."""
    read = _read(frame)
    if read is None:
        read = _read_by_pyiso8583(frame)
    mti, values = read
    if mti not in known:
        raise Unreadable(f"unknown MTI {mti[:4]!r}")
    message = Message(mti)
    fields, malformed = message.fields, message.malformed
    for number, text in values:
        fields[number] = text
        spec = FIELDS.get(number)
        if spec is not None and not _well_formed(spec, text):
            malformed.append(number)
    return message


# pyiso8583's key of each field → its number (its other keys, "t", "p", "1": the MTI and the
# bitmaps, are no fields)
_NUMBER_OF = {str(number): number for number in range(2, 193)}


def _read_by_pyiso8583(frame: bytes) -> tuple[str, list[tuple[int, str]]]:
    """pyiso8583's reading of a frame: its MTI and its fields (2-192) in their order."""
    try:
        decoded, _encoded = iso8583.decode(frame, PACKAGER)
    except (DecodeError, ValueError, UnicodeDecodeError) as exc:
        raise Unreadable(f"unreadable frame: {type(exc).__name__}") from None
    values = [(_NUMBER_OF[key], str(value)) for key, value in decoded.items() if key in _NUMBER_OF]
    return str(decoded.get("t", "")), values


def _ascii_layout(number: int) -> tuple[int, int] | None:
    spec = PACKAGER.get(str(number))
    if spec is None or spec["data_enc"] != "ascii" or spec.get("len_count", "bytes") != "bytes":
        return None
    digits, longest = int(spec["len_type"]), int(spec["max_len"])
    if digits and (spec["len_enc"] != "ascii" or longest >= 10**digits):
        return None
    return digits, longest


# each field number of the packager → (its length digits, its length or longest length) when
# it is ASCII data with ASCII length digits (all of ours and of pyiso8583's default layout);
# None: pyiso8583 frames it
_LAYOUT = tuple(_ascii_layout(number) for number in range(129))
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# the MTI and the bitmaps as ASCII text (4 and 16 characters), no header: `_read`, `_written`
_BITMAPS = all(PACKAGER[key]["data_enc"] == "ascii" for key in "tp1") and (
    PACKAGER["h"]["max_len"] <= 0
)


def _bitmap(text: str, at: int, offset: int, numbers: list[int]) -> bool:
    """The fields a bitmap of 16 hex digits at `at` sets, added to `numbers` in order (its
    highest bit is field `offset` + 1)."""
    hex_digits = text[at : at + 16]
    if len(hex_digits) != 16 or not _HEX_DIGITS.issuperset(hex_digits):
        return False
    bits = int(hex_digits, 16)
    while bits:
        highest = bits.bit_length()
        numbers.append(offset + 65 - highest)
        bits ^= 1 << (highest - 1)
    return True


def _read(frame: bytes) -> tuple[str, list[tuple[int, str]]] | None:
    """A frame of ASCII fields as pyiso8583 reads it with `PACKAGER`: its MTI and its fields
    in their order; None for any other frame (`decode` hands it to pyiso8583)."""
    if not _BITMAPS or not frame.isascii():
        return None
    text = frame.decode("ascii")
    numbers: list[int] = []
    if not _bitmap(text, 4, 0, numbers):  # after the MTI's 4 characters
        return None
    at = 20
    if numbers and numbers[0] == 1:  # a secondary bitmap, for fields 65-128
        if not _bitmap(text, at, 64, numbers):
            return None
        del numbers[0]
        at = 36
    values = []
    for number in numbers:
        layout = _LAYOUT[number] if number != 65 else None  # 65: a third bitmap
        if layout is None:
            return None
        digits, size = layout
        if digits:
            head = text[at : at + digits]
            if len(head) != digits or not head.isdigit() or int(head) > size:
                return None
            size, at = int(head), at + digits
        value = text[at : at + size]
        if len(value) != size:
            return None
        values.append((number, value))
        at += size
    return (text[:4], values) if at == len(text) else None


# each fixed field's padding: (digits, length) — digits right-aligned with zeros, text
# left-aligned with spaces and cut to its length
_FIXED = {n: (spec.kind == "n", spec.max_len) for n, spec in FIELDS.items() if spec.fixed}


def encode(mti: str, fields: dict[int, str]) -> bytes:
    """A message's bytes (without the length prefix); fixed fields padded to their length."""
    padded: dict[int, str] = {}
    for number in sorted(fields):
        value, fixed = fields[number], _FIXED.get(number)
        if fixed is not None:
            digits, size = fixed
            value = value.rjust(size, "0") if digits else value.ljust(size)[:size]
        padded[number] = value
    written = _written(mti, padded)
    if written is not None:
        return written
    document = {"t": mti} | {str(number): value for number, value in padded.items()}
    try:
        raw, _encoded = iso8583.encode(document, PACKAGER)
    except EncodeError as exc:
        raise ValueError(f"cannot encode {mti}: {exc}") from None
    return bytes(raw)


def _written(mti: str, fields: dict[int, str]) -> bytes | None:
    """The bytes pyiso8583 writes for a message of ASCII fields (2-128, in order), each of its
    length or within its longest; None for any other (`encode` hands it to pyiso8583)."""
    if not _BITMAPS or not isinstance(mti, str) or len(mti) != 4 or not mti.isascii():
        return None
    bitmap, parts = 0, []
    for number, value in fields.items():
        layout = _LAYOUT[number] if 2 <= number <= 128 and number != 65 else None
        if layout is None or not isinstance(value, str) or not value.isascii():
            return None
        digits, size = layout
        if digits:
            if len(value) > size:
                return None
            parts.append(f"{len(value):0{digits}d}")
        elif len(value) != size:
            return None
        parts.append(value)
        bitmap |= 1 << (128 - number)
    # fields 65-128: a secondary bitmap, which bit 1 announces
    secondary = bitmap & (2**64 - 1)
    head = f"{mti}{bitmap | 1 << 127:032X}" if secondary else f"{mti}{bitmap >> 64:016X}"
    return (head + "".join(parts)).encode("ascii")


def sub_elements(value: str) -> dict[str, str] | None:
    """Field 48's `TTLLvalue` sub-elements; None when they do not parse."""
    found: dict[str, str] = {}
    at = 0
    while at < len(value):
        head = value[at : at + 4]
        if len(head) < 4 or not head.isdigit():
            return None
        size = int(head[2:])
        found[head[:2]] = value[at + 4 : at + 4 + size]
        if len(found[head[:2]]) != size:
            return None
        at += 4 + size
    return found


def with_sub_elements(elements: dict[str, str]) -> str:
    return "".join(f"{tag}{len(value):02d}{value}" for tag, value in elements.items())


@dataclass(frozen=True, slots=True)
class MerchantPlace:
    name: str
    city: str | None
    country: str | None


def merchant_place(fields: dict[int, str]) -> MerchantPlace | None:
    """Field 43: name (1-25), city (26-38), country alpha-2 (39-40); None without it."""
    if (value := fields.get(43)) is None:
        return None
    city, country = value[25:38].strip(), value[38:40].strip()
    return MerchantPlace(value[:25].strip(), city or None, country or None)


def merchant_field(name: str, city: str = "", country: str = "") -> str:
    return f"{name[:25]:<25}{city[:13]:<13}{country[:2]:<2}"


@dataclass(frozen=True, slots=True)
class OriginalKey:
    """Field 90: the original message's MTI, STAN, transmission time and acquirer id."""

    mti: str
    stan: str
    transmitted: str
    acquirer_id: str


def original_key(value: str) -> OriginalKey:
    return OriginalKey(value[:4], value[4:10], value[10:20], value[20:31])


def original_field(mti: str, stan: str, transmitted: str, acquirer_id: str) -> str:
    return f"{mti}{stan}{transmitted}{acquirer_id.rjust(11, '0')}{'0' * 11}"


def replacement_amount(value: str) -> int | None:
    """Field 95: the amount that stays authorized (its first 12 digits)."""
    head = value[:12]
    return int(head) if len(head) == 12 and head.isdigit() else None


def replacement_field(amount: int) -> str:
    return f"{amount:012d}{'0' * 30}"


def available_balance(currency_numeric: str, balance: int) -> str:
    """Field 54: account type 00, amount type 02 (available), currency, sign, 12 digits."""
    sign = "C" if balance >= 0 else "D"
    return f"0002{currency_numeric}{sign}{abs(balance):012d}"

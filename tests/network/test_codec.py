"""The codec reads and writes a frame of ASCII fields itself (`codec._read`, `codec._written`):
exactly what pyiso8583 reads and writes with the packager, and any other frame or message is
pyiso8583's (docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

from typing import Any

import iso8583
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardservice.acquirer import messages
from cardservice.network import codec
from cardservice.network.codec import Unreadable, decode, encode
from cardservice.network.fields import FIELDS, PACKAGER

_TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
_ODD = st.text(st.characters(min_codepoint=0, max_codepoint=300), max_size=30)
_NUMBERS = st.sampled_from([*FIELDS, 1, 5, 63, 64, 65, 66, 100, 127, 128, 129, 150, 192])


def _pyiso8583_bytes(mti: str, fields: dict[int, str]) -> bytes | None:
    """What pyiso8583 writes for a message (None: it refuses it)."""
    document = {"t": mti} | {str(number): value for number, value in sorted(fields.items())}
    try:
        raw, _encoded = iso8583.encode(document, PACKAGER)
    except Exception:  # any refusal: the codec must refuse it too
        return None
    return bytes(raw)


def _pyiso8583_read(frame: bytes) -> Any:
    """What pyiso8583 reads of a frame, as `codec._read` returns it (None: it refuses it)."""
    try:
        return codec._read_by_pyiso8583(frame)
    except Exception:  # any refusal: the codec's own reading must give up too
        return None


@st.composite
def _messages(draw: st.DrawFn) -> tuple[str, dict[int, str]]:
    mti = draw(st.sampled_from(["0100", "0110", "0400", "0800", "01", "01000", "0\u00e900"]))
    numbers = draw(st.lists(_NUMBERS, max_size=12, unique=True))
    fields = {}
    for number in numbers:
        spec = PACKAGER.get(str(number))
        size = int(spec["max_len"]) if spec is not None and not spec["len_type"] else None
        exact = st.text(st.characters(min_codepoint=32, max_codepoint=126), min_size=size or 0,
                        max_size=size or 30) if size else _TEXT  # fmt: skip
        fields[number] = draw(st.one_of(exact, exact, _TEXT, _ODD))
    return mti, fields


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_messages())
def test_what_the_codec_writes_itself_is_what_pyiso8583_writes(
    message: tuple[str, dict[int, str]],
) -> None:
    mti, fields = message
    written = codec._written(mti, dict(sorted(fields.items())))
    if written is not None:
        assert written == _pyiso8583_bytes(mti, fields)


@st.composite
def _frames(draw: st.DrawFn) -> bytes:
    mti, fields = draw(_messages())
    frame = _pyiso8583_bytes(mti, fields)
    if frame is None:
        frame = draw(st.binary(max_size=120))
    cut = draw(st.sampled_from(["as is", "as is", "cut", "more", "changed", "bitmap"]))
    at = draw(st.integers(0, max(0, len(frame) - 1)))
    if cut == "cut":
        return frame[:at]
    if cut == "more":
        return frame[:at] + draw(st.binary(min_size=1, max_size=3)) + frame[at:]
    if cut == "changed" and frame:
        return frame[:at] + draw(st.binary(min_size=1, max_size=1)) + frame[at + 1 :]
    if cut == "bitmap" and len(frame) >= 20:  # lower case, spaces, a third bitmap
        bitmap = draw(st.sampled_from([frame[4:20].lower(), b"F" + frame[5:20], b" " * 16]))
        return frame[:4] + bitmap + frame[20:]
    return frame


@settings(max_examples=1500, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(_frames())
def test_what_the_codec_reads_itself_is_what_pyiso8583_reads(frame: bytes) -> None:
    read = codec._read(frame)
    if read is not None:
        assert read == _pyiso8583_read(frame)


def test_the_messages_of_the_network_are_the_codecs_own() -> None:
    """An authorization, its answer and a reversal (two bitmaps) never reach pyiso8583."""
    authorization = messages.authorization("4000123412341234", "2912", 100, "000001", "1128120000")
    reversal = messages.reversal_request(authorization, "000002", "1128120001")
    for mti, fields in (("0100", authorization), ("0400", reversal)):
        frame = encode(mti, fields)
        assert codec._read(frame) is not None
        assert frame == _pyiso8583_bytes(mti, {**decode(frame).fields})
        assert decode(frame).fields == {
            number: value for number, value in codec._read_by_pyiso8583(frame)[1]
        }


@pytest.mark.parametrize(
    "frame",
    [b"", b"0100", b"0100" + b"0" * 15, b"0100" + b"8" + b"0" * 15, b"0100\xff" + b"0" * 15,
     b"0100" + b"4" + b"0" * 15 + b"2", b"0100" + b"0" * 16 + b"extra"],
)  # fmt: skip
def test_a_frame_pyiso8583_cannot_read_is_unreadable(frame: bytes) -> None:
    with pytest.raises(Unreadable):
        decode(frame)

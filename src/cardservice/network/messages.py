"""Requests as an acquirer builds them (API.md §14), for the simulator, tests and benches."""

from __future__ import annotations

from cardservice.network.codec import (
    merchant_field,
    original_field,
    replacement_field,
    with_sub_elements,
)
from cardservice.network.fields import (
    CVV2,
    MORE_TO_FOLLOW,
    NUMERIC_CURRENCIES,
    PURCHASE,
    REFUND,
    THREE_DS_CODE,
)

ACQUIRER = "123456"


def _base(stan: str, transmitted: str, acquirer: str) -> dict[int, str]:
    return {7: transmitted, 11: stan, 32: acquirer, 37: f"{transmitted[4:]}{stan}", 41: "TERM0001",
            42: "MERCHANT0000001"}  # fmt: skip


def authorization(
    pan: str,
    expiry_yymm: str,
    amount: int,
    stan: str,
    transmitted: str,
    *,
    currency: str = "USD",
    merchant: str = "Netflix",
    city: str = "Los Gatos",
    country: str = "US",
    mcc: str = "5815",
    cvv2: str | None = None,
    three_ds_code: str | None = None,
    acquirer: str = ACQUIRER,
) -> dict[int, str]:
    """An 0100's (or 0120's) fields."""
    elements = {CVV2: cvv2, THREE_DS_CODE: three_ds_code}
    fields = _base(stan, transmitted, acquirer) | {
        2: pan, 3: PURCHASE, 4: str(amount), 14: expiry_yymm, 18: mcc,
        43: merchant_field(merchant, city, country), 49: NUMERIC_CURRENCIES[currency],
    }  # fmt: skip
    present = {tag: value for tag, value in elements.items() if value is not None}
    if present:
        fields[48] = with_sub_elements(present)
    return fields


def reversal(
    original: dict[int, str],
    stan: str,
    transmitted: str,
    *,
    stays: int | None = None,
    original_mti: str = "0100",
) -> dict[int, str]:
    """An 0400's (or 0420's) fields: 90 names `original`; 95 when `stays` is given."""
    fields = _base(stan, transmitted, original[32]) | {
        2: original[2], 3: PURCHASE, 4: original[4], 49: original[49],
        90: original_field(original_mti, original[11], original[7], original[32]),
    }  # fmt: skip
    if stays is not None:
        fields[95] = replacement_field(stays)
    return fields


def capture(
    original: dict[int, str],
    amount: int,
    stan: str,
    transmitted: str,
    *,
    more: bool = False,
    original_mti: str = "0100",
) -> dict[int, str]:
    """An 0220 capture of `original` (48.60 = 1 when more captures follow; `original_mti`
    0120 for a stand-in's)."""
    fields = _base(stan, transmitted, original[32]) | {
        2: original[2], 3: PURCHASE, 4: str(amount), 49: original[49],
        90: original_field(original_mti, original[11], original[7], original[32]),
    }  # fmt: skip
    if more:
        fields[48] = with_sub_elements({MORE_TO_FOLLOW: "1"})
    return fields


def refund(
    pan: str,
    amount: int,
    stan: str,
    transmitted: str,
    *,
    original: dict[int, str] | None = None,
    currency: str = "USD",
    acquirer: str = ACQUIRER,
    original_mti: str = "0100",
) -> dict[int, str]:
    """An 0220 refund: of `original` (90; `original_mti` 0120 for a stand-in's), or a credit
    to the card `pan`."""
    fields = _base(stan, transmitted, acquirer) | {
        2: pan, 3: REFUND, 4: str(amount), 49: NUMERIC_CURRENCIES[currency],
        43: merchant_field("Netflix", "Los Gatos", "US"),
    }  # fmt: skip
    if original is not None:
        fields[90] = original_field(original_mti, original[11], original[7], original[32])
    return fields


def stand_in(
    pan: str,
    expiry_yymm: str,
    amount: int,
    stan: str,
    transmitted: str,
    *,
    currency: str = "USD",
    auth_code: str | None = None,
) -> dict[int, str]:
    """An 0120 stand-in advice's fields: an authorization the network approved on the
    issuer's behalf, with the network's authorization code (38; default from the STAN)."""
    fields = authorization(pan, expiry_yymm, amount, stan, transmitted, currency=currency)
    fields[38] = auth_code or f"SI{stan[-4:]}"
    return fields


def echo(
    stan: str, transmitted: str, code: str = "301", acquirer: str = ACQUIRER
) -> dict[int, str]:
    return {7: transmitted, 11: stan, 32: acquirer, 70: code}

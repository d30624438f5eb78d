"""Requests as an acquirer builds them (docs/network.md#the-network-interface-iso-8583), for the
simulator, tests and benches."""

from __future__ import annotations

import warnings

from cryptography.utils import CryptographyDeprecationWarning
from psec.des import encrypt_tdes_ecb
from psec.pinblock import encode_pinblock_iso_0

from cardservice.network.codec import (
    merchant_field,
    original_field,
    replacement_field,
    with_sub_elements,
)
from cardservice.network.fields import (
    ACTIVATION_CODE,
    CVV2,
    DEVICE_NAME,
    MORE_TO_FOLLOW,
    NUMERIC_CURRENCIES,
    PROVISIONING,
    PURCHASE,
    REFUND,
    RISK_SCORE,
    THREE_DS_CODE,
    TOKEN_EXPIRY,
    TOKEN_PAN,
    TOKEN_REFERENCE,
    TOKEN_REQUESTOR,
    WALLET,
)

ACQUIRER = "123456"
TOKEN_SERVICE = "999000"  # noqa: S105 - the network's token service, as the acquirer id of its messages
TOKEN_BIN = "489537"  # noqa: S105 - the range the simulated token service draws device PANs from
REQUESTORS = {"AP": "40010030273", "GP": "40010075001", "SP": "40010043095", "CF": "40010099999"}


# Field 22 as a terminal sends it (docs/cards.md#pin-in-iso-8583): how it read the card, then
# its PIN entry capability (1 can, 2 cannot)
ENTRY_MODE_CODES = {
    "chip": "051", "contactless": "071", "magstripe": "021", "keyed": "010", "ecommerce": "012",
}  # fmt: skip


def pin_block(pin: str, pan: str, zpk_hex: str) -> str:
    """Field 52 as the acquirer's PIN pad sends it: the ISO 9564 format-0 block of `pin` on
    the number read (`pan`), triple-DES encrypted under the zone PIN key, as 16 hex digits
    (`psec`'s own implementation, not the issuer's)."""
    with warnings.catch_warnings():  # psec reaches TripleDES by its deprecated name
        warnings.simplefilter("ignore", CryptographyDeprecationWarning)
        encrypted = encrypt_tdes_ecb(bytes.fromhex(zpk_hex), encode_pinblock_iso_0(pin, pan))
    return encrypted.hex().upper()


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
    entry_mode: str | None = None,
    pin_block: str | None = None,
    processing: str = PURCHASE,
) -> dict[int, str]:
    """An 0100's (or 0120's) fields; `entry_mode` one of `ENTRY_MODE_CODES` (field 22),
    `pin_block` field 52 (`pin_block(…)`), `processing` field 3 (`WITHDRAWAL` at an ATM)."""
    elements = {CVV2: cvv2, THREE_DS_CODE: three_ds_code}
    fields = _base(stan, transmitted, acquirer) | {
        2: pan, 3: processing, 4: str(amount), 14: expiry_yymm, 18: mcc,
        43: merchant_field(merchant, city, country), 49: NUMERIC_CURRENCIES[currency],
    }  # fmt: skip
    if entry_mode is not None:
        fields[22] = ENTRY_MODE_CODES[entry_mode]
    if pin_block is not None:
        fields[52] = pin_block
    present = {tag: value for tag, value in elements.items() if value is not None}
    if present:
        fields[48] = with_sub_elements(present)
    return fields


def reversal_request(
    original: dict[int, str],
    stan: str,
    transmitted: str,
    *,
    stays: int | None = None,
    original_mti: str = "0100",
) -> dict[int, str]:
    """An 0400's (or 0420's) fields: 90 names `original`; 95 when `stays` is given; 3 the
    original's processing code (an ATM withdrawal's reversal is `01xxxx` too)."""
    fields = _base(stan, transmitted, original[32]) | {
        2: original[2], 3: original[3], 4: original[4], 49: original[49],
        90: original_field(original_mti, original[11], original[7], original[32]),
    }  # fmt: skip
    if stays is not None:
        fields[95] = replacement_field(stays)
    return fields


def capture_advice(
    original: dict[int, str],
    amount: int,
    stan: str,
    transmitted: str,
    *,
    more: bool = False,
    original_mti: str = "0100",
) -> dict[int, str]:
    """An 0220 capture of `original` (48.60 = 1 when more captures follow; `original_mti`
    0120 for a stand-in's); 3 the original's processing code (`01xxxx` for a withdrawal's)."""
    fields = _base(stan, transmitted, original[32]) | {
        2: original[2], 3: original[3], 4: str(amount), 49: original[49],
        90: original_field(original_mti, original[11], original[7], original[32]),
    }  # fmt: skip
    if more:
        fields[48] = with_sub_elements({MORE_TO_FOLLOW: "1"})
    return fields


def refund_advice(
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


def provisioning(
    pan: str,
    expiry_yymm: str,
    stan: str,
    transmitted: str,
    *,
    reference: str,
    wallet: str = "AP",
    device_name: str = "iPhone 15",
    risk: int = 1,
    cvv2: str | None = None,
    acquirer: str = TOKEN_SERVICE,
) -> dict[int, str]:
    """A wallet's provisioning request (docs/network.md#wallet-tokens): an 0100 with processing code
    900000, amount 0, the card's 2 and 14, and 48.70-.73, .76 (.92 when the wallet sent the
    CVV2)."""
    elements = {
        TOKEN_REQUESTOR: REQUESTORS.get(wallet, REQUESTORS["CF"]), WALLET: wallet,
        DEVICE_NAME: device_name, RISK_SCORE: str(risk), TOKEN_REFERENCE: reference,
    }  # fmt: skip
    if cvv2 is not None:
        elements[CVV2] = cvv2
    return {
        7: transmitted, 11: stan, 32: acquirer, 2: pan, 3: PROVISIONING, 4: "0", 14: expiry_yymm,
        49: NUMERIC_CURRENCIES["USD"], 48: with_sub_elements(elements),
    }  # fmt: skip


def token_created(
    pan: str,
    dpan: str,
    token_expiry_yymm: str,
    stan: str,
    transmitted: str,
    *,
    reference: str,
    wallet: str = "AP",
    device_name: str = "iPhone 15",
    acquirer: str = TOKEN_SERVICE,
) -> dict[int, str]:
    """The 0620 telling the issuer the token it created: 2 the card, 48.74 the DPAN, .75 its
    expiry, .76 the reference, .71 the wallet, .72 the device."""
    elements = {
        TOKEN_PAN: dpan, TOKEN_EXPIRY: token_expiry_yymm, TOKEN_REFERENCE: reference,
        WALLET: wallet, DEVICE_NAME: device_name,
    }  # fmt: skip
    return {7: transmitted, 11: stan, 32: acquirer, 2: pan, 48: with_sub_elements(elements)}


def token_activation(
    reference: str, code: str, stan: str, transmitted: str, *, acquirer: str = TOKEN_SERVICE
) -> dict[int, str]:
    """The 0620 carrying the activation code the holder typed (48.77) for a token (48.76)."""
    elements = {TOKEN_REFERENCE: reference, ACTIVATION_CODE: code}
    return {7: transmitted, 11: stan, 32: acquirer, 48: with_sub_elements(elements)}

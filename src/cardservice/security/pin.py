"""PIN cryptography (docs/cards.md#the-pin): the Visa PIN verification value, ISO 9564
format-0 PIN blocks, and the holder's PIN envelope (RSA-OAEP with SHA-256).

* **Visa PVV** (PVKI 1): the transformed security parameter — the 11 rightmost digits of the
  card number less its check digit, the PVKI, the PIN's first 4 digits — is one 8-byte block
  triple-DES-encrypted under the PVK (a double-length key, A‖B‖A); its first 4 decimal
  digits, then its letters less 10, are the PVV. Visa's method reads 4 digits of the PIN: a
  5- or 6-digit PIN is verified on its first 4 (docs/cards.md#the-pin).
* **Format 0**: `0 ‖ length ‖ PIN ‖ F…` XOR `0000 ‖ the 12 rightmost digits of the card number
  less its check digit`; a block that does not decode (control nibble, length 4–12, digits,
  `F` padding) is refused.
* **OAEP decoding** (RFC 8017 §7.1.2, SHA-256, MGF1-SHA-256, empty label) of the integer
  the token's raw RSA (`CKM_RSA_X_509`) gives back: SoftHSM2 2.6 offers `CKM_RSA_PKCS_OAEP`
  with SHA-1 only, so the private operation runs in the token and the padding is removed
  here, with one error for every malformed input.

The block encryption is passed in, as for the CVV (`cardservice.security.cvv`): the same steps
run on `cryptography`'s TripleDES (the `local` backend) or in a PKCS#11 token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable

from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
from cryptography.hazmat.primitives.ciphers import Cipher, modes

BlockCipher = Callable[[bytes], bytes]
PVKI = "1"
PVV_DIGITS = 4
MIN_NONCE = 16
MAX_ENVELOPE_PIN = 12


class InvalidPinBlock(ValueError):
    """A PIN envelope or PIN block that does not decrypt or decode; it says nothing more."""

    def __init__(self) -> None:
        super().__init__("the PIN block does not decrypt")


def _pan_digits(pan: str) -> str:
    if not (pan.isdigit() and 13 <= len(pan) <= 19):
        raise ValueError("the card number must be 13 to 19 digits")
    return pan[-13:-1]  # the 12 rightmost digits less the check digit


def pvv(encrypt: BlockCipher, pan: str, pin: str, pvki: str = PVKI) -> str:
    """The Visa PVV of `pin` on the card, given E_PVK on one 8-byte block."""
    if not (pin.isdigit() and 4 <= len(pin) <= MAX_ENVELOPE_PIN):
        raise ValueError("a PIN is 4 to 12 digits")
    tsp = _pan_digits(pan)[1:] + pvki + pin[:4]
    block = encrypt(bytes.fromhex(tsp)).hex().upper()
    digits = [c for c in block if c.isdigit()]
    letters = [str(int(c, 16) - 10) for c in block if not c.isdigit()]
    return "".join(digits + letters)[:PVV_DIGITS]


def ecb(key: bytes, *, decrypt: bool = False) -> BlockCipher:
    """One-block triple DES ECB under a double- or triple-length key (`cryptography`)."""
    if len(key) == 16:
        key = key + key[:8]  # A‖B‖A: the form `cryptography` keeps supporting
    if len(key) != 24:
        raise ValueError("a DES key is 16 or 24 bytes")

    def run(block: bytes) -> bytes:
        cipher = Cipher(TripleDES(key), modes.ECB())  # noqa: S305 - one block
        context = cipher.decryptor() if decrypt else cipher.encryptor()
        return context.update(block) + context.finalize()

    return run


def pin_of_block(clear: bytes, pan: str) -> str:
    """The PIN in a clear ISO 9564 format-0 block of the card; `InvalidPinBlock` otherwise."""
    if len(clear) != 8:
        raise InvalidPinBlock()
    field = bytes(
        a ^ b for a, b in zip(clear, bytes.fromhex("0000" + _pan_digits(pan)), strict=True)
    )
    text = field.hex().upper()
    length = int(text[1], 16)
    if text[0] != "0" or not 4 <= length <= MAX_ENVELOPE_PIN:
        raise InvalidPinBlock()
    pin, padding = text[2 : 2 + length], text[2 + length :]
    if not pin.isdigit() or padding != "F" * len(padding):
        raise InvalidPinBlock()
    return pin


def _mgf1(seed: bytes, length: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < length:
        out += hashlib.sha256(seed + counter.to_bytes(4, "big")).digest()
        counter += 1
    return out[:length]


def oaep_decode(encoded: bytes, size: int) -> bytes:
    """The message of an RSA-OAEP (SHA-256) encoded block of `size` bytes (the raw RSA
    result); `InvalidPinBlock` for any malformed block, the same whatever is wrong."""
    h = hashlib.sha256().digest_size
    encoded = encoded.rjust(size, b"\0")
    if len(encoded) != size or size < 2 * h + 2:
        raise InvalidPinBlock()
    masked_seed, masked_db = encoded[1 : 1 + h], encoded[1 + h :]
    seed = bytes(a ^ b for a, b in zip(masked_seed, _mgf1(masked_db, h), strict=True))
    db = bytes(a ^ b for a, b in zip(masked_db, _mgf1(seed, len(masked_db)), strict=True))
    label_ok = hmac.compare_digest(db[:h], hashlib.sha256(b"").digest())
    rest = db[h:].lstrip(b"\0")
    if not (label_ok and encoded[0] == 0 and rest[:1] == b"\x01"):
        raise InvalidPinBlock()
    return rest[1:]


def envelope_contents(plain: bytes) -> tuple[str, str]:
    """`(pin, nonce)` of a decrypted envelope, JSON `{"pin", "nonce"}`; `InvalidPinBlock`
    for anything else (the PIN's strength is the caller's rule)."""
    try:
        body = json.loads(plain)
    except ValueError:
        raise InvalidPinBlock() from None
    if not isinstance(body, dict) or set(body) != {"pin", "nonce"}:
        raise InvalidPinBlock()
    pin, nonce = body["pin"], body["nonce"]
    if not (isinstance(pin, str) and isinstance(nonce, str)):
        raise InvalidPinBlock()
    if not MIN_NONCE <= len(nonce) <= 128:
        raise InvalidPinBlock()
    return pin, nonce


def key_id_of(public_der: bytes) -> str:
    """A PIN key's id: the first 16 hex digits of the SHA-256 of its SubjectPublicKeyInfo."""
    return "rsa-" + hashlib.sha256(public_der).hexdigest()[:16]

"""The Visa/Mastercard card verification value (CVV, CVC; CVV2 with service code `000`).

Computed from the card verification key (CVK: a double-length DES key, halves A and B),
the card number, the expiry as `YYMM` and a service code, never stored:

1. PAN ‖ expiry ‖ service code, right-padded with `0` to 32 hex digits: blocks B1, B2;
2. E_A(B1) (single DES under A), XOR B2;
3. E_A(D_B(E_A(…))) (triple DES, EDE2, under A‖B);
4. decimalise the 16 hex digits: every digit 0–9 left to right, then every A–F less 10;
   the first three digits are the CVV.

The two block encryptions are passed in (`single` under A, `triple` under A‖B), so the
same steps run on `cryptography`'s TripleDES (the `local` backend) or inside a PKCS#11
token (the `pkcs11` backend), and the published test vectors check both.
"""

from __future__ import annotations

from collections.abc import Callable

from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
from cryptography.hazmat.primitives.ciphers import Cipher, modes

BlockCipher = Callable[[bytes], bytes]
CVV2_SERVICE_CODE = "000"  # card-not-present: the printed CVV2
CVV_DIGITS = 3


def cvv_input(pan: str, expiry_yymm: str, service_code: str) -> tuple[bytes, bytes]:
    """The two 8-byte blocks of step 1; ValueError on a malformed field."""
    if not (pan.isdigit() and 12 <= len(pan) <= 19):
        raise ValueError("the card number must be 12 to 19 digits")
    if not (expiry_yymm.isdigit() and len(expiry_yymm) == 4):
        raise ValueError("the expiry must be 4 digits, YYMM")
    if not (service_code.isdigit() and len(service_code) == 3):
        raise ValueError("the service code must be 3 digits")
    data = bytes.fromhex((pan + expiry_yymm + service_code).ljust(32, "0")[:32])
    return data[:8], data[8:]


def decimalise(block: bytes, digits: int = CVV_DIGITS) -> str:
    """Step 4: the decimal digits of the hex block first, then its letters less 10."""
    hex_digits = block.hex().upper()
    numbers = [c for c in hex_digits if c.isdigit()]
    letters = [str(int(c, 16) - 10) for c in hex_digits if not c.isdigit()]
    return "".join(numbers + letters)[:digits]


def compute_cvv(
    single: BlockCipher,
    triple: BlockCipher,
    pan: str,
    expiry_yymm: str,
    service_code: str = CVV2_SERVICE_CODE,
) -> str:
    """The CVV of the card, given E_A (`single`) and E_A‖B (`triple`) on one 8-byte block."""
    first, second = cvv_input(pan, expiry_yymm, service_code)
    chained = bytes(a ^ b for a, b in zip(single(first), second, strict=True))
    return decimalise(triple(chained))


def _ecb(key: bytes) -> BlockCipher:
    def encrypt(block: bytes) -> bytes:
        encryptor = Cipher(TripleDES(key), modes.ECB()).encryptor()  # noqa: S305 - one block
        return encryptor.update(block) + encryptor.finalize()

    return encrypt


def cvv_with_key(
    cvk: bytes, pan: str, expiry_yymm: str, service_code: str = CVV2_SERVICE_CODE
) -> str:
    """The CVV under a CVK held in memory (16 bytes: A ‖ B), by `cryptography`'s TripleDES."""
    if len(cvk) != 16:
        raise ValueError("the CVK must be a double-length DES key (16 bytes, 32 hex digits)")
    key_a, key_b = cvk[:8], cvk[8:]
    # triple DES with K1 = K2 = K3 is single DES; K1 = K3 is EDE2 (24-byte keys: the form
    # `cryptography` keeps supporting)
    single, triple = _ecb(key_a * 3), _ecb(key_a + key_b + key_a)
    return compute_cvv(single, triple, pan, expiry_yymm, service_code)


def key_check_value(cvk: bytes) -> str:
    """The CVK's check value (KCV): its triple DES of a zero block, first 3 bytes in hex — to
    compare keys without showing them."""
    return _ecb(cvk[:8] + cvk[8:] + cvk[:8])(bytes(8))[:3].hex().upper()

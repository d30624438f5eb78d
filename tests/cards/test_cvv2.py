"""CVV2 by the Visa/Mastercard CVV algorithm (issue 29,
docs/security.md#card-details-cvv2-and-issuer-keys): the published test vectors, the embedded key
file's CVK, and the refusals."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from cardservice.config import Settings
from cardservice.security import CardCipher, MissingEncryptionKey, embedded_cvk
from cardservice.security.cvv import cvv_with_key, decimalise
from tests.conftest import TEST_KEY

# (CVK, PAN, expiry YYMM, service code, CVV): each from a published source.
VECTORS = [
    # psec (knovichikhin/psec, tests/test_cvv.py: test_generate_cvv)
    ("99999999999999998888888888888888", "2222222222222222", "3333", "111", "361"),
    # a worked example with every intermediate step (Credorax course, CVCTest.java:
    # E_A(B1) = 4DC867AA9BCE665B, after 3DES 24E1A05574051BBF, candidates 2410557405140115)
    ("D676DCF3AFB7350532EAF00EA253D875", "4123450990122129", "0721", "202", "241"),
    # the widely quoted example: CVK A 0123456789ABCDEF, CVK B FEDCBA9876543210
    ("0123456789ABCDEFFEDCBA9876543210", "4123456789012345", "8701", "101", "561"),
]


@pytest.mark.parametrize(("cvk", "pan", "expiry", "service_code", "cvv"), VECTORS)
def test_published_vectors(cvk: str, pan: str, expiry: str, service_code: str, cvv: str) -> None:
    assert cvv_with_key(bytes.fromhex(cvk), pan, expiry, service_code) == cvv


def test_decimalisation_takes_digits_then_letters_less_ten() -> None:
    assert decimalise(bytes.fromhex("24E1A05574051BBF"), 16) == "2410557405140115"
    assert decimalise(bytes.fromhex("ABCDEFABCDEFABCD")) == "012"


@pytest.mark.parametrize(
    ("cvk", "pan", "expiry"),
    [
        (b"A" * 8, "4111111111111111", "2701"),  # single length
        (b"A" * 16, "41111111111x1111", "2701"),
        (b"A" * 16, "4111111111111111", "270"),
        (b"A" * 16, "41111111111111111111", "2701"),
    ],
)
def test_malformed_input_is_refused(cvk: bytes, pan: str, expiry: str) -> None:
    with pytest.raises(ValueError, match="must be"):
        cvv_with_key(cvk, pan, expiry)


def test_the_cipher_computes_cvv2_with_service_code_000() -> None:
    cvk = "0123456789ABCDEFFEDCBA9876543210"
    cipher = CardCipher.from_settings(
        Settings(database_url="postgresql://x@127.0.0.1/x", encryption_key=TEST_KEY, cvk=cvk)
    )
    expected = cvv_with_key(bytes.fromhex(cvk), "4123456789012345", "2911", "000")
    assert cipher.cvv2("4123456789012345", "2911") == expected
    assert cipher.cvv2("4123456789012345", "2911") == expected  # the same card, the same CVV2


def test_postgresql_without_a_cvk_cannot_compute_one() -> None:
    cipher = CardCipher.from_settings(
        Settings(database_url="postgresql://x@127.0.0.1/x", encryption_key=TEST_KEY)
    )
    with pytest.raises(MissingEncryptionKey, match="CARDSERVICE_CVK"):
        cipher.cvv2("4123456789012345", "2911")


def test_the_embedded_cvk_is_generated_into_the_key_file_once(tmp_path: Path) -> None:
    settings = Settings(var_dir=tmp_path / "var", key_file=tmp_path / "keys" / "encryption.key")
    first = CardCipher.from_settings(settings)
    ciphertext = first.encrypt("4111111111111111")
    cvv2 = first.cvv2("4111111111111111", "2911")
    lines = settings.resolved_key_file.read_text().split()
    assert len(lines) == 2 and lines[1].startswith("cvk:") and len(lines[1]) == 4 + 32
    again = CardCipher.from_settings(settings)  # reads the same key file: same keys
    assert again.decrypt(ciphertext) == "4111111111111111"
    assert again.cvv2("4111111111111111", "2911") == cvv2
    assert settings.resolved_key_file.read_text().count("cvk:") == 1
    assert settings.resolved_key_file.stat().st_mode & 0o777 == 0o600


def test_racing_workers_agree_on_one_cvk(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "encryption.key"
    found: list[bytes] = []
    threads = [threading.Thread(target=lambda: found.append(embedded_cvk(path))) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(found) == len(threads)  # every racer got a key (none crashed)
    assert len(set(found)) == 1 and path.read_text().count("cvk:") == 1

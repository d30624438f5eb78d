"""Encryption at rest for card numbers and 3DS codes (Fernet), and keyed fingerprints.

`CARDSERVICE_ENCRYPTION_KEY` lists one or more Fernet keys, newest first: the newest
encrypts, any of them decrypts (`MultiFernet`), so `cardservice keys rotate` can re-encrypt
every stored secret under the newest key while the old one still reads what is not yet
done. Only the embedded SQLite set-up may generate a key: into `KEY_FILE` (by default
`~/.config/cardservice/encryption.key`, away from the database's directory, so a copy of
`var/` carries no key); a key file left in `var/` by an older version is moved there.

Card-number fingerprints (the unique `cards.pan_fingerprint`) are an HMAC under a key of
their own that never changes with rotation: `CARDSERVICE_FINGERPRINT_KEY` (64 hex digits)
or, when unset, the value older versions derived from the *last* (oldest) encryption key,
so existing fingerprints stay valid without a migration. Pin it (`cardservice keys
fingerprint-key` prints it) before retiring that key: rotation refuses to run otherwise.

The card verification key (CVK) computes CVV2s (`cardservice.security.cvv`), which are never stored:
`CARDSERVICE_CVK` (32 hex digits) or, in the embedded set-up only, a `cvk:` line of the key
file, generated on first use. PostgreSQL without `CARDSERVICE_CVK` runs, but cannot compute
a CVV2 (`cvv2` raises `MissingEncryptionKey`).

The PIN keys (docs/cards.md#pin-keys) are kept the same way: the PIN verification key
(`CARDSERVICE_PVK`, 32 hex digits, or a `pvk:` line) and the RSA-2048 key of the holder's PIN
envelope (`CARDSERVICE_PIN_RSA_KEY`, base64 of its PKCS#8 DER, or a `pin-rsa:` line), both
generated on first use in the embedded set-up only; the zone PIN key shared with the network
is `CARDSERVICE_ISO8583_ZPK` alone (the network gives it; nothing generates it).
"""

from __future__ import annotations

import base64
import fcntl
import functools
import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Callable
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from cardservice.config import Settings
from cardservice.security import pin as pins
from cardservice.security.cvv import cvv_with_key

LEGACY_KEY_FILE_NAME = "encryption.key"  # in var/, where versions before 0.2 kept it
CVK_PREFIX = "cvk:"  # the key file's CVK line (Fernet keys never contain a colon)
PVK_PREFIX = "pvk:"
PIN_RSA_PREFIX = "pin-rsa:"
PIN_RSA_BITS = 2048
OAEP_SHA256 = padding.OAEP(mgf=padding.MGF1(hashes.SHA256()), algorithm=hashes.SHA256(), label=None)


class MissingEncryptionKey(RuntimeError):
    pass


class UnreadableValue(ValueError):
    """A stored value no configured key reads: its kind (`EncryptedColumn.kind`) and row."""

    def __init__(
        self, kind: str, row_id: object, why: str = "does not read under the configured keys"
    ) -> None:
        super().__init__(f"{kind} {row_id}: its value {why}")
        self.kind, self.row_id = kind, row_id


def legacy_fingerprint_key(key: bytes) -> bytes:
    """The fingerprint key derived from a Fernet key, as every version so far did."""
    return hashlib.sha256(b"cardservice-fingerprint:" + key).digest()


class CardCipher:
    """Encrypts with the newest key, decrypts with any; fingerprints under a stable key."""

    def __init__(
        self,
        keys: list[bytes],
        fingerprint_key: bytes | None = None,
        cvk: bytes | None = None,
        cvk_file: Path | None = None,
    ) -> None:
        if not keys:
            raise MissingEncryptionKey("no encryption key given")
        self._newest = Fernet(keys[0])
        self._fernet = MultiFernet([Fernet(key) for key in keys])
        self.fingerprint_key = fingerprint_key or legacy_fingerprint_key(keys[-1])
        self._cvk = cvk
        self._cvk_file = cvk_file  # the embedded set-up: read (or made) on first use
        self._pin_settings: Settings | None = None  # the PIN keys', read on first use
        self._pin_rsa: rsa.RSAPrivateKey | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> CardCipher:
        """The configured backend's cipher: `local` (this class) or `pkcs11` (a token)."""
        if settings.key_backend == "pkcs11":
            from cardservice.security.pkcs11 import Pkcs11Cipher

            return Pkcs11Cipher.from_settings(settings)
        return cls.local(settings)

    @classmethod
    def local(cls, settings: Settings) -> CardCipher:
        """The local backend: keys from the environment or the embedded key file."""
        pinned = bytes.fromhex(settings.fingerprint_key) if settings.fingerprint_key else None
        cvk = bytes.fromhex(settings.cvk) if settings.cvk else None
        cvk_file = settings.resolved_key_file if settings.is_sqlite and cvk is None else None
        if settings.encryption_keys:
            keys = [key.encode() for key in settings.encryption_keys]
        elif settings.is_sqlite:
            keys = _embedded_keys(settings)
        else:
            raise MissingEncryptionKey(
                "CARDSERVICE_ENCRYPTION_KEY must be set for PostgreSQL "
                "(generate one with: cardservice keys generate)"
            )
        cipher = cls(keys, pinned, cvk, cvk_file)
        cipher._pin_settings = settings
        return cipher

    def cvv2(self, pan: str, expiry_yymm: str) -> str:
        """The card's CVV2 (service code 000) under the CVK; computed, never stored."""
        return cvv_with_key(self._card_verification_key(), pan, expiry_yymm)

    def _card_verification_key(self) -> bytes:
        if self._cvk is None and self._cvk_file is not None:
            self._cvk = embedded_cvk(self._cvk_file)
        if self._cvk is None:
            raise MissingEncryptionKey(
                "CARDSERVICE_CVK must be set to compute CVV2s on PostgreSQL "
                "(generate one with: cardservice keys generate-cvk)"
            )
        return self._cvk

    def _pin_secret(self, value: str, prefix: str, make: Callable[[], str], name: str) -> str:
        """A PIN key from the environment, else the embedded key file (made on first use)."""
        settings = self._pin_settings
        if value:
            return value
        if settings is None or not settings.is_sqlite:
            raise MissingEncryptionKey(f"{name} must be set to use PINs on PostgreSQL")
        return embedded_secret(settings.resolved_key_file, prefix, make)

    def _pin_private_key(self) -> rsa.RSAPrivateKey:
        if self._pin_rsa is None:
            given = self._pin_settings.pin_rsa_key if self._pin_settings else ""
            text = self._pin_secret(
                given, PIN_RSA_PREFIX, generate_pin_rsa_key, "CARDSERVICE_PIN_RSA_KEY"
            )
            key = serialization.load_der_private_key(base64.b64decode(text), password=None)
            if not isinstance(key, rsa.RSAPrivateKey) or key.key_size != PIN_RSA_BITS:
                raise MissingEncryptionKey("the PIN key must be an RSA-2048 private key")
            self._pin_rsa = key
        return self._pin_rsa

    def pin_public_key(self) -> tuple[str, str]:
        """The PIN envelope's public key: `(key_id, PEM)`."""
        public = self._pin_private_key().public_key()
        der = public.public_bytes(
            serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        pem = public.public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return pins.key_id_of(der), pem.decode()

    def open_pin_envelope(self, key_id: str, envelope: bytes) -> bytes:
        """The decrypted envelope (RSA-OAEP, SHA-256) under the key `key_id`;
        `pins.InvalidPinBlock` when it is another key's or does not decrypt."""
        if key_id != self.pin_public_key()[0]:
            raise pins.InvalidPinBlock()
        try:
            return self._pin_private_key().decrypt(envelope, OAEP_SHA256)
        except ValueError:
            raise pins.InvalidPinBlock() from None

    def pin_pvv(self, pan: str, pin: str) -> str:
        """The Visa PVV (PVKI 1) of the PIN on the card, under the PVK."""
        given = self._pin_settings.pvk if self._pin_settings else ""
        pvk = self._pin_secret(given, PVK_PREFIX, generate_cvk, "CARDSERVICE_PVK")
        return pins.pvv(pins.ecb(bytes.fromhex(pvk)), pan, pin)

    def load_zone_pin_key(self) -> None:
        """Ready the zone PIN key before the first PIN block (the ISO 8583 listener's start):
        here it is the configured value, held in memory already."""

    def clear_pin_block(self, block: bytes) -> bytes:
        """A field-52 PIN block decrypted under the zone PIN key (3DES ECB)."""
        zpk = self._pin_settings.iso8583_zpk if self._pin_settings else ""
        if not zpk:
            raise MissingEncryptionKey("CARDSERVICE_ISO8583_ZPK must be set to verify PINs")
        return pins.ecb(bytes.fromhex(zpk), decrypt=True)(block)

    def encrypt(self, plaintext: str) -> bytes:
        return self._fernet.encrypt(plaintext.encode())

    def decrypt(self, ciphertext: bytes) -> str:
        try:
            return self._fernet.decrypt(ciphertext).decode()
        except InvalidToken as exc:
            raise ValueError("ciphertext does not match the configured keys") from exc

    def reencrypt(self, ciphertext: bytes) -> bytes | None:
        """The ciphertext under the newest key; None when it already is (nothing to do)."""
        try:
            self._newest.decrypt(ciphertext)
            return None
        except InvalidToken:
            pass
        try:
            return self._fernet.rotate(ciphertext)
        except InvalidToken as exc:
            raise ValueError("ciphertext does not match the configured keys") from exc

    def fingerprint(self, plaintext: str) -> str:
        """HMAC-SHA256 of the number under the fingerprint key, as hex: the key's HMAC is
        set up once (`_keyed`) and copied for each number (an ISO 8583 request's one HMAC)."""
        keyed = _keyed(self.fingerprint_key).copy()
        keyed.update(plaintext.encode())
        return keyed.hexdigest()


@functools.lru_cache(maxsize=4)
def _keyed(key: bytes) -> hmac.HMAC:
    """An HMAC-SHA256 under `key` with nothing hashed yet (copied, never updated itself)."""
    return hmac.new(key, digestmod=hashlib.sha256)


def generate_key() -> str:
    return Fernet.generate_key().decode()


def _embedded_keys(settings: Settings) -> list[bytes]:
    """The embedded key file's keys (one a line, newest first), created on first use."""
    path = settings.resolved_key_file
    _move_legacy_key_file(settings.var_dir / LEGACY_KEY_FILE_NAME, path)
    if not path.exists():
        _create_key_file(path)
    lines = (line.strip() for line in path.read_text().splitlines())
    # the other keys' lines are `name:value`; a Fernet key never contains a colon
    return [line.encode() for line in lines if line and ":" not in line]


def generate_cvk() -> str:
    """A fresh CVK: a double-length DES key, 32 hex digits (parity bits are ignored by DES)."""
    return secrets.token_hex(16).upper()


def generate_pin_rsa_key() -> str:
    """A fresh PIN envelope key: base64 of an RSA-2048 key's PKCS#8 DER (one line)."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=PIN_RSA_BITS)
    der = key.private_bytes(
        serialization.Encoding.DER,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return base64.b64encode(der).decode()


def embedded_cvk(path: Path) -> bytes:
    """The key file's CVK, appended to it on first use (under a lock: workers agree)."""
    return bytes.fromhex(embedded_secret(path, CVK_PREFIX, generate_cvk))


def embedded_secret(path: Path, prefix: str, generate: Callable[[], str]) -> str:
    """The key file's `prefix` line's value, appended on first use (under a lock: workers
    agree)."""
    if not path.exists():
        _create_key_file(path)
    with path.open("r+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        for line in handle.read().splitlines():
            if line.strip().startswith(prefix):
                return line.strip().removeprefix(prefix)
        handle.seek(0, os.SEEK_END)
        value = generate()
        handle.write(f"\n{prefix}{value}\n")
        handle.flush()
        os.fsync(handle.fileno())
        return value


def _move_legacy_key_file(legacy: Path, path: Path) -> None:
    """A key file beside the database moves to `path` (same key: the old copy just goes)."""
    if not legacy.exists() or legacy.resolve() == path.resolve():
        return
    try:
        key = legacy.read_text()
    except FileNotFoundError:
        return  # another worker moved it meanwhile
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _link_new(path, key)
    if path.read_text().strip() != key.strip():
        raise MissingEncryptionKey(
            f"two different key files: {legacy} and {path}; keep the one this "
            "database was encrypted with (set CARDSERVICE_KEY_FILE to it)"
        )
    legacy.unlink(missing_ok=True)


def _create_key_file(path: Path) -> None:
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    _link_new(path, generate_key())


def _link_new(path: Path, content: str) -> None:
    """Write `path` (mode 0600) atomically, unless it exists: racing workers agree."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(content)
    try:
        os.link(temporary, path)
    except FileExistsError:
        pass  # another worker created it first: use theirs
    finally:
        temporary.unlink()


PAN_LENGTH = 16


def mask(bin_prefix: str, last4: str, length: int = PAN_LENGTH) -> str:
    """`424242******4242`: the first six and last four digits, nothing else."""
    return bin_prefix[:6] + "*" * (length - 10) + last4

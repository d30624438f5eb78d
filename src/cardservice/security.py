"""Encryption at rest for card numbers and 3DS codes (Fernet), and keyed fingerprints.

The key comes from `CARDSERVICE_ENCRYPTION_KEY`. Only the embedded SQLite set-up may
generate one (into `var/encryption.key`, mode 0600); a PostgreSQL deployment must set it,
since every instance has to share the same key.
"""

from __future__ import annotations

import hashlib
import hmac
import os

from cryptography.fernet import Fernet, InvalidToken

from cardservice.config import Settings

KEY_FILE_NAME = "encryption.key"


class MissingEncryptionKey(RuntimeError):
    pass


class CardCipher:
    def __init__(self, key: bytes) -> None:
        self._fernet = Fernet(key)
        self._fingerprint_key = hashlib.sha256(b"cardservice-fingerprint:" + key).digest()

    @classmethod
    def from_settings(cls, settings: Settings) -> CardCipher:
        if settings.encryption_key:
            return cls(settings.encryption_key.encode())
        if not settings.is_sqlite:
            raise MissingEncryptionKey(
                "CARDSERVICE_ENCRYPTION_KEY must be set for PostgreSQL "
                "(generate one with: cardservice keys generate)"
            )
        return cls(_embedded_key(settings))

    def encrypt(self, plaintext: str) -> bytes:
        return self._fernet.encrypt(plaintext.encode())

    def decrypt(self, ciphertext: bytes) -> str:
        try:
            return self._fernet.decrypt(ciphertext).decode()
        except InvalidToken as exc:
            raise ValueError("ciphertext does not match the configured key") from exc

    def fingerprint(self, plaintext: str) -> str:
        return hmac.new(self._fingerprint_key, plaintext.encode(), hashlib.sha256).hexdigest()


def generate_key() -> str:
    return Fernet.generate_key().decode()


def _embedded_key(settings: Settings) -> bytes:
    """Read the embedded key, creating it atomically (link) so racing workers agree."""
    path = settings.var_dir / KEY_FILE_NAME
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{KEY_FILE_NAME}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(generate_key())
        try:
            os.link(temporary, path)
        except FileExistsError:
            pass  # another worker created it first: use theirs
        finally:
            temporary.unlink()
    return path.read_bytes().strip()

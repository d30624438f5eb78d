"""`CARDSERVICE_KEY_BACKEND=pkcs11`: the card-number key and the CVK live in a PKCS#11
token (an HSM; SoftHSM2 in the tests) and are used inside it.

* **Card numbers** (and every other secret `CardCipher.encrypt` protects): AES-256-GCM by
  the token under an AES key generated in the token (`CKA_SENSITIVE`, not extractable),
  label `cardservice-pan`, `CKA_ID` its generation (4 bytes, big-endian). The newest
  generation encrypts; any decrypts. A stored value is `p11:<generation hex>:` + 12-byte
  nonce + ciphertext and tag. Values written by the local backend (Fernet tokens) still read
  while `CARDSERVICE_ENCRYPTION_KEY` is given, so `cardservice keys rotate` moves them in.
* **CVV2**: the token's DES3 ECB under the CVK, held as two non-extractable DES3 keys:
  `cardservice-cvk-a` (A‖A‖A: single DES under A) and `cardservice-cvk-ab` (A‖B‖A: the
  EDE2 step). SoftHSM2 on OpenSSL 3 offers no single DES and no key-concatenation
  mechanism, so the CVK cannot be split inside the token: `keys create` injects it
  (`CARDSERVICE_CVK`, or 16 random bytes from the token's generator), and the process
  drops it at once — as key components are loaded into a payment HSM.
* **PINs** (docs/cards.md#pin-keys): the PVK is a non-extractable DES3 key
  `cardservice-pvk` (A‖B‖A, encrypt only), injected by `keys create` as the CVK is; the PIN
  envelope's RSA-2048 pair is generated in the token by `keys create` (`cardservice-pin-rsa`,
  `CKA_ID` its generation; the private half sensitive, not extractable, decrypt only): the
  token runs the private operation (`CKM_RSA_X_509`) and `security.pin` removes the OAEP
  padding. The zone PIN key (`CARDSERVICE_ISO8583_ZPK`) is imported into each process's
  session as a session object (decrypt only) when its ISO 8583 listener starts
  (`load_zone_pin_key`; again on the first use in a session opened since): it never lands on
  the token.
* **Fingerprints** stay an HMAC under the pinned `CARDSERVICE_FINGERPRINT_KEY` (required
  here): every card's fingerprint keeps its value across backends, with no re-fingerprinting
  of every row; the key guards a one-way index, not the number (docs/security.md).

A token session is opened per process on first use (a forked server worker opens its own),
and used under a lock: a PKCS#11 session is not for concurrent calls.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.rsa import RSAPublicNumbers

from cardservice.config import Settings
from cardservice.security import PIN_RSA_BITS, CardCipher, MissingEncryptionKey
from cardservice.security import pin as pins
from cardservice.security.cvv import compute_cvv, key_check_value

PAN_LABEL = "cardservice-pan"
CVK_SINGLE_LABEL = "cardservice-cvk-a"
CVK_DOUBLE_LABEL = "cardservice-cvk-ab"
PVK_LABEL = "cardservice-pvk"
PIN_RSA_LABEL = "cardservice-pin-rsa"
ZPK_LABEL = "cardservice-zpk"
PREFIX = b"p11:"
NONCE_BYTES = 12
HANDLES_SECONDS = 30.0


class TokenError(MissingEncryptionKey):
    """The token or a key in it is missing or refuses: a configuration error."""


def _pkcs11() -> Any:
    import pkcs11

    return pkcs11


@dataclass(frozen=True, slots=True)
class TokenConfig:
    module: str
    label: str
    pin: str

    @classmethod
    def from_settings(cls, settings: Settings) -> TokenConfig:
        missing = [
            name
            for name, value in (
                ("CARDSERVICE_PKCS11_MODULE", settings.pkcs11_module),
                ("CARDSERVICE_PKCS11_TOKEN_LABEL", settings.pkcs11_token_label),
                ("CARDSERVICE_PKCS11_PIN", settings.pkcs11_pin),
            )
            if not value
        ]
        if missing:
            raise TokenError(f"the pkcs11 key backend needs {', '.join(missing)}")
        return cls(settings.pkcs11_module, settings.pkcs11_token_label, settings.pkcs11_pin)


class Token:
    """One logged-in session on the token per process, used under a lock."""

    def __init__(self, config: TokenConfig) -> None:
        self.config = config
        self._lock = threading.Lock()
        self._session: Any = None
        self._pid = 0

    @contextmanager
    def session(self) -> Iterator[Any]:
        with self._lock:
            if self._session is None or self._pid != os.getpid():
                self._session, self._pid = self._open(), os.getpid()
            yield self._session

    def _open(self) -> Any:
        pkcs11 = _pkcs11()
        try:
            lib = pkcs11.lib(self.config.module)
            token = lib.get_token(token_label=self.config.label)
            try:
                return token.open(user_pin=self.config.pin, rw=True)
            except pkcs11.UserAlreadyLoggedIn:
                # a login is the process's, shared by its sessions: another cipher made it
                return token.open(rw=True)
        except (pkcs11.PKCS11Error, RuntimeError) as exc:
            raise TokenError(
                f"cannot open the PKCS#11 token {self.config.label!r} "
                f"({type(exc).__name__}); check the module, label and PIN"
            ) from exc

    def close(self) -> None:
        with self._lock:
            if self._session is not None and self._pid == os.getpid():
                self._session.close()
            self._session = None


def _keys(session: Any, label: str, kind: str = "SECRET_KEY") -> list[Any]:
    pkcs11 = _pkcs11()
    found = session.get_objects(
        {
            pkcs11.Attribute.CLASS: getattr(pkcs11.ObjectClass, kind),
            pkcs11.Attribute.LABEL: label,
        }
    )
    return sorted(found, key=lambda key: bytes(key[pkcs11.Attribute.ID]))


def _des3_template(label: str, value: bytes, *, token: bool, decrypt: bool) -> dict[Any, Any]:
    """A non-extractable DES3 key's attributes: encrypt only, or decrypt only."""
    attribute = _pkcs11().Attribute
    return {
        attribute.CLASS: _pkcs11().ObjectClass.SECRET_KEY,
        attribute.KEY_TYPE: _pkcs11().KeyType.DES3,
        attribute.VALUE: value,
        attribute.LABEL: label,
        attribute.ID: (1).to_bytes(4, "big"),
        attribute.TOKEN: token,
        attribute.PRIVATE: True,
        attribute.SENSITIVE: True,
        attribute.EXTRACTABLE: False,
        attribute.ENCRYPT: not decrypt,
        attribute.DECRYPT: decrypt,
    }


def generation(key: Any) -> int:
    return int.from_bytes(bytes(key[_pkcs11().Attribute.ID]), "big")


class TokenKeys:
    """The token's keys as the cipher uses them: AES generations and the CVK pair. Their
    handles are remembered per session for `HANDLES_SECONDS` (finding objects costs more than
    using them); a generation not among them is looked for again at once, so a server sees a
    rotation's new key within that time, and reads its values at once."""

    def __init__(self, token: Token) -> None:
        self.token = token
        self._found: dict[str, tuple[Any, float, Any]] = {}  # label → (session, when, value)

    def _remembered(self, session: Any, label: str, find: Any, fresh: bool = False) -> Any:
        known = self._found.get(label)
        now = time.monotonic()
        if (
            not fresh
            and known is not None
            and known[0] is session
            and now - known[1] < HANDLES_SECONDS
        ):
            return known[2]
        value = find()
        self._found[label] = (session, now, value)
        return value

    def pan_keys(self, session: Any, fresh: bool = False) -> dict[int, Any]:
        def find() -> dict[int, Any]:
            return {generation(key): key for key in _keys(session, PAN_LABEL)}

        keys: dict[int, Any] = self._remembered(session, PAN_LABEL, find, fresh)
        return keys

    def pan_key(self, session: Any, number: int) -> Any:
        """The key of one generation (looked for again when not remembered), or None."""
        key = self.pan_keys(session).get(number)
        return key if key is not None else self.pan_keys(session, fresh=True).get(number)

    def newest_pan_key(self, session: Any) -> tuple[int, Any]:
        keys = self.pan_keys(session) or self.pan_keys(session, fresh=True)
        if not keys:
            raise TokenError(
                f"no {PAN_LABEL} key in the token (create it: cardservice keys create)"
            )
        newest = max(keys)
        return newest, keys[newest]

    def cvk(self, session: Any) -> tuple[Any, Any]:
        def find() -> tuple[Any, Any] | None:
            single, double = _keys(session, CVK_SINGLE_LABEL), _keys(session, CVK_DOUBLE_LABEL)
            return (single[-1], double[-1]) if single and double else None

        pair: tuple[Any, Any] | None = self._remembered(session, CVK_DOUBLE_LABEL, find)
        if pair is None:
            pair = self._remembered(session, CVK_DOUBLE_LABEL, find, fresh=True)
        if pair is None:
            raise TokenError("no CVK in the token (create it: cardservice keys create)")
        return pair

    def pvk(self, session: Any) -> Any:
        def find() -> Any:
            found = _keys(session, PVK_LABEL)
            return found[-1] if found else None

        key = self._remembered(session, PVK_LABEL, find)
        if key is None:
            key = self._remembered(session, PVK_LABEL, find, fresh=True)
        if key is None:
            raise TokenError("no PVK in the token (create it: cardservice keys create)")
        return key

    def pin_rsa_keys(self, session: Any) -> dict[str, tuple[Any, Any]]:
        """The PIN envelope's key pairs by key id (every generation), newest first."""

        def find() -> dict[str, tuple[Any, Any]]:
            publics = {
                bytes(k[_pkcs11().Attribute.ID]): k
                for k in _keys(session, PIN_RSA_LABEL, "PUBLIC_KEY")
            }
            pairs = {}
            for private in reversed(_keys(session, PIN_RSA_LABEL, "PRIVATE_KEY")):
                public = publics.get(bytes(private[_pkcs11().Attribute.ID]))
                if public is not None:
                    pairs[pins.key_id_of(public_der(public))] = (public, private)
            return pairs

        pairs: dict[str, tuple[Any, Any]] = self._remembered(session, PIN_RSA_LABEL, find)
        if not pairs:
            pairs = self._remembered(session, PIN_RSA_LABEL, find, fresh=True)
        if not pairs:
            raise TokenError("no PIN key in the token (create it: cardservice keys create)")
        return pairs

    def zpk(self, session: Any, value: bytes | None) -> Any:
        """The zone PIN key, imported into the process's session at the listener's start or
        on first use (a session object, found again by its check value: a session imports
        each ZPK once)."""
        if value is None:
            raise TokenError("CARDSERVICE_ISO8583_ZPK must be set to verify PINs")
        key_value = value + value[:8] if len(value) == 16 else value
        check = pins.ecb(key_value)(bytes(8))[:3]  # its KCV: names it, shows nothing

        def find() -> Any:
            pkcs11 = _pkcs11()
            found = list(
                session.get_objects(
                    {
                        pkcs11.Attribute.CLASS: pkcs11.ObjectClass.SECRET_KEY,
                        pkcs11.Attribute.LABEL: ZPK_LABEL,
                        pkcs11.Attribute.ID: check,
                    }
                )
            )
            if found:
                return found[0]
            template = _des3_template(ZPK_LABEL, key_value, token=False, decrypt=True)
            return session.create_object({**template, pkcs11.Attribute.ID: check})

        return self._remembered(session, f"{ZPK_LABEL}:{check.hex()}", find)

    def create_pin_keys(self, pvk: bytes | None) -> list[str]:
        """The PVK (injected: the given one, else random from the token) and the PIN RSA pair
        (generated in the token), each only when the token lacks it; what was done."""
        pkcs11, done = _pkcs11(), []
        with self.token.session() as session:
            if not _keys(session, PVK_LABEL):
                material = pvk if pvk is not None else bytes(session.generate_random(128))
                a, b = material[:8], material[8:]
                session.create_object(
                    _des3_template(PVK_LABEL, a + b + a, token=True, decrypt=False)
                )
                done.append(f"pvk: injected into the token, kcv {key_check_value(material)}")
            if not _keys(session, PIN_RSA_LABEL, "PRIVATE_KEY"):
                session.generate_keypair(
                    pkcs11.KeyType.RSA,
                    PIN_RSA_BITS,
                    label=PIN_RSA_LABEL,
                    id=(1).to_bytes(4, "big"),
                    store=True,
                    private_template={
                        pkcs11.Attribute.SENSITIVE: True,
                        pkcs11.Attribute.EXTRACTABLE: False,
                        pkcs11.Attribute.DECRYPT: True,
                        pkcs11.Attribute.SIGN: False,
                    },
                )
                done.append("pin key: an RSA-2048 pair generated in the token")
            self._found.clear()
        return done

    def create_pan_key(self) -> int:
        """A new AES-256 generation made in the token; its number."""
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            keys = self.pan_keys(session, fresh=True)
            number = max(keys, default=0) + 1
            session.generate_key(
                pkcs11.KeyType.AES,
                256,
                label=PAN_LABEL,
                id=number.to_bytes(4, "big"),
                store=True,
                capabilities=pkcs11.MechanismFlag.ENCRYPT | pkcs11.MechanismFlag.DECRYPT,
                template={
                    pkcs11.Attribute.SENSITIVE: True,
                    pkcs11.Attribute.EXTRACTABLE: False,
                },
            )
            self.pan_keys(session, fresh=True)
        return number

    def inject_cvk(self, cvk: bytes | None) -> str:
        """Put the CVK into the token (the given one, else random from the token); its KCV."""
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            material = cvk if cvk is not None else bytes(session.generate_random(128))
            a, b = material[:8], material[8:]
            for label, value in ((CVK_SINGLE_LABEL, a * 3), (CVK_DOUBLE_LABEL, a + b + a)):
                session.create_object(
                    {
                        pkcs11.Attribute.CLASS: pkcs11.ObjectClass.SECRET_KEY,
                        pkcs11.Attribute.KEY_TYPE: pkcs11.KeyType.DES3,
                        pkcs11.Attribute.VALUE: value,
                        pkcs11.Attribute.LABEL: label,
                        pkcs11.Attribute.ID: (1).to_bytes(4, "big"),
                        pkcs11.Attribute.TOKEN: True,
                        pkcs11.Attribute.PRIVATE: True,
                        pkcs11.Attribute.SENSITIVE: True,
                        pkcs11.Attribute.EXTRACTABLE: False,
                        pkcs11.Attribute.ENCRYPT: True,
                        pkcs11.Attribute.DECRYPT: False,
                    }
                )
            return key_check_value(material)

    def cvk_check_value(self) -> str:
        """The token's CVK's KCV, computed in the token."""
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            _single, double = self.cvk(session)
            block = double.encrypt(bytes(8), mechanism=pkcs11.Mechanism.DES3_ECB)
            return bytes(block)[:3].hex().upper()


def public_der(public: Any) -> bytes:
    """A token's RSA public key as a SubjectPublicKeyInfo (DER)."""
    attribute = _pkcs11().Attribute
    numbers = RSAPublicNumbers(
        int.from_bytes(bytes(public[attribute.PUBLIC_EXPONENT]), "big"),
        int.from_bytes(bytes(public[attribute.MODULUS]), "big"),
    )
    return numbers.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo
    )


class Pkcs11Cipher(CardCipher):
    """`CardCipher` with its keys in a PKCS#11 token (same methods, same callers)."""

    def __init__(
        self, token: Token, fingerprint_key: bytes, legacy_keys: list[bytes] | None = None
    ) -> None:
        # no super().__init__: it needs Fernet keys, which this backend only reads with
        self.fingerprint_key = fingerprint_key
        self._legacy = MultiFernet([Fernet(k) for k in legacy_keys]) if legacy_keys else None
        self.token = token
        self.keys = TokenKeys(token)
        self.zpk_value: bytes | None = None  # CARDSERVICE_ISO8583_ZPK (load_zone_pin_key)

    @classmethod
    def from_settings(cls, settings: Settings) -> CardCipher:
        if not settings.fingerprint_key:
            raise TokenError(
                "the pkcs11 key backend needs CARDSERVICE_FINGERPRINT_KEY pinned "
                "(print the one in use with the local backend: cardservice keys fingerprint-key)"
            )
        legacy = [key.encode() for key in settings.encryption_keys] or None
        token = Token(TokenConfig.from_settings(settings))
        cipher = cls(token, bytes.fromhex(settings.fingerprint_key), legacy)
        cipher.zpk_value = bytes.fromhex(settings.iso8583_zpk) if settings.iso8583_zpk else None
        return cipher

    def encrypt(self, plaintext: str) -> bytes:
        pkcs11 = _pkcs11()
        nonce = os.urandom(NONCE_BYTES)
        with self.token.session() as session:
            number, key = self.keys.newest_pan_key(session)
            sealed = key.encrypt(
                plaintext.encode(),
                mechanism=pkcs11.Mechanism.AES_GCM,
                mechanism_param=pkcs11.GCMParams(nonce, b"", 128),
            )
        return PREFIX + f"{number:08x}".encode() + b":" + nonce + bytes(sealed)

    def decrypt(self, ciphertext: bytes) -> str:
        if not ciphertext.startswith(PREFIX):
            return self._decrypt_legacy(ciphertext)
        pkcs11 = _pkcs11()
        number, nonce, sealed = self._parts(ciphertext)
        with self.token.session() as session:
            key = self.keys.pan_key(session, number)
            if key is None:
                raise ValueError("ciphertext does not match the configured keys")
            try:
                plain = key.decrypt(
                    sealed,
                    mechanism=pkcs11.Mechanism.AES_GCM,
                    mechanism_param=pkcs11.GCMParams(nonce, b"", 128),
                )
            except pkcs11.PKCS11Error as exc:
                raise ValueError("ciphertext does not match the configured keys") from exc
        return bytes(plain).decode()

    def reencrypt(self, ciphertext: bytes) -> bytes | None:
        if ciphertext.startswith(PREFIX):
            number, _nonce, _sealed = self._parts(ciphertext)
            with self.token.session() as session:
                newest, _key = self.keys.newest_pan_key(session)
            if number == newest:
                return None
        return self.encrypt(self.decrypt(ciphertext))

    def cvv2(self, pan: str, expiry_yymm: str) -> str:
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            single, double = self.keys.cvk(session)

            def under(key: Any) -> Any:
                return lambda block: bytes(key.encrypt(block, mechanism=pkcs11.Mechanism.DES3_ECB))

            return compute_cvv(under(single), under(double), pan, expiry_yymm)

    def pin_public_key(self) -> tuple[str, str]:
        with self.token.session() as session:
            key_id, (public, _private) = next(iter(self.keys.pin_rsa_keys(session).items()))
            der = public_der(public)
        pem = serialization.load_der_public_key(der).public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        return key_id, pem.decode()

    def open_pin_envelope(self, key_id: str, envelope: bytes) -> bytes:
        pkcs11, size = _pkcs11(), PIN_RSA_BITS // 8
        if len(envelope) != size:
            raise pins.InvalidPinBlock()
        with self.token.session() as session:
            pair = self.keys.pin_rsa_keys(session).get(key_id)
            if pair is None:
                raise pins.InvalidPinBlock()
            try:  # the private operation in the token; the padding is removed here
                raw = bytes(pair[1].decrypt(envelope, mechanism=pkcs11.Mechanism.RSA_X_509))
            except pkcs11.PKCS11Error:
                raise pins.InvalidPinBlock() from None
        return pins.oaep_decode(raw, size)

    def pin_pvv(self, pan: str, pin: str) -> str:
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            pvk = self.keys.pvk(session)
            return pins.pvv(
                lambda block: bytes(pvk.encrypt(block, mechanism=pkcs11.Mechanism.DES3_ECB)),
                pan,
                pin,
            )

    def load_zone_pin_key(self) -> None:
        """Import the zone PIN key into this process's token session (the ISO 8583 listener's
        start): a key the token refuses stops the start instead of failing the first PIN."""
        if self.zpk_value is not None:
            with self.token.session() as session:
                self.keys.zpk(session, self.zpk_value)

    def clear_pin_block(self, block: bytes) -> bytes:
        pkcs11 = _pkcs11()
        with self.token.session() as session:
            zpk = self.keys.zpk(session, self.zpk_value)
            return bytes(zpk.decrypt(block, mechanism=pkcs11.Mechanism.DES3_ECB))

    def _decrypt_legacy(self, ciphertext: bytes) -> str:
        if self._legacy is None:
            raise ValueError("ciphertext does not match the configured keys")
        try:
            return self._legacy.decrypt(ciphertext).decode()
        except InvalidToken as exc:
            raise ValueError("ciphertext does not match the configured keys") from exc

    @staticmethod
    def _parts(ciphertext: bytes) -> tuple[int, bytes, bytes]:
        body = ciphertext[len(PREFIX) :]
        number, _colon, rest = body.partition(b":")
        try:
            return int(number, 16), rest[:NONCE_BYTES], rest[NONCE_BYTES:]
        except ValueError as exc:
            raise ValueError("ciphertext does not match the configured keys") from exc

"""`cardservice keys …`: new keys to configure, `create | check | rotate` on both key backends
(local and pkcs11). Values print alone on stdout; keys in use never do: only key check
values (KCVs), generation numbers and the fingerprint key (which is not secret from the
operator who pins it)."""

from __future__ import annotations

from typing import Any

import click

from cardservice import runtime
from cardservice.cli.arguments import CommandError, runs
from cardservice.config import Settings
from cardservice.errors import ServiceError
from cardservice.operator import CLI
from cardservice.security import CardCipher, MissingEncryptionKey, UnreadableValue, embedded_cvk
from cardservice.security.cvv import key_check_value

PROBE = "4000000000000002"  # a test number: never a card's


class KeyCommandError(ServiceError):
    code, message = "keys", "The keys are not usable."


@click.group(name="keys")
def keys() -> None:
    """Encryption keys (card numbers', the CVK, fingerprints')."""


@keys.command(name="generate")
@runs
async def generate_key(_settings: Settings) -> str:
    """Print a new encryption key (CARDSERVICE_ENCRYPTION_KEY)."""
    from cardservice.security import generate_key

    return generate_key()


@keys.command(name="generate-cvk")
@runs
async def generate_cvk(_settings: Settings) -> str:
    """Print a new card verification key (for CARDSERVICE_CVK)."""
    from cardservice.security import generate_cvk

    return generate_cvk()


@keys.command(name="generate-pvk")
@runs
async def generate_pvk(_settings: Settings) -> str:
    """Print a new PIN verification key (for CARDSERVICE_PVK)."""
    from cardservice.security import generate_cvk

    return generate_cvk()  # the same kind of key: double-length DES, 32 hex digits


@keys.command(name="generate-pin-key")
@runs
async def generate_pin_key(_settings: Settings) -> str:
    """Print a new PIN envelope key (for CARDSERVICE_PIN_RSA_KEY): RSA-2048, PKCS#8, base64."""
    from cardservice.security import generate_pin_rsa_key

    return generate_pin_rsa_key()


@keys.command(name="fingerprint-key")
@runs
async def fingerprint_key(settings: Settings) -> str:
    """Print the card-fingerprint key in use.

    Pin it in CARDSERVICE_FINGERPRINT_KEY before a rotation."""
    return CardCipher.from_settings(settings).fingerprint_key.hex()


@keys.command(name="rotate")
@click.option(
    "--batch",
    type=click.INT,
    default=500,
    show_default=True,
    help="Rows re-encrypted per write unit.",
)
@click.option("--resume", is_flag=True, help="pkcs11: make no new key, finish the last rotation.")
@runs
async def rotate(settings: Settings, batch: int, resume: bool) -> str:
    """Re-encrypt every secret under the newest key.

    Card numbers, 3DS codes, DPANs, webhook and decision-endpoint secrets. Prints how many
    values it re-encrypted (a bar per kind on a terminal) and leaves an audit row."""
    from cardservice.observability.progress import Stages
    from cardservice.security.rotation import rotate_keys

    if not settings.fingerprint_key:
        raise CommandError(
            "pin the fingerprint key first, so retiring the old key keeps every card's "
            "fingerprint: CARDSERVICE_FINGERPRINT_KEY=$(cardservice keys fingerprint-key)"
        )
    if batch < 1:
        raise CommandError("--batch must be ≥ 1")
    cipher = CardCipher.from_settings(settings)
    details: dict[str, Any] = {"backend": settings.key_backend}
    if settings.key_backend == "pkcs11" and not resume:
        from cardservice.security.pkcs11 import Pkcs11Cipher

        assert isinstance(cipher, Pkcs11Cipher)
        details["generation"] = cipher.keys.create_pan_key()  # a new one; then move every row

    db = runtime.database(settings)
    try:
        with Stages() as bars:  # a bar per kind on a terminal, nothing in a pipe
            rotation = await rotate_keys(db, cipher, bars.report, batch)
        details |= {"read": rotation.walked, "reencrypted": rotation.rewritten}
        await db.transact(
            lambda tx: CLI.record(tx, "keys.rotated", "encryption_key", None, details)
        )
    except UnreadableValue as exc:
        raise KeyCommandError(
            f"{exc}; nothing after it was moved (run again once it reads)"
        ) from exc
    finally:
        await db.dispose()
    return str(rotation.changed)


@keys.command(name="create")
@click.option(
    "--new-pan-key",
    is_flag=True,
    help="pkcs11: a new card-number key generation even when the token has one.",
)
@runs
async def create_keys(settings: Settings, new_pan_key: bool) -> str:
    """Create the keys the backend lacks; report what it has.

    The card-number key and the CVK, where the backend keeps them (a key file, the
    environment, a PKCS#11 token)."""
    if settings.key_backend == "pkcs11":
        return _create_in_token(settings, new_pan_key=new_pan_key)
    return _create_local(settings)


def _create_local(settings: Settings) -> str:
    lines = []
    if settings.encryption_keys:
        lines.append(
            f"card-number keys: {len(settings.encryption_keys)} from CARDSERVICE_ENCRYPTION_KEY"
        )
    elif settings.is_sqlite:
        CardCipher.local(settings)  # creates the key file when there is none
        lines.append(f"card-number key: in {settings.resolved_key_file}")
    else:
        raise KeyCommandError("set CARDSERVICE_ENCRYPTION_KEY (cardservice keys generate)")
    if settings.cvk:
        lines.append(
            f"cvk: from CARDSERVICE_CVK, kcv {key_check_value(bytes.fromhex(settings.cvk))}"
        )
    elif settings.is_sqlite:
        cvk = embedded_cvk(settings.resolved_key_file)
        lines.append(f"cvk: in {settings.resolved_key_file}, kcv {key_check_value(cvk)}")
    else:
        raise KeyCommandError("set CARDSERVICE_CVK (cardservice keys generate-cvk)")
    return "\n".join(lines + _local_pin_keys(settings))


def _local_pin_keys(settings: Settings) -> list[str]:
    """Where the local PIN keys are (the embedded key file's made on first use); PostgreSQL
    without them runs, but refuses PINs."""
    if not (settings.is_sqlite or (settings.pvk and settings.pin_rsa_key)):
        return ["pin keys: none (set CARDSERVICE_PVK and CARDSERVICE_PIN_RSA_KEY to take PINs)"]
    cipher = CardCipher.local(settings)
    key_id, _pem = cipher.pin_public_key()
    cipher.pin_pvv(PROBE, "0000")
    where = "from the environment" if settings.pvk else f"in {settings.resolved_key_file}"
    return [f"pin keys: pvk and {key_id} {where}"]


def _create_in_token(settings: Settings, *, new_pan_key: bool) -> str:
    from cardservice.security.pkcs11 import Pkcs11Cipher, TokenError

    try:
        cipher = Pkcs11Cipher.from_settings(settings)
        assert isinstance(cipher, Pkcs11Cipher)
        keys = cipher.keys
        with cipher.token.session() as session:
            generations = sorted(keys.pan_keys(session))
            has_cvk = bool(_try(lambda: keys.cvk(session)))
        lines = []
        if not generations or new_pan_key:
            number = keys.create_pan_key()
            lines.append(f"card-number key: generation {number} created in the token")
        else:
            lines.append(f"card-number key: generation {generations[-1]} in the token")
        wanted = bytes.fromhex(settings.cvk) if settings.cvk else None
        if not has_cvk:
            lines.append(f"cvk: injected into the token, kcv {keys.inject_cvk(wanted)}")
        else:
            kcv = keys.cvk_check_value()
            if wanted is not None and key_check_value(wanted) != kcv:
                raise KeyCommandError(
                    f"the token holds another CVK (kcv {kcv}) than CARDSERVICE_CVK "
                    f"(kcv {key_check_value(wanted)}); CVV2s would change"
                )
            lines.append(f"cvk: in the token, kcv {kcv}")
        wanted_pvk = bytes.fromhex(settings.pvk) if settings.pvk else None
        lines += keys.create_pin_keys(wanted_pvk) or [
            "pin keys: the pvk and an RSA pair in the token"
        ]
        cipher.token.close()
        return "\n".join(lines)
    except TokenError as exc:
        raise KeyCommandError(str(exc)) from exc


def _try(make: Any) -> Any:
    try:
        return make()
    except MissingEncryptionKey:
        return None


@keys.command(name="check")
@runs
async def check_keys(settings: Settings) -> str:
    """Check the keys against a probe and every stored secret.

    Round-trips a probe, computes a CVV2, and reads back every encrypted value (card
    numbers and DPANs must also match their fingerprints); names the first that does not
    read."""
    cipher = working_cipher(settings)
    computes_cvv2(cipher)
    return f"ok: {settings.key_backend} keys; {await stored_values_read(settings, cipher)}"


def working_cipher(settings: Settings) -> CardCipher:
    """The configured backend's cipher, once it has read back a probe it wrote."""
    try:
        cipher = CardCipher.from_settings(settings)
        if cipher.decrypt(cipher.encrypt(PROBE)) != PROBE:
            raise KeyCommandError("the card-number key does not read back what it wrote")
    except (MissingEncryptionKey, ValueError) as exc:
        raise KeyCommandError(str(exc)) from exc
    return cipher


def computes_cvv2(cipher: CardCipher) -> None:
    """The CVK is there: a probe's CVV2 is computed."""
    try:
        cipher.cvv2(PROBE, "2912")
    except (MissingEncryptionKey, ValueError) as exc:
        raise KeyCommandError(str(exc)) from exc


async def stored_values_read(settings: Settings, cipher: CardCipher) -> str:
    """`N stored values read (kind n, …)`, once every encrypted value has read; the first
    that does not is named (`KeyCommandError`)."""
    from cardservice.security.check import read_every_value

    db = runtime.database(settings)
    try:
        read = await read_every_value(db.reader, cipher)
    except UnreadableValue as exc:
        raise KeyCommandError(str(exc)) from exc
    finally:
        await db.dispose()
    counts = ", ".join(f"{kind} {count}" for kind, count in read.items())
    return f"{sum(read.values())} stored values read ({counts})"

"""`cardservice keys create | check` on both key backends (`keys rotate` is in cli.py and
uses the configured backend the same way). Values print alone on stdout; keys never do:
only key check values (KCVs) and generation numbers."""

from __future__ import annotations

import argparse
from typing import Any

from cardservice.cards import repository as cards_repository
from cardservice.cards.numbers import luhn_valid
from cardservice.config import Settings
from cardservice.cvv import key_check_value
from cardservice.db import Database
from cardservice.errors import ServiceError
from cardservice.security import CardCipher, MissingEncryptionKey, embedded_cvk

PROBE = "4000000000000002"  # a test number: never a card's
SAMPLE = 100


class KeyCommandError(ServiceError):
    code, message = "keys", "The keys are not usable."


async def cmd_keys_create(args: argparse.Namespace, settings: Settings) -> str:
    """Make what the backend lacks; report what it has."""
    if settings.key_backend == "pkcs11":
        return _create_in_token(settings, new_pan_key=args.new_pan_key)
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
    return "\n".join(lines)


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
        cipher.token.close()
        return "\n".join(lines)
    except TokenError as exc:
        raise KeyCommandError(str(exc)) from exc


def _try(make: Any) -> Any:
    try:
        return make()
    except MissingEncryptionKey:
        return None


async def cmd_keys_check(args: argparse.Namespace, settings: Settings) -> str:
    """Round-trip a probe through the keys, compute a CVV2, and read back a sample of stored
    card numbers (each must decrypt, pass Luhn and match its fingerprint)."""
    try:
        cipher = CardCipher.from_settings(settings)
        if cipher.decrypt(cipher.encrypt(PROBE)) != PROBE:
            raise KeyCommandError("the card-number key does not read back what it wrote")
        cipher.cvv2(PROBE, "2912")
    except (MissingEncryptionKey, ValueError) as exc:
        raise KeyCommandError(str(exc)) from exc
    db = Database(settings)
    try:
        rows = await cards_repository.sample_of_numbers(db.reader, args.sample)
    finally:
        await db.dispose()
    bad = 0
    for row in rows:
        try:
            pan = cipher.decrypt(bytes(row["pan_ciphertext"]))
        except ValueError:
            bad += 1
            continue
        if not luhn_valid(pan) or cipher.fingerprint(pan) != row["pan_fingerprint"]:
            bad += 1
    if bad:
        raise KeyCommandError(f"{bad} of {len(rows)} card numbers do not read under these keys")
    return f"ok: {settings.key_backend} keys; {len(rows)} stored card numbers read"


def register(keys: Any) -> None:
    """Add `create` and `check` to the `keys` subcommands."""
    create = keys.add_parser(
        "create", help="create the card-number key and the CVK where the backend keeps them"
    )
    create.add_argument(
        "--new-pan-key", action="store_true", help="pkcs11: a new card-number key generation"
    )
    create.set_defaults(handler=cmd_keys_create)
    check = keys.add_parser("check", help="check the keys against a probe and stored cards")
    check.add_argument("--sample", type=int, default=SAMPLE, help="stored cards to read")
    check.set_defaults(handler=cmd_keys_check)

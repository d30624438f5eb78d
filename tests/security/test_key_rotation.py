"""`cardservice keys rotate` and the key's home (issue 14): after rotation every card number
and 3DS code reads under the new key alone, not under the old one, and fingerprints still
catch a repeated number."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from cryptography.fernet import Fernet, InvalidToken
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.security import CardCipher, generate_key, legacy_fingerprint_key
from cardservice.security.rotation import rotate_keys
from tests.cli.test_cli import Command, _value, cli_env
from tests.conftest import TEST_KEY
from tests.factories import make_card, make_user
from tests.pseudo_terminal import run_on_a_terminal

PINNED = legacy_fingerprint_key(TEST_KEY.encode()).hex()


async def _secrets(app: FastAPI) -> tuple[list[tuple[bytes, str]], list[bytes]]:
    """Every (pan ciphertext, fingerprint) and every 3DS code ciphertext."""
    reader = app.state.db.reader
    cards = await reader.rows("SELECT pan_ciphertext, pan_fingerprint FROM cards ORDER BY uuid")
    codes = await reader.rows("SELECT code_ciphertext FROM three_ds_codes ORDER BY uuid")
    return (
        [(bytes(row[0]), row[1]) for row in cards],
        [bytes(row[0]) for row in codes],
    )


async def _cards_and_a_code(app: FastAPI, client: httpx.AsyncClient) -> None:
    user = await make_user(app)
    for _ in range(3):
        _account, card = await make_card(app, client, user, funds="300")
    issued = await client.post(
        "/sandbox/3ds",
        headers=user.headers,
        json={"card_uuid": card, "merchant_name": "Shop", "amount": 1, "currency": "USD"},
    )
    assert issued.status_code == 201


async def test_rotation_reencrypts_everything_and_keeps_fingerprints(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    await _cards_and_a_code(app, client)
    before_cards, before_codes = await _secrets(app)
    new_key = generate_key()
    rotating = CardCipher([new_key.encode(), TEST_KEY.encode()], bytes.fromhex(PINNED))
    walked: list[tuple[str, int, int]] = []
    rotation = await rotate_keys(
        app.state.db, rotating, lambda *step: walked.append(step), batch_size=2
    )
    assert rotation.changed == 4
    assert walked == [("card", 2, 3), ("card", 3, 3), ("three_ds_code", 1, 1)]
    assert (await rotate_keys(app.state.db, rotating, lambda *_: None)).changed == 0  # resumable

    new_only, old_only = Fernet(new_key.encode()), Fernet(TEST_KEY.encode())
    after_cards, after_codes = await _secrets(app)
    for (old_ct, fingerprint), (new_ct, kept) in zip(before_cards, after_cards, strict=True):
        pan = old_only.decrypt(old_ct).decode()
        assert new_only.decrypt(new_ct).decode() == pan and kept == fingerprint
        with pytest.raises(InvalidToken):
            old_only.decrypt(new_ct)
    for old_ct, new_ct in zip(before_codes, after_codes, strict=True):
        assert new_only.decrypt(new_ct) == old_only.decrypt(old_ct)

    # The service on the new key alone: a repeated number still meets its fingerprint.
    retired = CardCipher([new_key.encode()], bytes.fromhex(PINNED))
    for (_ct, fingerprint), (new_ct, _kept) in zip(before_cards, after_cards, strict=True):
        assert retired.fingerprint(retired.decrypt(new_ct)) == fingerprint
    served = create_app(
        settings.model_copy(update={"encryption_key": new_key, "fingerprint_key": PINNED})
    )
    try:
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            user = await make_user(served)
            await make_card(served, http, user)
    finally:
        await served.state.db.dispose()
        await served.state.rate_limiter.close()


async def test_cli_rotate_needs_a_pinned_fingerprint_key(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The commands in process (Command); on a terminal, a process of its own."""
    await _cards_and_a_code(app, client)
    new_key = generate_key()
    both = settings.model_copy(update={"encryption_key": f"{new_key},{TEST_KEY}"})
    unpinned = Command(both, monkeypatch, capsys)
    assert _value(await unpinned.completed("keys", "fingerprint-key")) == PINNED
    refused = await unpinned.completed("keys", "rotate")
    assert refused.returncode == 2 and "CARDSERVICE_FINGERPRINT_KEY" in refused.stderr
    pinned = both.model_copy(update={"fingerprint_key": PINNED})
    result = await Command(pinned, monkeypatch, capsys).completed("keys", "rotate", "--batch", "2")
    assert _value(result) == "4"
    assert result.stderr == ""  # no progress bar in a pipe
    cards, _codes = await _secrets(app)
    assert all(Fernet(new_key.encode()).decrypt(ct) for ct, _fingerprint in cards)
    stdout, terminal = run_on_a_terminal(cli_env(pinned), "keys", "rotate", "--batch", "2")
    assert stdout == "0\n"  # the value alone on stdout, the bars on the terminal
    assert terminal.count("\n") == 2 and terminal.count("\r") >= 5
    assert re.search(r"card █{30} 100% 3/3\r?\n", terminal), terminal
    assert re.search(r"three_ds_code █{30} 100% 1/1\r?\n", terminal), terminal


def test_generated_key_lives_outside_the_database_directory(tmp_path: Path) -> None:
    settings = Settings(var_dir=tmp_path / "var", key_file=tmp_path / "keys" / "encryption.key")
    cipher = CardCipher.from_settings(settings)
    assert not (tmp_path / "var" / "encryption.key").exists()
    assert settings.resolved_key_file.stat().st_mode & 0o777 == 0o600
    again = CardCipher.from_settings(settings)
    assert again.decrypt(cipher.encrypt("4111111111111111")) == "4111111111111111"


def test_a_key_file_beside_the_database_is_moved(tmp_path: Path) -> None:
    legacy = tmp_path / "var" / "encryption.key"
    legacy.parent.mkdir()
    legacy.write_text(TEST_KEY)
    settings = Settings(var_dir=tmp_path / "var", key_file=tmp_path / "keys" / "encryption.key")
    cipher = CardCipher.from_settings(settings)
    assert not legacy.exists()
    assert settings.resolved_key_file.read_text().strip() == TEST_KEY
    old = Fernet(TEST_KEY.encode()).encrypt(b"4111111111111111")
    assert cipher.decrypt(old) == "4111111111111111"
    assert cipher.fingerprint_key == legacy_fingerprint_key(TEST_KEY.encode())

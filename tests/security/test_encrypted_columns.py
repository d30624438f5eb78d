"""Every secret kept under the card-data key is rotated and checked (docs/security.md,
"Where keys live"): `keys rotate` and `keys check` walk one registry of encrypted columns,
and no table holds an encrypted column outside it; a rotation leaves an audit row, stops at
a value no key reads (naming it), resumes, and never undoes a value a server wrote
meanwhile (tested with the command in a process of its own while the server writes)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from typing import Any

import httpx
import orjson
import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI
from sqlalchemy import LargeBinary

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.models import Base
from cardservice.models.base import utcnow
from cardservice.security import CardCipher, generate_key
from cardservice.security.repository import ENCRYPTED_COLUMNS
from cardservice.security.rotation import _move
from tests.cli.test_cli import Command, cli_env
from tests.conftest import TEST_KEY
from tests.decisions.conftest import set_endpoint
from tests.factories import Caller, make_card, make_user
from tests.network import conftest as network_fixtures
from tests.network.conftest import Network, issue_card
from tests.operator.helpers import operator_key, send
from tests.security.test_key_rotation import PINNED
from tests.tokens.conftest import provision
from tests.webhooks.drive import post

iso_settings = network_fixtures.iso_settings  # the ISO 8583 listener, to make a wallet token
network = network_fixtures.network
WEBHOOK = next(c for c in ENCRYPTED_COLUMNS if c.kind == "webhook_endpoint")

_STORED_BINARY = {
    "postgresql": "SELECT table_name, column_name FROM information_schema.columns "
    "WHERE table_schema = current_schema() AND data_type = 'bytea'",
    "sqlite": "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
    "WHERE m.type = 'table' AND upper(p.type) = 'BLOB'",
}


async def test_every_binary_column_is_a_registered_encrypted_column(app: FastAPI) -> None:
    registered = {(c.table, c.column) for c in ENCRYPTED_COLUMNS}
    declared = {
        (table.name, column.name)
        for table in Base.metadata.tables.values()
        for column in table.columns
        if isinstance(column.type, LargeBinary)
    }
    assert declared == registered  # the cipher's output is bytes: every bytes column is its
    dialect = "sqlite" if app.state.db.is_sqlite else "postgresql"
    stored = await app.state.db.reader.rows(_STORED_BINARY[dialect])
    assert {(row[0], row[1]) for row in stored} == registered  # and the migrations agree
    assert len({c.kind for c in ENCRYPTED_COLUMNS}) == len(ENCRYPTED_COLUMNS)


def _env(settings: Settings, *keys: str) -> Settings:
    return settings.model_copy(update={"encryption_key": ",".join(keys), "fingerprint_key": PINNED})


class _Keys:
    """`cardservice keys …` in this process (tests.cli.test_cli.Command) with the keys of a
    `_env` settings."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        self._monkeypatch, self._capsys = monkeypatch, capsys

    async def __call__(self, settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
        return await Command(settings, self._monkeypatch, self._capsys).completed(*args)


async def _webhook(client: httpx.AsyncClient, user: Caller, *, rotated: bool = False) -> str:
    made = await post(client, user, "/webhook-endpoints", {"url": "http://127.0.0.1:18499/h"})
    assert made.status_code == 201, made.text
    endpoint: str = made.json()["data"]["uuid"]
    if rotated:  # a previous secret that still signs
        again = await post(client, user, f"/webhook-endpoints/{endpoint}/rotate-secret", {})
        assert again.status_code == 200, again.text
    return endpoint


async def _one_of_each(app: FastAPI, client: httpx.AsyncClient, iso: Network) -> None:
    """A card, its 3DS code and wallet token, a webhook endpoint with a previous secret, a
    decision endpoint and the day's outgoing clearing file: a value in every encrypted column."""
    user, card = await issue_card(app, client)
    await provision(app, iso, card)  # before the decision endpoint, which it would ask
    code = await post(
        client, user, "/sandbox/3ds",
        {"card_uuid": card.uuid, "merchant_name": "Shop", "amount": 1, "currency": "USD"},
    )  # fmt: skip
    assert code.status_code == 201, code.text
    await _webhook(client, user, rotated=True)
    decision = await set_endpoint(client, user, "http://127.0.0.1:18599/decide")
    assert decision.status_code == 200, decision.text
    today = {"date": utcnow().date().isoformat()}
    key = await operator_key(app, "network")
    written = await send(client, "POST", "/operator/clearing-outgoing", key, today)
    assert written.status_code == 200, written.text


async def test_rotate_moves_every_secret_and_check_reads_them_under_the_new_key_alone(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    network: Network,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = _Keys(monkeypatch, capsys)  # in process: tests/cli proves the process
    await _one_of_each(app, client, network)
    new_key = generate_key()
    rotated = await cli(_env(settings, new_key, TEST_KEY), "keys", "rotate")
    assert rotated.returncode == 0, rotated.stderr
    [audit] = await app.state.db.reader.rows(
        "SELECT actor_type, actor_id, object_type, details FROM audit_log "
        "WHERE action = 'keys.rotated'"
    )
    details = orjson.loads(audit["details"])
    assert (audit["actor_type"], audit["actor_id"], audit["object_type"]) == (
        "system", "cli", "encryption_key",
    )  # fmt: skip
    every_kind = {c.kind: 1 for c in ENCRYPTED_COLUMNS}
    assert details == {"backend": "local", "read": every_kind, "reencrypted": every_kind}
    assert rotated.stdout.strip() == str(len(ENCRYPTED_COLUMNS))

    checked = await cli(_env(settings, new_key), "keys", "check")
    assert checked.returncode == 0, checked.stderr
    counts = ", ".join(f"{kind} 1" for kind in every_kind)
    read = f"{len(every_kind)} stored values read ({counts})"
    assert checked.stdout.strip() == f"ok: local keys; {read}"
    first_card = await app.state.db.reader.value("SELECT uuid FROM cards")
    old_only = await cli(_env(settings, TEST_KEY), "keys", "check")
    assert old_only.returncode == 2 and old_only.stdout == ""
    assert f"card {uuid.UUID(str(first_card))}: its value does not read" in old_only.stderr


async def test_check_names_the_first_unreadable_value_and_rotate_stops_there_then_resumes(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = _Keys(monkeypatch, capsys)  # in process: tests/cli proves the process
    user = await make_user(app)
    await make_card(app, client, user)
    endpoint = await _webhook(client, user)
    foreign = Fernet(generate_key().encode()).encrypt(b"whsec_lost")

    async def lose(tx: Any) -> None:
        await tx.execute(
            "UPDATE webhook_endpoints SET secret_ciphertext = $1 WHERE uuid = $2",
            foreign,
            uuid.UUID(endpoint),
        )

    await app.state.db.transact(lose)
    checked = await cli(_env(settings, TEST_KEY), "keys", "check")
    assert checked.returncode == 2
    assert f"webhook_endpoint {endpoint}: its value does not read" in checked.stderr
    new_key = generate_key()
    both = _env(settings, new_key, TEST_KEY)
    stopped = await cli(both, "keys", "rotate")
    assert stopped.returncode == 2 and f"webhook_endpoint {endpoint}" in stopped.stderr
    pan = await app.state.db.reader.value("SELECT pan_ciphertext FROM cards")
    assert Fernet(new_key.encode()).decrypt(bytes(pan))  # what came before it was moved
    assert not await app.state.db.reader.value("SELECT count(*) FROM audit_log")
    deleted = await client.delete(f"/webhook-endpoints/{endpoint}", headers=user.headers)
    assert deleted.status_code == 200
    resumed = await cli(both, "keys", "rotate")
    assert resumed.returncode == 0 and resumed.stdout.strip() == "0", resumed.stderr
    assert (await cli(_env(settings, new_key), "keys", "check")).returncode == 0


async def test_a_value_a_server_writes_after_rotation_read_it_is_kept(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    user = await make_user(app)
    endpoint = await _webhook(client, user)
    seen = await app.state.db.reader.value(
        "SELECT secret_ciphertext FROM webhook_endpoints WHERE uuid = $1", uuid.UUID(endpoint)
    )
    # a server (still writing with the old key) rotates the secret after rotation read it
    again = await post(client, user, f"/webhook-endpoints/{endpoint}/rotate-secret", {})
    written = again.json()["data"]["secret"]
    new_key = generate_key()
    rotating = CardCipher([new_key.encode(), TEST_KEY.encode()], bytes.fromhex(PINNED))
    moved = await app.state.db.transact(
        lambda tx: _move(tx, rotating, WEBHOOK, uuid.UUID(endpoint), bytes(seen))
    )
    assert moved == 1
    stored = await app.state.db.reader.value(
        "SELECT secret_ciphertext FROM webhook_endpoints WHERE uuid = $1", uuid.UUID(endpoint)
    )
    assert Fernet(new_key.encode()).decrypt(bytes(stored)).decode() == written


async def test_rotation_in_its_own_process_while_a_server_writes(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cli = _Keys(monkeypatch, capsys)  # in process: tests/cli proves the process
    user = await make_user(app)
    for _ in range(20):
        await _webhook(client, user)
    new_key = generate_key()
    both = _env(settings, new_key, TEST_KEY)
    served = create_app(both)  # a server rolled out with both keys
    secrets: dict[str, str] = {}
    try:
        transport = httpx.ASGITransport(app=served)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
            command = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "cardservice", "keys", "rotate", "--batch", "1",
                env=cli_env(both), stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            waiting = asyncio.create_task(command.communicate())
            while not waiting.done() or len(secrets) < 10:
                made = await _webhook(http, user)
                rotated = await post(http, user, f"/webhook-endpoints/{made}/rotate-secret", {})
                secrets[made] = rotated.json()["data"]["secret"]
            stdout, stderr = await waiting
    finally:
        await served.state.db.dispose()
        await served.state.rate_limiter.close()
    assert command.returncode == 0, stderr.decode()
    assert int(stdout) >= 20  # at least every endpoint made before it started
    checked = await cli(_env(settings, new_key), "keys", "check")
    assert checked.returncode == 0, checked.stderr
    new_only = CardCipher([new_key.encode()], bytes.fromhex(PINNED))
    for endpoint, secret in secrets.items():
        stored = await app.state.db.reader.value(
            "SELECT secret_ciphertext FROM webhook_endpoints WHERE uuid = $1", uuid.UUID(endpoint)
        )
        assert new_only.decrypt(bytes(stored)) == secret  # the server's last write stands

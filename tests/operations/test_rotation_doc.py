"""docs/operations.md, "Rotating the encryption key": its blocks run as written, in bash, with
the `cardservice` command against a real `cardservice serve` on the test's database; each
"roll out" restarts the server with the variables the blocks exported. Afterwards the server
holds the new key alone and delivers a webhook to a loopback receiver, to an endpoint made
before the rotation (its secret rotated too) and to one made during it, each verified with
the `standardwebhooks` library."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import orjson
from fastapi import FastAPI
from standardwebhooks import Webhook, WebhookVerificationError

from cardservice.config import Settings
from tests.conftest import TEST_CVK
from tests.operator.test_operations_doc import DOC, section_blocks
from tests.stress.bank_run import Server
from tests.webhooks.receiver import Received, Receiver

KEPT = re.compile(r"^declare -(\S+) (OLD|NEW|CARDSERVICE_\w+)=\"(.*)\"$")


async def run_block(block: str, env: dict[str, str], state: Path) -> str:
    """One block in bash after the variables the blocks before it left (`state`); what it
    leaves is written back there."""
    load = f'source "{state}"\n' if state.is_file() else ""  # noqa: ASYNC240 - a stat
    keep = f"declare -p | grep -E '^declare -[-x]+ (OLD|NEW|CARDSERVICE_[A-Z0-9_]+)=' > \"{state}\""
    done = await asyncio.to_thread(
        subprocess.run,
        ["bash", "-euo", "pipefail", "-c", f"{load}{block}\n{keep}"],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (block, done.stdout, done.stderr[-3000:])
    return done.stdout


def exported(state: Path) -> dict[str, str]:
    """The exported variables the blocks left, as the next roll-out gives them."""
    found = (KEPT.match(line) for line in state.read_text().splitlines())
    return {m.group(2): m.group(3) for m in found if m is not None and "x" in m.group(1)}


async def roll_out(server: Server, variables: dict[str, str]) -> None:
    server.kill()
    server.env.update(variables)
    await server.start()


async def _hook(http: httpx.AsyncClient, url: str, *, rotate: bool = False) -> list[str]:
    """A new endpoint's secrets, in the order it had them (its secret rotated once with
    `rotate`): an event committed before the endpoint was made may reach it before the
    rotation, signed with its first secret alone."""
    made = await http.post(
        "/webhook-endpoints", json={"url": url, "event_types": ["transaction.created"]}
    )
    assert made.status_code == 201, made.text
    record: dict[str, Any] = made.json()["data"]
    secrets: list[str] = [record["secret"]]
    if rotate:
        again = await http.post(f"/webhook-endpoints/{record['uuid']}/rotate-secret")
        assert again.status_code == 200, again.text
        secrets.append(again.json()["data"]["secret"])
    return secrets


def _cli(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "cardservice", *args],
        env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.strip()


async def test_the_rotation_steps_work_as_written_and_webhooks_still_deliver(
    app: FastAPI, settings: Settings, tmp_path: Path
) -> None:
    blocks = section_blocks(DOC.read_text(), "## Rotating the encryption key")
    assert len(blocks) == 2 and "keys rotate" in blocks[1]
    server = Server(settings.database_url, tmp_path / "serve")
    server.env.update(
        {
            "CARDSERVICE_CVK": TEST_CVK,
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        }
    )
    server.env.pop("CARDSERVICE_FINGERPRINT_KEY", None)
    receiver, state = Receiver(), tmp_path / "state.sh"
    await receiver.start()
    await server.start()
    try:
        await asyncio.to_thread(
            _cli, server.env, "users", "create", "--email", "op@example.com", "--name", "Op"
        )
        account = await asyncio.to_thread(
            _cli, server.env, "accounts", "create", "--email", "op@example.com",
            "--name", "Main", "--currency", "USD",
        )  # fmt: skip
        token = await asyncio.to_thread(
            _cli, server.env, "tokens", "issue", "--email", "op@example.com"
        )
        headers = {"Authorization": f"Bearer {token}"}
        async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=30) as http:
            deposited = await http.post(
                "/sandbox/deposits", json={"account_uuid": account, "amount": 500}
            )
            assert deposited.status_code == 201, deposited.text
            bins = (await http.get("/dictionary/bins")).json()["data"]
            usd = next(
                b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
            )
            bought = await http.post(
                "/card/buy", json={"account_uuid": account, "bin_uuid": usd, "start_balance": 100}
            )
            assert bought.status_code == 201, bought.text
            before = await _hook(http, receiver.url, rotate=True)  # under the old key

        await run_block(blocks[0], server.env, state)
        await roll_out(server, exported(state))
        async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=30) as http:
            during = await _hook(http, receiver.url)  # under the new key, both listed
        out = await run_block(blocks[1], server.env, state)
        rotated, checked = out.splitlines()
        assert int(rotated) >= 3  # the card, the first endpoint's two secrets
        assert checked.startswith("ok: local keys;")
        retired = exported(state)
        assert "," not in retired["CARDSERVICE_ENCRYPTION_KEY"]
        await roll_out(server, retired)

        async with httpx.AsyncClient(base_url=server.base, headers=headers, timeout=30) as http:
            deposited = await http.post(
                "/sandbox/deposits", json={"account_uuid": account, "amount": 5}
            )
            assert deposited.status_code == 201, deposited.text
        last = deposited.json()["data"]["uuid"]
        async with asyncio.timeout(30):  # the last deposit's event, to both endpoints
            while len(lasts := _about(receiver, last)) < 2:  # noqa: ASYNC110 - a plain list
                await asyncio.sleep(0.05)
        assert sorted(_signer(r, before, during) for r in lasts) == ["before", "during"]
        assert all(_signer(r, before, during) for r in receiver.received)
        audited = await app.state.db.reader.value(
            "SELECT count(*) FROM audit_log WHERE action = 'keys.rotated'"
        )
        assert audited == 1
    finally:
        server.kill()
        await receiver.close()


def _about(receiver: Receiver, transaction: str) -> list[Received]:
    return [r for r in receiver.received if orjson.loads(r.body)["data"]["uuid"] == transaction]


def _signer(received: Received, before: list[str], during: list[str]) -> str | None:
    """Which endpoint's secrets signed the request (None: neither's)."""
    for name, secrets in (("before", before), ("during", during)):
        for secret in secrets:
            try:
                Webhook(secret).verify(received.body, received.headers)
            except WebhookVerificationError:  # not this one's
                continue
            return name
    return None

"""Network run: `cardservice network run --seed 1 --seconds 60 --faults all` against
`cardservice serve --workers 2 --iso8583-port …` on a fresh PostgreSQL database (real
processes; the two workers share the ISO 8583 port with SO_REUSEPORT).

    python -m tests.stress.network_run --seconds 60      # make stress

The simulator checks its own bookkeeping (0 cents lost, 0 applied twice, every answer within
3 s) and exits non-zero when a check fails; so does this run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import asyncpg

from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from tests.stress.bank_run import ADMIN_DSN, Server


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _database() -> tuple[str, str]:
    name = f"cs_network_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(ADMIN_DSN)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    url = ADMIN_DSN.rsplit("/", 1)[0] + "/" + name
    await upgrade_database(Settings(database_url=url).resolved_database_url)
    return name, url


async def _drop(name: str) -> None:
    admin = await asyncpg.connect(ADMIN_DSN)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def main(seconds: float, seed: int) -> int:
    name, url = await _database()
    iso_port = _free_port()
    with tempfile.TemporaryDirectory(prefix="cs-network-run-") as workdir:
        server = Server(url, Path(workdir), workers=2)
        server.env["CARDSERVICE_ISO8583_PORT"] = str(iso_port)
        await server.start()
        try:
            done = await asyncio.to_thread(
                subprocess.run,
                [
                    *(sys.executable, "-m", "cardservice", "network", "run"),
                    *("--seed", str(seed), "--seconds", str(seconds), "--faults", "all"),
                    *("--port", str(iso_port)),
                ],
                env={**server.env, **{k: v for k, v in os.environ.items() if k == "PATH"}},
                check=False,
            )
        finally:
            server.kill()
            await _drop(name)
    return done.returncode


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    sys.exit(asyncio.run(main(arguments.seconds, arguments.seed)))

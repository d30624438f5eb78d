"""docs/operations.md, "Running a program": its shell blocks run as written, in order, in
bash against a real `cardservice serve` on the test's database; every curl is `-f`, so any
answer ≥ 400 fails the run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi import FastAPI

from cardservice.config import Settings
from tests.cli.test_cli import cli_env
from tests.stress.bank_run import Server

DOC = Path(__file__).parents[2] / "docs" / "operations.md"
BLOCK = re.compile(r"```sh\n(.*?)```", re.S)


def section_blocks(text: str, title: str = "## Running a program") -> list[str]:
    """The ```sh blocks of one `## ` section, in order."""
    start = text.index(title)
    end = text.find("\n## ", start + len(title))
    return BLOCK.findall(text[start : end if end != -1 else None])


@pytest.fixture
async def server(app: FastAPI, settings: Settings, tmp_path: Path) -> Server:
    serving = Server(settings.database_url, tmp_path / "serve")
    serving.env.update(cli_env(settings))
    serving.env["CARDSERVICE_SANDBOX"] = "1"
    await serving.start()
    return serving


async def test_the_running_a_program_examples_work_as_written(server: Server) -> None:
    blocks = section_blocks(DOC.read_text())
    assert len(blocks) >= 6 and all(
        "curl" in b or "cardservice" in b or "json()" in b for b in blocks
    )
    env = {
        **server.env,
        "BASE": server.base,
        # the program-wide webhook's receiver: loopback (the sandbox allows it), where nothing
        # listens — its deliveries fail here, never leave the machine
        "HOOK_URL": "http://127.0.0.1:9/hooks",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    try:
        done = subprocess.run(  # noqa: ASYNC221 - nothing else runs on this loop meanwhile
            ["bash", "-euo", "pipefail", "-c", "\n".join(blocks)],
            env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
    finally:
        server.kill()
    assert done.returncode == 0, (done.stdout[-300:], done.stderr[-3000:])
    out = done.stdout
    assert '"idempotency_conflict"' not in out and out.count('"type":"deposit"') >= 2
    assert '"type":"withdrawal"' in out and "}}401\n" in out
    assert "/app/login?link=" in out and '"status":"completed"' in out
    audited = re.search(r"(\d+)\s*$", out)
    assert audited is not None and int(audited.group(1)) >= 10  # the operator's writes

"""`cardservice serve --workers 2` SIGKILLed (the OOM killer, `kill -9`): nothing stops its
processes then, and each ends by itself (`infra/processes.py`) — its HTTP workers, which would
otherwise go on answering on the server's port (a new server could not bind it), and its
network processes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from cardservice.config import Settings
from tests.live_server import serve_env, wait_ready
from tests.network.conftest import free_port

PATIENCE = 30.0  # seconds: a safety net for a loaded machine, not a measurement


def _children(parent: int) -> list[int]:
    """The processes whose parent is `parent` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:  # gone meanwhile
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def _running(pid: int) -> bool:
    """Alive and not a zombie waiting for whoever adopted it to reap it."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def test_a_killed_servers_workers_end_and_free_its_ports(settings: Settings) -> None:
    port, iso_port = free_port(), free_port()
    env = serve_env(settings, CARDSERVICE_EMBEDDED_WORKER="0")
    command = [sys.executable, "-m", "cardservice", "serve", "--workers", "2"]
    command += ["--port", str(port), "--iso8583-port", str(iso_port)]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    workers: list[int] = []
    try:
        wait_ready(f"http://127.0.0.1:{port}", process)
        workers = _children(process.pid)
        assert len(workers) >= 4  # two HTTP workers, two network processes (and a tracker)
        assert _listening(port) and _listening(iso_port)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=PATIENCE)
        deadline = time.monotonic() + PATIENCE
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not [pid for pid in workers if _running(pid)], "a worker outlived its server"
        assert not _listening(port) and not _listening(iso_port)
    finally:
        for pid in workers:
            if _running(pid):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()
            process.wait()

"""Running a `cardservice` command with its stderr on a pseudo-terminal, as a person's shell
runs it: what the terminal showed is read while the command runs, so a long job's redrawn
progress bar never fills the terminal's buffer and stalls the command."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
import threading


def run_on_a_terminal(env: dict[str, str], *args: str) -> tuple[str, str]:
    """Run `cardservice *args` with stderr on a pseudo-terminal and stdout in a pipe:
    (stdout, everything the terminal showed)."""
    leader, follower = pty.openpty()
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the terminal's other end is closed and drained
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "cardservice", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=follower,
            timeout=120,
            check=True,
        )
    finally:
        os.close(follower)
        reader.join(timeout=10)
        os.close(leader)
    return done.stdout.decode(), b"".join(shown).decode()

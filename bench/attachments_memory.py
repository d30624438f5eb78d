"""Peak RSS of a server worker while ten 10 MiB attachments are uploaded in a row.

    python -m bench.attachments_memory

Starts `cardservice serve` on a temporary SQLite database, uploads ten different 10 MiB PDFs
(base64, ~13.3 MiB bodies) one after the other, and reads the worker's peak RSS (VmHWM) from
/proc. Prints the baseline after start, the peak, and their ratio; exits 1 above 200 MB.
"""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from bench.run import _free_port

LIMIT_MB = 200
FILE_BYTES = 10 * 1024 * 1024


def _rss_mb(pid: int, field: str) -> float:
    match = re.search(rf"{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text())
    return int(match.group(1)) / 1024 if match else 0.0


def main() -> int:
    with tempfile.TemporaryDirectory() as workdir:
        env = {**os.environ, "CARDSERVICE_VAR_DIR": workdir, "CARDSERVICE_LOG_LEVEL": "WARNING"}

        def cli(*args: str) -> str:
            return subprocess.run(
                [sys.executable, "-m", "cardservice", *args],
                env=env,
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()

        cli("db", "upgrade")
        cli("users", "create", "--email", "mem@bench.example", "--name", "Memory")
        token = cli("tokens", "issue", "--email", "mem@bench.example")
        port = _free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "cardservice", "serve", "--port", str(port)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            base = f"http://127.0.0.1:{port}"
            for _ in range(300):
                try:
                    if httpx.get(f"{base}/ready").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            baseline = _rss_mb(server.pid, "VmRSS")
            headers = {"Authorization": f"Bearer {token}"}
            with httpx.Client(base_url=base, headers=headers, timeout=120) as client:
                for index in range(10):
                    data = b"%PDF-1.7\n" + os.urandom(FILE_BYTES - 9)
                    body = {"type": "document", "file": base64.b64encode(data).decode()}
                    del data
                    response = client.post("/attachment", json=body)
                    assert response.status_code == 201, response.text
                    print(
                        f"upload {index + 1}: {response.json()['data']['size']} bytes",
                        file=sys.stderr,
                    )
            peak = _rss_mb(server.pid, "VmHWM")
        finally:
            server.terminate()
            server.wait(timeout=30)
    print(f"{'baseline RSS after start':<28} {baseline:8.1f} MB")
    print(f"{'peak RSS (VmHWM)':<28} {peak:8.1f} MB")
    print(f"{'peak / baseline':<28} {peak / baseline:8.2f}")
    print(f"{'limit':<28} {LIMIT_MB:8.1f} MB -> {'ok' if peak <= LIMIT_MB else 'OVER'}")
    return 0 if peak <= LIMIT_MB else 1


if __name__ == "__main__":
    raise SystemExit(main())

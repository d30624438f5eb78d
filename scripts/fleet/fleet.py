"""The fleet on one machine, everything under var/fleet/ and stopped by its own pid files.

    python -m scripts.fleet.fleet start     # make fleet
    python -m scripts.fleet.fleet stop      # make fleet-stop
    python -m scripts.fleet.fleet status

HAProxy on 127.0.0.1:8080 (health checks on /ready) → three `cardservice serve` instances
(18301-18303) → a PostgreSQL primary (5440, its own cluster made by the machine's initdb,
WAL archived to var/fleet/wal-archive) streaming to a hot standby (5441, pg_basebackup,
`CARDSERVICE_REPLICA_URL` of the instances: the reads that may lag); Redis on 6390 holds the
shared rate limits and the standby's read pins. Clusters: `scripts/fleet/clusters.py`. The
machine's own PostgreSQL (5432) is never touched. No PgBouncer: Debian ships 1.18, and
asyncpg's prepared statements need 1.21 (`max_prepared_statements`) in transaction mode; see
docs/operations.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

from scripts.fleet.clusters import (
    Cluster,
    owned_by_postgres,
    primary_conf,
)

ROOT = Path(__file__).resolve().parents[2]
FLEET = ROOT / "var" / "fleet"
PIDS, LOGS = FLEET / "pids", FLEET / "logs"
DATABASE = "cardservice"
DSN = f"postgresql://postgres@127.0.0.1:5440/{DATABASE}"
STANDBY_DSN = f"postgresql://postgres@127.0.0.1:5441/{DATABASE}"
REDIS_PORT, PROXY_PORT = 6390, 8080
PROXY = f"http://127.0.0.1:{PROXY_PORT}"
INSTANCE_PORTS = (18301, 18302, 18303)
# ISO 8583 (API.md §14): each instance's listener is its HTTP port + 1000; HAProxy's TCP
# frontend on 8583 spreads acquirers' long-lived connections over them (docs/network.md)
ISO8583_PORT, ISO8583_OFFSET = 8583, 1000
SLOT = "fleet_standby"
UNAVAILABLE_503 = (
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    "Retry-After: 2\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
    '{"success":false,"message":"No instance is ready; retry shortly.",'
    '"code":"service_unavailable"}\n'
)


PRIMARY, STANDBY = Cluster("primary", 5440, FLEET), Cluster("standby", 5441, FLEET)


def init_primary() -> None:
    """A new cluster (trust on 127.0.0.1) archiving its WAL, once."""
    PRIMARY.init_primary(primary_conf(PRIMARY.port, FLEET, FLEET / "wal-archive"))


def migrate_database() -> None:
    """The service's database on the primary, created once and migrated every start."""
    if PRIMARY.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'") != "1":
        PRIMARY.psql(f'CREATE DATABASE "{DATABASE}"')
    subprocess.run([*cardservice(), "db", "upgrade"], env=instance_env(), check=True)


def init_standby() -> None:
    """The hot standby, cloned once on the slot `fleet_standby`, the archive as its fallback."""
    STANDBY.clone_standby(PRIMARY, SLOT, FLEET / "wal-archive")


def encryption_key() -> str:
    path = FLEET / "encryption.key"
    if not path.exists():
        key = subprocess.run(
            [*cardservice(), "keys", "generate"], capture_output=True, text=True, check=True
        )
        path.write_text(key.stdout.strip() + "\n")
        path.chmod(0o600)
    return path.read_text().strip()


def cardservice() -> list[str]:
    return [sys.executable, "-m", "cardservice"]


def instance_env() -> dict[str, str]:
    """What every instance shares: database, key, Redis, blob store."""
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": DSN,
        "CARDSERVICE_REPLICA_URL": STANDBY_DSN,  # the reads docs/operations.md lists
        "CARDSERVICE_ENCRYPTION_KEY": encryption_key(),
        "CARDSERVICE_REDIS_URL": f"redis://127.0.0.1:{REDIS_PORT}/0",
        "CARDSERVICE_STORAGE_DIR": str(FLEET / "blobs"),
        "CARDSERVICE_VAR_DIR": str(FLEET / "instances"),
        "CARDSERVICE_SANDBOX": "1",  # the chaos run drives the card-network simulator
        "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "1000000",  # one token drives the whole load
        "CARDSERVICE_DB_POOL_SIZE": "5",
        "CARDSERVICE_LOG_LEVEL": "WARNING",
    }


def read_pid(name: str, marker: str) -> int | None:
    """The pid in `pids/<name>.pid` if that process is alive and is still ours (`marker` in
    its command line: a pid reused by another program is never signalled)."""
    try:
        pid = int((PIDS / f"{name}.pid").read_text().split()[0])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except (FileNotFoundError, ValueError, IndexError):
        return None
    return pid if marker in cmdline else None


def stop_pid(name: str, marker: str, sig: signal.Signals = signal.SIGTERM) -> None:
    pid = read_pid(name, marker)
    if pid is not None:
        os.kill(pid, sig)
        for _ in range(200):
            if read_pid(name, marker) is None or _zombie(pid):
                break
            time.sleep(0.05)
        else:
            os.kill(pid, signal.SIGKILL)
    (PIDS / f"{name}.pid").unlink(missing_ok=True)


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z"
    except FileNotFoundError:
        return True


def start_redis() -> None:
    if read_pid("redis", "redis-server") is not None:
        return
    (FLEET / "redis").mkdir(exist_ok=True)
    subprocess.run(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(REDIS_PORT),
            "--daemonize",
            "yes",
            "--pidfile",
            str(PIDS / "redis.pid"),
            "--dir",
            str(FLEET / "redis"),
            "--save",
            "",
            "--appendonly",
            "no",
            "--logfile",
            str(LOGS / "redis.log"),
        ],
        check=True,
    )
    _wait(lambda: read_pid("redis", "redis-server") is not None, "Redis")


def stop_redis() -> None:
    stop_pid("redis", "redis-server")


def start_instance(port: int, env: dict[str, str] | None = None) -> None:
    """One `cardservice serve` (one worker: two cores for three instances), ready on /ready;
    `env` instead of `instance_env()` if given."""
    name = f"instance-{port}"
    if read_pid(name, "cardservice") is not None:
        return
    with (LOGS / f"{name}.log").open("ab") as log:
        process = subprocess.Popen(
            [
                *cardservice(),
                "serve",
                "--port",
                str(port),
                "--iso8583-port",
                str(port + ISO8583_OFFSET),
            ],
            env=env or instance_env(),
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    (PIDS / f"{name}.pid").write_text(f"{process.pid}\n")
    _wait(lambda: _ready(f"http://127.0.0.1:{port}"), name)


def kill_instance(port: int) -> None:
    """SIGKILL, no goodbye (the chaos run's crash)."""
    stop_pid(f"instance-{port}", "cardservice", signal.SIGKILL)


def stop_instance(port: int) -> None:
    stop_pid(f"instance-{port}", "cardservice")


def haproxy_config() -> str:
    servers = "\n".join(f"    server i{port} 127.0.0.1:{port} check" for port in INSTANCE_PORTS)
    iso_servers = "\n".join(
        f"    server iso{port} 127.0.0.1:{port + ISO8583_OFFSET} check" for port in INSTANCE_PORTS
    )
    return f"""global
    maxconn 4000

defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    # a saturated instance answers /ready late: 1 s, then 3 s, marked the only one down
    timeout check 5s
    retries 2
    option redispatch
    # only a connection that was never made is retried: a sent request may have been applied
    retry-on conn-failure
    errorfile 503 {FLEET / "haproxy-503.http"}

frontend api
    bind 127.0.0.1:{PROXY_PORT}
    # metrics are scraped from each instance's own port, never through the public door
    http-request deny deny_status 404 if {{ path /metrics }}
    default_backend cardservice

backend cardservice
    balance roundrobin
    option httpchk GET /ready
    http-check expect status 200
    default-server inter 1s fall 3 rise 1
{servers}

# ISO 8583: TCP, long-lived connections (an idle acquirer sends 0800 echoes), each to the
# instance with the fewest; a TCP connect is the health check
frontend iso8583
    mode tcp
    bind 127.0.0.1:{ISO8583_PORT}
    timeout client 1h
    default_backend cardservice_iso8583

backend cardservice_iso8583
    mode tcp
    balance leastconn
    timeout server 1h
    default-server inter 1s fall 3 rise 1
{iso_servers}
"""


def start_haproxy() -> None:
    if read_pid("haproxy", "haproxy") is not None:
        return
    if shutil.which("haproxy") is None:
        subprocess.run(["apt-get", "install", "-y", "-q", "haproxy"], check=True)
    (FLEET / "haproxy-503.http").write_text(UNAVAILABLE_503)
    config = FLEET / "haproxy.cfg"
    config.write_text(haproxy_config())
    subprocess.run(
        ["haproxy", "-D", "-f", str(config), "-p", str(PIDS / "haproxy.pid")], check=True
    )
    _wait(lambda: _ready(PROXY), "HAProxy")


def stop_haproxy() -> None:
    stop_pid("haproxy", "haproxy")


def _ready(base: str) -> bool:
    try:
        with urllib.request.urlopen(f"{base}/ready", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _wait(check: Callable[[], bool], what: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"fleet: {what} did not come up (logs in {LOGS})")
        time.sleep(0.1)


def start() -> None:
    for directory in (FLEET / "blobs", FLEET / "instances"):
        directory.mkdir(parents=True, exist_ok=True)
    PRIMARY.prepare_root()  # pids, logs, run: the clusters write their logs and sockets there
    owned_by_postgres(FLEET / "wal-archive")
    init_primary()
    if not PRIMARY.running():
        PRIMARY.start()
    migrate_database()
    init_standby()
    if not STANDBY.running():
        STANDBY.start()
    start_redis()
    for port in INSTANCE_PORTS:
        start_instance(port)
    start_haproxy()
    print(f"fleet up: {PROXY} → instances {', '.join(map(str, INSTANCE_PORTS))}")
    listeners = ", ".join(str(port + ISO8583_OFFSET) for port in INSTANCE_PORTS)
    print(f"ISO 8583: 127.0.0.1:{ISO8583_PORT} → {listeners}")
    print(f"primary {DSN}  standby {STANDBY_DSN}  redis :{REDIS_PORT}")


def stop() -> None:
    """Stop what `start` started, in reverse order; the data stays under var/fleet."""
    stop_haproxy()
    for port in INSTANCE_PORTS:
        stop_instance(port)
    stop_redis()
    STANDBY.stop()
    PRIMARY.stop()
    print("fleet stopped")


def status() -> None:
    for name, marker in (
        ("haproxy", "haproxy"),
        ("redis", "redis-server"),
        *tuple((f"instance-{port}", "cardservice") for port in INSTANCE_PORTS),
    ):
        print(f"{name:16} {'up' if read_pid(name, marker) else 'down'}")
    for cluster in (PRIMARY, STANDBY):
        print(f"pg-{cluster.name:13} {'up' if cluster.running() else 'down'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", choices=["start", "stop", "status"])
    command = parser.parse_args().command
    {"start": start, "stop": stop, "status": status}[command]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

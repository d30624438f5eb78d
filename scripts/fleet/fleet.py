"""The fleet on one machine, everything under var/fleet/ and stopped by its own pid files.

    python -m scripts.fleet.fleet start     # make fleet
    python -m scripts.fleet.fleet stop      # make fleet-stop
    python -m scripts.fleet.fleet status

Three etcd members (clients 2391-2393) hold the cluster's state; three Patroni daemons (REST
8009-8011) each run one PostgreSQL node (5441-5443, `var/fleet/pg-N`) and elect one leader
through etcd: synchronous replication to one standby (strict), pg_rewind for a demoted
leader. HAProxy sends the service's database connections (5440) to the node whose Patroni
answers `GET /primary` 200, and the standby reads (5444) to the one answering `GET /sync`;
it balances HTTP (8080, health on /ready) and ISO 8583 (8583) over three `cardservice serve`
instances (18301-18303, ISO on +1000). Redis on 6390 holds the shared rate limits and the
standby's read pins. The machine's own PostgreSQL (5432) is never touched. No PgBouncer:
Debian ships 1.18, and asyncpg's prepared statements need 1.21 (`max_prepared_statements`)
in transaction mode; see docs/operations.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

from scripts.fleet.clusters import PG_BIN, owned_by_postgres

ROOT = Path(__file__).resolve().parents[2]
FLEET = ROOT / "var" / "fleet"
PIDS, LOGS = FLEET / "pids", FLEET / "logs"
DATABASE = "cardservice"
LEADER_PORT, SYNC_STANDBY_PORT = 5440, 5444  # HAProxy: the leader, the synchronous standby
DSN = f"postgresql://postgres@127.0.0.1:{LEADER_PORT}/{DATABASE}"
STANDBY_DSN = f"postgresql://postgres@127.0.0.1:{SYNC_STANDBY_PORT}/{DATABASE}"
REDIS_PORT, PROXY_PORT = 6390, 8080
PROXY = f"http://127.0.0.1:{PROXY_PORT}"
INSTANCE_PORTS = (18301, 18302, 18303)
# ISO 8583 (docs/network.md#the-network-interface-iso-8583): each instance's listener is its HTTP
# port + 1000; HAProxy's TCP frontend on 8583 spreads acquirers' long-lived connections over them
# (docs/network.md)
ISO8583_PORT, ISO8583_OFFSET = 8583, 1000
NODES = (1, 2, 3)  # etcd member N and PostgreSQL node N (under Patroni N) share the number
SCOPE = "cardservice-fleet"
# Patroni's timings (docs/operations.md, "High availability"): a crashed leader is failed
# over at its Patroni's next loop (primary_start_timeout 0, loop_wait 1 s); a leader whose
# Patroni died too loses its key when the key's ttl (10 s) runs out. ttl must cover
# loop_wait + 2 × retry_timeout (1 + 2 × 4 = 9 s): a leader that cannot reach etcd for
# retry_timeout demotes itself before its key can expire and another node promote.
TTL, LOOP_WAIT, RETRY_TIMEOUT = 10, 1, 4
UNAVAILABLE_503 = (
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
    "Retry-After: 2\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
    '{"success":false,"message":"No instance is ready; retry shortly.",'
    '"code":"service_unavailable"}\n'
)


def etcd_client_port(node: int) -> int:
    return 2390 + node


def etcd_peer_port(node: int) -> int:
    return 2490 + node


def pg_port(node: int) -> int:
    return 5440 + node


def rest_port(node: int) -> int:
    return 8008 + node


def patroni_config_path(node: int) -> Path:
    return FLEET / f"patroni-{node}.yml"


def patroni_config(node: int) -> dict[str, object]:
    """Node N's Patroni configuration (written as YAML: JSON is YAML). `bootstrap.dcs` is
    the cluster-wide part, stored in etcd by the node that initialises the cluster."""
    archive = FLEET / "wal-archive"
    hosts = [f"127.0.0.1:{etcd_client_port(n)}" for n in NODES]
    return {
        "scope": SCOPE,
        "namespace": "/cardservice/",
        "name": f"pg{node}",
        "restapi": {
            "listen": f"127.0.0.1:{rest_port(node)}",
            "connect_address": f"127.0.0.1:{rest_port(node)}",
        },
        "etcd3": {"hosts": hosts},
        "bootstrap": {
            "dcs": {
                "ttl": TTL,
                "loop_wait": LOOP_WAIT,
                "retry_timeout": RETRY_TIMEOUT,
                "maximum_lag_on_failover": 1048576,
                "primary_start_timeout": 0,
                "synchronous_mode": True,
                "synchronous_mode_strict": True,
                "postgresql": {
                    "use_pg_rewind": True,
                    "use_slots": True,
                    "parameters": {
                        "max_connections": 150,
                        "shared_buffers": "128MB",
                        "wal_level": "replica",
                        "hot_standby": "on",
                        "wal_log_hints": "on",
                        "max_wal_senders": 10,
                        "max_replication_slots": 10,
                        "wal_keep_size": "512MB",
                        "archive_mode": "on",
                        "archive_command": f"test ! -f {archive}/%f && cp %p {archive}/%f",
                        # a standby whose leader died connects to the new one within 0.5 s
                        "wal_retrieve_retry_interval": "500ms",
                        # the statements the service runs, counted (docs/operations.md,
                        # "Past one primary")
                        "shared_preload_libraries": "pg_stat_statements",
                    },
                },
            },
            "initdb": [{"encoding": "UTF8"}, {"auth": "trust"}],
        },
        "postgresql": {
            "listen": f"127.0.0.1:{pg_port(node)}",
            "connect_address": f"127.0.0.1:{pg_port(node)}",
            "data_dir": str(FLEET / f"pg-{node}"),
            "bin_dir": str(PG_BIN),
            "pgpass": str(FLEET / "run" / f"pgpass-{node}"),
            "authentication": {
                "superuser": {"username": "postgres"},
                "replication": {"username": "postgres"},
                "rewind": {"username": "postgres"},
            },
            "parameters": {"unix_socket_directories": str(FLEET / "run")},
            "pg_hba": [
                "local all all trust",
                "host all all 127.0.0.1/32 trust",
                "host replication all 127.0.0.1/32 trust",
            ],
        },
        "watchdog": {"mode": "off"},
        "tags": {"nofailover": False, "noloadbalance": False, "clonefrom": False},
    }


def _spawn(name: str, command: list[str], *, user: str | None = None) -> int:
    """Start `command` in a session of its own, its output in logs/<name>.log, its pid in
    pids/<name>.pid."""
    with (LOGS / f"{name}.log").open("ab") as log:
        process = subprocess.Popen(
            command,
            stdout=log,
            stderr=log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            cwd=FLEET,
            user=user if os.geteuid() == 0 else None,
            env={**os.environ, "HOME": str(FLEET)} if user else None,
        )
    (PIDS / f"{name}.pid").write_text(f"{process.pid}\n")
    return process.pid


def start_etcd(node: int) -> None:
    name = f"etcd-{node}"
    if read_pid(name, "etcd") is not None:
        return
    cluster = ",".join(f"e{n}=http://127.0.0.1:{etcd_peer_port(n)}" for n in NODES)
    client, peer = (
        f"http://127.0.0.1:{etcd_client_port(node)}",
        f"http://127.0.0.1:{etcd_peer_port(node)}",
    )
    _spawn(
        name,
        [
            "etcd", "--name", f"e{node}", "--data-dir", str(FLEET / name),
            "--listen-client-urls", client, "--advertise-client-urls", client,
            "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", cluster, "--initial-cluster-token", SCOPE,
            "--initial-cluster-state", "new",
            # a member is declared gone after 1 s without the leader's heartbeat (0.1 s)
            "--heartbeat-interval", "100", "--election-timeout", "1000",
        ],
    )  # fmt: skip


def etcd_healthy(node: int) -> bool:
    try:
        url = f"http://127.0.0.1:{etcd_client_port(node)}/health"
        with urllib.request.urlopen(url, timeout=1) as response:
            return bool(json.load(response).get("health") == "true")
    except (OSError, ValueError):
        return False


def kill_etcd(node: int) -> None:
    stop_pid(f"etcd-{node}", "etcd", signal.SIGKILL)


def start_patroni(node: int) -> None:
    name = f"patroni-{node}"
    if read_pid(name, "patroni") is not None:
        return
    config = patroni_config_path(node)
    config.write_text(json.dumps(patroni_config(node), indent=2) + "\n")
    _spawn(name, ["patroni", str(config)], user="postgres")


def kill_patroni(node: int) -> None:
    stop_pid(f"patroni-{node}", "patroni", signal.SIGKILL)


def patroni_state(node: int) -> dict[str, object] | None:
    """Node N's Patroni REST `GET /patroni` (role, state, timeline), or None if it is down."""
    try:
        url = f"http://127.0.0.1:{rest_port(node)}/patroni"
        with urllib.request.urlopen(url, timeout=1) as response:
            found: dict[str, object] = json.load(response)
            return found
    except urllib.error.HTTPError as refused:  # 503: Patroni answers, PostgreSQL is not up
        found = json.loads(refused.read() or b"{}")
        return found
    except (OSError, ValueError):
        return None


def members() -> list[dict[str, object]]:
    """The cluster's members as any live Patroni sees them (`GET /cluster`)."""
    for node in NODES:
        try:
            url = f"http://127.0.0.1:{rest_port(node)}/cluster"
            with urllib.request.urlopen(url, timeout=1) as response:
                found: list[dict[str, object]] = json.load(response)["members"]
                return found
        except (OSError, ValueError, KeyError):
            continue
    return []


def leader() -> int | None:
    """The node that is the running leader now, by its own Patroni's word."""
    for node in NODES:
        state = patroni_state(node)
        if state and state.get("role") in ("master", "primary") and state.get("state") == "running":
            return node
    return None


def sync_standby() -> int | None:
    """The node that is the synchronous standby now, by the cluster's word."""
    for member in members():
        if member.get("role") == "sync_standby":
            return int(str(member["name"]).removeprefix("pg"))
    return None


def restart_leader() -> None:
    """The leader's PostgreSQL restarted in place by Patroni (`patronictl restart`: a fast
    shutdown and a start, the leader key kept), until the cluster is whole again."""
    node = leader()
    if node is None:
        raise SystemExit("fleet: no leader to restart")
    subprocess.run(
        ["patronictl", "-c", str(patroni_config_path(1)), "restart", SCOPE, f"pg{node}", "--force"],
        check=True,
        capture_output=True,
    )
    wait_healthy()


def reinit_stragglers() -> list[str]:
    """Members neither leading nor streaming (`starting`, `start failed`, stopped) cloned anew
    from the leader (`patronictl reinit`); their names."""
    stuck = [
        str(member["name"])
        for member in members()
        if member.get("role") != "leader" and member.get("state") not in ("running", "streaming")
    ]
    for name in stuck:
        subprocess.run(
            ["patronictl", "-c", str(patroni_config_path(1)), "reinit", SCOPE, name, "--force"],
            check=True,
            capture_output=True,
        )
    return stuck


def postmaster_pid(node: int) -> int | None:
    """The pid of node N's postmaster (its `postmaster.pid`), if that process is alive."""
    try:
        pid = int((FLEET / f"pg-{node}" / "postmaster.pid").read_text().split()[0])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (FileNotFoundError, ValueError, IndexError):
        return None
    return pid if b"postgres" in cmdline else None


def kill_postmaster(node: int) -> int | None:
    """SIGKILL node N's postmaster (its backends see it die and exit); its pid."""
    pid = postmaster_pid(node)
    if pid is not None:
        os.kill(pid, signal.SIGKILL)
    return pid


def healthy() -> bool:
    """Three members running, one the leader, one a synchronous standby, and every standby
    on the leader's timeline with a known lag (following it, not still finding its way):
    what `patronictl list` shows once a failover has healed."""
    found = members()
    leaders = [member for member in found if member.get("role") == "leader"]
    if len(found) != len(NODES) or len(leaders) != 1:
        return False
    timeline = leaders[0].get("timeline")
    standbys = [member for member in found if member.get("role") != "leader"]
    return (
        all(member.get("state") in ("running", "streaming") for member in found)
        and any(member.get("role") == "sync_standby" for member in standbys)
        and all(
            member.get("timeline") == timeline and isinstance(member.get("lag"), int)
            for member in standbys
        )
    )


def wait_healthy(seconds: float = 120) -> None:
    _wait(healthy, "the Patroni cluster (three members, a leader, a synchronous standby)", seconds)


def start_cluster() -> None:
    """etcd, then Patroni on each node (the first to take etcd's initialise key runs initdb,
    the others clone it with pg_basebackup), until the cluster is whole."""
    for node in NODES:
        start_etcd(node)
    _wait(lambda: all(etcd_healthy(node) for node in NODES), "etcd")
    for node in NODES:
        start_patroni(node)
    wait_healthy()


def stop_cluster() -> None:
    """Patroni stops its PostgreSQL on SIGTERM (fast shutdown); then etcd."""
    for node in NODES:
        stop_pid(f"patroni-{node}", "patroni", timeout=60)
    for node in NODES:
        stop_pid(f"etcd-{node}", "etcd")


def migrate_database(attempts: int = 5) -> None:
    """The service's database on the leader, created once and migrated every start. A
    cluster started again may still change its leader in its first seconds (HAProxy then
    sends the leader port to a node that has become a standby): the steps are run again,
    once the port is writable, up to `attempts` times."""
    for attempt in range(1, attempts + 1):
        _wait(_leader_writable, "a writable PostgreSQL through HAProxy")
        try:
            exists = _leader_psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'")
            if exists != "1":
                _leader_psql(f'CREATE DATABASE "{DATABASE}"')
            _leader_psql("CREATE EXTENSION IF NOT EXISTS pg_stat_statements", DATABASE)
            subprocess.run([*cardservice(), "db", "upgrade"], env=instance_env(), check=True)
            return
        except (SystemExit, subprocess.CalledProcessError) as failed:
            if attempt == attempts:
                raise
            print(f"fleet: migrating again in 2 s ({failed})", file=sys.stderr)
            time.sleep(2)


def _leader_writable() -> bool:
    """HAProxy's leader port reaches a PostgreSQL out of recovery: right after the cluster
    is made (or a failover), its health checks may still send there a node that is a
    standby, where CREATE DATABASE is refused as read-only."""
    try:
        return _leader_psql("SELECT pg_is_in_recovery()") == "f"
    except SystemExit:  # nothing answers on the port yet
        return False


def _leader_psql(sql: str, database: str = "postgres") -> str:
    command = [str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", str(LEADER_PORT), "-U", "postgres"]
    result = subprocess.run(
        [*command, "-d", database, "-tAc", sql], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise SystemExit(f"fleet: {sql!r} on the leader failed: {result.stderr.strip()}")
    return result.stdout.strip()


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
        # a failover must not hold requests: a connection made in 0.5 s or not at all (an
        # ISO 8583 request is answered `91` within 1 s during the gap; through HAProxy to a
        # live leader a connection takes milliseconds), a statement (never a COMMIT)
        # cancelled after 10 s
        "CARDSERVICE_DB_CONNECT_TIMEOUT_SECONDS": "0.5",
        "CARDSERVICE_DB_STATEMENT_TIMEOUT_SECONDS": "10",
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


def stop_pid(
    name: str, marker: str, sig: signal.Signals = signal.SIGTERM, timeout: float = 10
) -> None:
    """Signal the process of `pids/<name>.pid` and wait for it to go (SIGKILL after
    `timeout` seconds)."""
    pid = read_pid(name, marker)
    if pid is not None:
        os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while read_pid(name, marker) is not None and not _zombie(pid):
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                break
            time.sleep(0.05)
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
    nodes = "\n".join(
        f"    server pg{node} 127.0.0.1:{pg_port(node)} check port {rest_port(node)}"
        for node in NODES
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

# PostgreSQL: the service's connections go to the node whose Patroni answers GET /primary
# 200 (only the running leader does), checked every 0.5 s; a node marked down has its open
# connections cut (on-marked-down shutdown-sessions), so no client stays on a demoted or
# dead leader. The pools' connections are long-lived: a day's client and server timeouts.
listen postgres_leader
    mode tcp
    bind 127.0.0.1:{LEADER_PORT}
    timeout client 24h
    timeout server 24h
    # a refused connection (the leader just died, not yet marked down) is not retried 1 s
    # later: the client is cut at once and answers 503 / 91 itself
    retries 0
    option httpchk GET /primary
    http-check expect status 200
    default-server inter 500ms fastinter 250ms fall 2 rise 1 on-marked-down shutdown-sessions
{nodes}

# the standby reads (CARDSERVICE_REPLICA_URL): the synchronous standby (GET /sync 200)
listen postgres_sync_standby
    mode tcp
    bind 127.0.0.1:{SYNC_STANDBY_PORT}
    timeout client 24h
    timeout server 24h
    retries 0
    option httpchk GET /sync
    http-check expect status 200
    default-server inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
{nodes}
"""


def start_haproxy() -> None:
    if read_pid("haproxy", "haproxy") is not None:
        return
    (FLEET / "haproxy-503.http").write_text(UNAVAILABLE_503)
    config = FLEET / "haproxy.cfg"
    config.write_text(haproxy_config())
    subprocess.run(
        ["haproxy", "-D", "-f", str(config), "-p", str(PIDS / "haproxy.pid")], check=True
    )
    _wait(lambda: read_pid("haproxy", "haproxy") is not None, "HAProxy")


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
    """Install what is missing, then start every part not running yet; idempotent."""
    install()
    for directory in (FLEET / "blobs", FLEET / "instances", PIDS):
        directory.mkdir(parents=True, exist_ok=True)
    owned_by_postgres(FLEET)
    for directory in (LOGS, FLEET / "run", FLEET / "wal-archive"):
        owned_by_postgres(directory)
    start_cluster()
    start_haproxy()  # the database's door first: the migration goes through it
    migrate_database()
    start_redis()
    for port in INSTANCE_PORTS:
        start_instance(port)
    _wait(lambda: _ready(PROXY), "HAProxy")
    print(f"fleet up: {PROXY} → instances {', '.join(map(str, INSTANCE_PORTS))}")
    listeners = ", ".join(str(port + ISO8583_OFFSET) for port in INSTANCE_PORTS)
    print(f"ISO 8583: 127.0.0.1:{ISO8583_PORT} → {listeners}")
    print(f"leader {DSN}  synchronous standby {STANDBY_DSN}  redis :{REDIS_PORT}")
    print(f"patronictl -c {patroni_config_path(1).relative_to(ROOT)} list")


# the Debian packages `make fleet` installs when their program is missing
PACKAGES = {"patroni": "patroni", "etcd": "etcd-server", "haproxy": "haproxy"}


def install() -> None:
    missing = [package for program, package in PACKAGES.items() if shutil.which(program) is None]
    if missing:
        subprocess.run(["apt-get", "update", "-q"], check=True)
        subprocess.run(["apt-get", "install", "-y", "-q", *missing], check=True)


def stop() -> None:
    """Stop what `start` started, in reverse order; the data stays under var/fleet."""
    stop_haproxy()
    for port in INSTANCE_PORTS:
        stop_instance(port)
    stop_redis()
    stop_cluster()
    print("fleet stopped")


def status() -> None:
    for name, marker in (
        ("haproxy", "haproxy"),
        ("redis", "redis-server"),
        *((f"instance-{port}", "cardservice") for port in INSTANCE_PORTS),
        *((f"etcd-{node}", "etcd") for node in NODES),
        *((f"patroni-{node}", "patroni") for node in NODES),
    ):
        print(f"{name:16} {'up' if read_pid(name, marker) else 'down'}")
    for member in members():
        print(f"{member.get('name')!s:16} {member.get('role')} {member.get('state')}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("command", choices=["start", "stop", "status"])
    command = parser.parse_args().command
    {"start": start, "stop": stop, "status": status}[command]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

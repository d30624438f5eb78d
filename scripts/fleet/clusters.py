"""PostgreSQL clusters of our own, made with the machine's binaries: a primary and its streaming
hot standby, each with its data directory under one root. Used by the standby-read tests (a
temporary root, free ports) and, for its binaries and its `postgres`-owned directories, by the
fleet, whose nodes Patroni makes and runs (`fleet.py`).

Everything runs as the `postgres` user when we are root (initdb and postgres refuse root); the
root directory is then handed to `postgres`. The machine's own cluster is never touched.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[-1]


def primary_conf(port: int, root: Path, archive: Path | None = None) -> str:
    """What a primary needs beyond initdb's defaults: its port, replication, a hot standby;
    with `archive`, every finished WAL segment copied there."""
    conf = f"""
listen_addresses = '127.0.0.1'
port = {port}
unix_socket_directories = '{root / "run"}'
max_connections = 150
shared_buffers = 128MB
wal_level = replica
max_wal_senders = 5
hot_standby = on
"""
    if archive is not None:
        copy = f"test ! -f {archive}/%f && cp %p {archive}/%f"
        conf += f"archive_mode = on\narchive_command = '{copy}'\n"
    return conf


def as_postgres(command: list[str]) -> None:
    """Run a PostgreSQL binary as the `postgres` user (initdb and postgres refuse root)."""
    binary = [str(PG_BIN / command[0]), *command[1:]]
    prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    subprocess.run([*prefix, *binary], check=True, stdout=subprocess.DEVNULL)


def owned_by_postgres(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")
    return path


def available() -> bool:
    """Whether this machine can make clusters (the binaries, and a `postgres` user if root)."""
    binaries = all((PG_BIN / name).exists() for name in ("initdb", "pg_ctl", "pg_basebackup"))
    return binaries and (os.geteuid() != 0 or shutil.which("runuser") is not None)


@contextmanager
def own_primary(name: str, conf: str = "") -> Iterator[Cluster]:
    """A primary of the run's own, started: a temporary root, a free port, `conf` appended to
    `primary_conf`'s; stopped and its root removed after (the benches that read
    `pg_stat_statements` or its log: `bench.statements`, `bench.clearing --statements`)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    root = Path(tempfile.mkdtemp(prefix=f"cs-{name}-"))
    cluster = Cluster(name, port, root)
    try:
        cluster.prepare_root()
        cluster.init_primary(primary_conf(port, root) + conf)
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


@dataclass(frozen=True)
class Cluster:
    """A PostgreSQL cluster: `root/pg-<name>` on `port`, its log in `root/logs`."""

    name: str
    port: int
    root: Path

    @property
    def data(self) -> Path:
        return self.root / f"pg-{self.name}"

    @property
    def log(self) -> Path:
        return self.root / "logs" / f"pg-{self.name}.log"

    @property
    def pid_file(self) -> Path:
        return self.root / "pids" / f"pg-{self.name}.pid"

    def dsn(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def prepare_root(self) -> None:
        """The root's directories; the clusters write their logs and sockets in them."""
        (self.root / "pids").mkdir(parents=True, exist_ok=True)
        owned_by_postgres(self.root)
        for directory in ("logs", "run"):
            owned_by_postgres(self.root / directory)

    def init_primary(self, conf: str) -> None:
        """A new cluster (trust on 127.0.0.1) with `conf` appended, once."""
        if (self.data / "PG_VERSION").exists():
            return
        owned_by_postgres(self.data).chmod(0o700)
        initdb = ["initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8"]
        as_postgres(initdb)
        with (self.data / "postgresql.conf").open("a") as postgresql_conf:
            postgresql_conf.write(conf)

    def clone_standby(self, primary: Cluster, slot: str, archive: Path | None = None) -> None:
        """This cluster as a hot standby of `primary`, cloned by pg_basebackup (-R:
        standby.signal) on a replication slot, so the primary keeps the WAL it has not
        received; with `archive`, reading that archive as a fallback. Once."""
        if (self.data / "PG_VERSION").exists():
            return
        owned_by_postgres(self.data.parent)
        primary.psql(
            "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots "
            f"WHERE slot_name = '{slot}'"
        )
        as_postgres(
            [
                "pg_basebackup",
                "-h",
                "127.0.0.1",
                "-p",
                str(primary.port),
                "-U",
                "postgres",
                "-D",
                str(self.data),
                "-R",
                "-X",
                "stream",
                "--checkpoint=fast",
                "--create-slot",
                "--slot",
                slot,
            ]
        )
        with (self.data / "postgresql.auto.conf").open("a") as conf:
            conf.write(f"port = {self.port}\narchive_mode = off\n")
            if archive is not None:
                conf.write(f"restore_command = 'cp {archive}/%f %p'\n")

    def start(self) -> None:
        as_postgres(
            ["pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", "start"]
        )
        pid = (self.data / "postmaster.pid").read_text().split()[0]
        self.pid_file.write_text(pid + "\n")

    def stop(self) -> None:
        """Fast shutdown (open transactions are rolled back), by the cluster's own pid file."""
        if (self.data / "postmaster.pid").exists():
            as_postgres(["pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop"])
        self.pid_file.unlink(missing_ok=True)

    def running(self) -> bool:
        result = subprocess.run(
            [str(PG_BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)],
            capture_output=True,
            check=False,
        )
        return result.returncode == 0

    def psql(self, sql: str, database: str = "postgres") -> str:
        """One statement on this cluster; its output, unaligned."""
        command = [str(PG_BIN / "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"]
        result = subprocess.run(
            [*command, "-d", database, "-tAc", sql], capture_output=True, text=True, check=True
        )
        return result.stdout.strip()

"""Point-in-time restore of the fleet's primary, for real, with PostgreSQL's own tools.

    python -m scripts.fleet.pitr          # the fleet must be up (make fleet)

1. `pg_basebackup` of the primary (the WAL after it is in var/fleet/wal-archive, where the
   primary's `archive_command` copies every finished segment);
2. writes A (a new user with accounts, deposits and cards, through HAProxy), then the
   target time T read from the primary, then writes B (another user);
3. `pg_switch_wal()` so the segment holding B is archived too;
4. the base backup copied into a new cluster (port 18390) with `recovery.signal`,
   `restore_command` reading the archive and `recovery_target_time = T`; it replays up to
   T and is promoted;
5. checks on the restored cluster: A is there, B is not, as many journal entries as at T,
   and the ledger check (customer money = deposits − fees − net payments, postings sum to
   zero and equal every balance, none negative). Then the new cluster is stopped and removed.
"""

from __future__ import annotations

import asyncio
import shutil
import uuid

import asyncpg

from scripts.fleet import clusters, fleet
from scripts.fleet.chaos import _OWED, Proxy
from tests.stress.bank_run import Figures, _books, _setup, verify

RESTORE_PORT = 18390
BACKUP = fleet.FLEET / "backup" / "base"
RESTORED = fleet.FLEET / "pitr"


def _command(*args: str) -> None:
    """Run a PostgreSQL tool as `postgres`, echoing it (the docs record these)."""
    print("$ " + " ".join(args), flush=True)
    clusters.as_postgres(list(args))


async def _user(email: str) -> None:
    await _setup(fleet.DSN, Proxy(), email)  # type: ignore[arg-type]


async def _scalar(dsn: str, sql: str, *args: object) -> object:
    connection = await asyncpg.connect(dsn)
    try:
        return await connection.fetchval(sql, *args)
    finally:
        await connection.close()


async def _archived(segment: str) -> None:
    """Until the archiver has copied `segment` (or a later one)."""
    for _ in range(300):
        last = await _scalar(fleet.DSN, "SELECT last_archived_wal FROM pg_stat_archiver")
        if isinstance(last, str) and last >= segment:
            return
        await asyncio.sleep(0.1)
    raise SystemExit(f"pitr: segment {segment} was not archived")


def _restore_config(target: str) -> str:
    archive = fleet.FLEET / "wal-archive"
    return (
        f"port = {RESTORE_PORT}\n"
        "archive_mode = off\n"  # the restored cluster must not write into the fleet's archive
        f"restore_command = 'cp {archive}/%f %p'\n"
        f"recovery_target_time = '{target}'\n"
        "recovery_target_action = 'promote'\n"
    )


async def pitr() -> int:
    shutil.rmtree(BACKUP, ignore_errors=True)
    clusters.owned_by_postgres(BACKUP.parent)
    _command(
        str(clusters.PG_BIN / "pg_basebackup"),
        "-h",
        "127.0.0.1",
        "-p",
        "5440",
        "-U",
        "postgres",
        "-D",
        str(BACKUP),
        "-X",
        "none",
        "--checkpoint=fast",
    )
    before, after = (
        f"pitr-a-{uuid.uuid4().hex[:6]}@example.com",
        f"pitr-b-{uuid.uuid4().hex[:6]}@example.com",
    )
    await _user(before)
    entries = await _scalar(fleet.DSN, "SELECT count(*) FROM journal_entries")
    target = str(await _scalar(fleet.DSN, "SELECT now()::text"))
    await asyncio.sleep(1)
    await _user(after)
    segment = await _scalar(fleet.DSN, "SELECT pg_walfile_name(pg_switch_wal())")
    await _archived(str(segment))
    print(f"target time {target}: {entries} journal entries; then {after} was created")

    shutil.rmtree(RESTORED, ignore_errors=True)
    shutil.copytree(BACKUP, RESTORED)
    with (RESTORED / "postgresql.auto.conf").open("a") as conf:
        conf.write(_restore_config(target))
    (RESTORED / "recovery.signal").touch()
    for path in [RESTORED, *RESTORED.rglob("*")]:
        shutil.chown(path, "postgres", "postgres")
    RESTORED.chmod(0o700)
    log = fleet.LOGS / "pg-pitr.log"
    _command(str(clusters.PG_BIN / "pg_ctl"), "-D", str(RESTORED), "-l", str(log), "-w", "start")
    try:
        return await _check(before, after, int(str(entries)))
    finally:
        _command(str(clusters.PG_BIN / "pg_ctl"), "-D", str(RESTORED), "-m", "fast", "-w", "stop")
        shutil.rmtree(RESTORED, ignore_errors=True)


def _lost(books: dict[str, object]) -> int:
    """The bank run's money check with what stand-in advices left cardholders owing (the
    fleet chaos run's ISO traffic), as `chaos.report` counts it."""
    b = {k: int(str(v)) for k, v in books.items() if k in _MONEY}
    return b["deposits"] - b["fees"] - b["spent"] + b["refunded"] - b["held"] + b["owed"]


_MONEY = ("deposits", "fees", "spent", "refunded", "held", "owed")


async def _check(before: str, after: str, entries: int) -> int:
    dsn = f"postgresql://postgres@127.0.0.1:{RESTORE_PORT}/{fleet.DATABASE}"
    for _ in range(600):  # promotion follows the end of recovery
        if await _scalar(dsn, "SELECT NOT pg_is_in_recovery()"):
            break
        await asyncio.sleep(0.1)
    users = "SELECT count(*) FROM users WHERE email = $1"
    found_before, found_after = await _scalar(dsn, users, before), await _scalar(dsn, users, after)
    restored_entries = await _scalar(dsn, "SELECT count(*) FROM journal_entries")
    books = await _books(dsn)
    books["owed"] = int(str(await _scalar(dsn, _OWED)))  # stand-ins' shortfalls (chaos runs)
    lost = verify(Figures(), books) if not books["owed"] else _lost(books)
    print(
        f"restored: {before} {found_before}, {after} {found_after}, journal entries "
        f"{restored_entries} (at target {entries}), ledger sum {books['ledger_sum']}, "
        f"drifted {books['drifted']}, cents lost {lost}"
    )
    ok = found_before == 1 and found_after == 0 and restored_entries == entries and lost == 0
    print("pitr: " + ("restore to the target time passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(asyncio.run(pitr()))

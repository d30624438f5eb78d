"""Every test that uses `app` or `client` runs on SQLite and on PostgreSQL, real databases.

The migrations run once per run and kind, whatever the number of xdist workers: PostgreSQL's
into the run's template (tests/fresh_database.py), of which each worker's database
`cs_test_<random>` is a copy dropped at the end; SQLite's into one file the workers copy.
Each test starts from empty tables with the shipped reference data in place. SQLite's
ledger tables are append-only (its triggers refuse a DELETE), so each SQLite test gets its
own copy of the freshly migrated file; PostgreSQL's tables are emptied (`empty_tables`).
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import shutil
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar, cast

import httpx
import pytest
from fastapi import FastAPI

from cardservice.app import create_app
from cardservice.catalogue.loader import load_catalogue
from cardservice.config import Settings
from cardservice.db.sql import Tx, sqlite_path
from cardservice.migrations import upgrade_database
from cardservice.observability.logs import JsonFormatter
from cardservice.security import generate_pin_rsa_key
from tests.durations import longest_first
from tests.fresh_database import (
    TEMPLATE_ENV,
    create_migrated_database,
    drop_database,
    drop_template,
)
from tests.log_scan import secrets_in
from tests.softhsm import softhsm  # noqa: F401 - the session's SoftHSM2 token (issue 29)

PG_ADMIN_DSN = os.environ.get("CARDSERVICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
DATABASES = os.environ.get("CARDSERVICE_TEST_DATABASES", "sqlite,postgresql").split(",")
TEST_KEY = "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="
TEST_CVK = (
    "0123456789ABCDEFFEDCBA9876543210"  # the published example's key (tests/cards/test_cvv2.py)
)
TEST_PVK = "89ABCDEF0123456776543210FEDCBA98"  # the tests' PIN verification key (PVV)
TEST_PIN_RSA_KEY = generate_pin_rsa_key()  # the local backend's PIN envelope key, per process
# The ISO 8583 answer deadline of the suite's listeners and servers: a burst of requests on
# one card queues on its lock, and how long the last waits depends on the machine's load, so
# the deadline (`91`, CARDSERVICE_ISO8583_ANSWER_SECONDS) is tested alone, with its own
# (tests/network/test_answer_deadline.py), and nowhere else decides an answer.
ANSWER_SECONDS = 60.0
USER_TABLES = [
    "tag_counts_waiting",
    "pin_nonces",
    "authorization_endpoints",
    "card_tokens",
    "token_provisionings",
    "receipt_reminders",
    "team_requests",
    "team_budgets",
    "team_receipt_policies",
    "clearing_outgoing",
    "clearing_records",
    "clearing_files",
    "operator_requests",
    "topups",
    "operator_keys",
    "network_messages",
    "card_testing_merchants",
    "card_testing_bins",
    "audit_log",
    "webhook_attempts",
    "webhook_deliveries",
    "webhook_endpoints",
    "events",
    "disputes",
    "postings",
    "journal_entries",
    "ledger_chain_head",
    "ledger_day_totals",
    "ledger_holder_days",
    "three_ds_codes",
    "idempotency_keys",
    "attachments",
    "transactions",
    "transaction_counts",
    "daily_spend",
    "card_spend",
    "cards",
    "accounts",
    "user_fee_overrides",
    "sign_in_links",
    "mails",
    "notification_preferences",
    "console_sessions",
    "mfa_codes",
    "api_tokens",
    "users",
    "programs",
    "teams",
    "fx_rate_history",
]


def pytest_configure(config: pytest.Config) -> None:
    """The run's PostgreSQL template database is named once, by the controller (or the only
    process), before any xdist worker starts: the workers inherit the name."""
    if not hasattr(config, "workerinput") and "postgresql" in DATABASES:
        os.environ[TEMPLATE_ENV] = f"cs_template_{uuid.uuid4().hex[:12]}"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest files first (tests/durations.py): the xdist workers end together. Last,
    after pytest's own order (by fixture parameter), which this keeps within each file."""
    longest_first(items)


def pytest_unconfigure(config: pytest.Config) -> None:
    """After every worker finished: the run's template goes."""
    template = os.environ.get(TEMPLATE_ENV)
    if not hasattr(config, "workerinput") and template:
        asyncio.run(drop_template(PG_ADMIN_DSN, template))


class _Collector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(JsonFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture(scope="session", autouse=True)
def log_capture() -> Iterator[list[str]]:
    """Every log line of the whole run, formatted as the service writes them."""
    collector = _Collector()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # the test client's own request log
    logging.getLogger().addHandler(collector)
    yield collector.lines
    logging.getLogger().removeHandler(collector)
    leaks = secrets_in("\n".join(collector.lines))
    assert not leaks, f"secrets found in the logs of this run: {leaks[:3]}"


T = TypeVar("T")


class Kept:
    """What the run makes once and keeps to its end, by key, whatever the order of the tests.

    pytest tears a session fixture down and makes it again whenever its parameter changes,
    and `--dist loadfile` runs each file's SQLite tests and then its PostgreSQL ones: the
    database (~1 s) and the browser tests' demo server (5–8 s) were made twice for nearly
    every file. Fixtures parametrized by database look their thing up here instead."""

    def __init__(self, stack: ExitStack) -> None:
        self._stack = stack
        self._made: dict[tuple[str, str], Any] = {}

    def get(self, key: tuple[str, str], make: Callable[[], AbstractContextManager[T]]) -> T:
        if key not in self._made:
            self._made[key] = self._stack.enter_context(make())
        return cast("T", self._made[key])


@pytest.fixture(scope="session")
def kept() -> Iterator[Kept]:
    with ExitStack() as stack:  # the last made is closed first
        yield Kept(stack)


def _migrated_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's migrated SQLite file, made by the first xdist worker that needs it (the
    others wait on the lock) in the temporary directory the run's workers share."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    done = root / "migrated.db.database"
    with (root / "migrated.db.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            making = root / "migrating.db.database"  # renamed when whole
            making.unlink(missing_ok=True)
            url = Settings(database_url=f"sqlite:///{making}").resolved_database_url
            asyncio.run(upgrade_database(url))
            making.rename(done)
    return done


@contextmanager
def _migrated(kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if kind == "sqlite":
        copy = tmp_path_factory.mktemp("sqlite") / "cardservice.db.database"
        shutil.copyfile(_migrated_sqlite_file(tmp_path_factory), copy)
        yield f"sqlite:///{copy}"
        return
    with migrated_postgres("cs_test") as url:
        yield url


@pytest.fixture(scope="session", params=DATABASES)
def database_url(
    request: pytest.FixtureRequest, kept: Kept, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """A migrated database of one kind, for the whole run."""
    kind = str(request.param)
    return kept.get(("database", kind), lambda: _migrated(kind, tmp_path_factory))


@contextmanager
def migrated_postgres(prefix: str) -> Iterator[str]:
    """A new PostgreSQL database beside `PG_ADMIN_DSN`'s (tests/fresh_database.py) migrated
    to the newest schema, for the block; dropped after it."""
    url = asyncio.run(create_migrated_database(PG_ADMIN_DSN, prefix))
    try:
        yield url
    finally:
        asyncio.run(drop_database(PG_ADMIN_DSN, url))


@pytest.fixture
def settings(database_url: str, tmp_path: Path) -> Settings:
    if database_url.startswith("sqlite"):
        copy = tmp_path / "cardservice.db.database"
        shutil.copyfile(sqlite_path(database_url), copy)
        database_url = f"sqlite:///{copy}"
    return Settings(
        database_url=database_url,
        var_dir=tmp_path / "var",
        storage_dir=tmp_path / "blobs",
        encryption_key=TEST_KEY,
        cvk=TEST_CVK,
        pvk=TEST_PVK,
        pin_rsa_key=TEST_PIN_RSA_KEY,
        sandbox=True,
        rate_limit_per_minute=100_000,
        auth_failures_per_minute=100_000,
        log_level="INFO",
        iso8583_answer_seconds=ANSWER_SECONDS,
    )


# the sequences of the user tables' serial and identity columns
_OWNED_SEQUENCES = """
SELECT s.oid::regclass::text AS name FROM pg_class s
JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
JOIN pg_class t ON t.oid = d.refobjid
WHERE s.relkind = 'S' AND t.relname = ANY($1::text[])
"""


def _shipped_bins() -> str:
    """The BINs as the catalogue ships them: the operator's gone, the shipped ones' status and
    price (docs/operations.md#your-own-catalogue) back."""
    shipped = load_catalogue()["bins"]
    known = ", ".join(f"'{b['uuid']}'" for b in shipped)
    statuses = "".join(
        f"UPDATE bins SET status = '{b['status']}', card_price = NULL WHERE uuid = '{b['uuid']}';"
        for b in shipped
    )
    return f"DELETE FROM bins WHERE uuid NOT IN ({known});" + statuses


async def empty_tables(app: FastAPI) -> None:
    """PostgreSQL's tables as the migrations left them (SQLite starts from a fresh copy): the
    user tables emptied, their sequences restarted, the tags' counters zeroed.

    DELETE with the triggers and foreign keys of this unit off (`session_replication_role =
    replica`, which also lets the ledger's rows go) rather than TRUNCATE: 0.02 s against
    0.55 s for these ~40 nearly empty tables (TRUNCATE makes new files for each table and
    index), and every PostgreSQL test starts with this."""
    if app.state.db.is_sqlite:
        return

    async def empty(tx: Tx) -> None:
        sequences = [row["name"] for row in await tx.rows(_OWNED_SEQUENCES, USER_TABLES)]
        await tx.execute(
            "SET LOCAL session_replication_role = replica;"
            + "".join(f"DELETE FROM {table};" for table in USER_TABLES)
            + "".join(f"ALTER SEQUENCE {name} RESTART;" for name in sequences)
            + _shipped_bins()
            + "UPDATE transaction_tags SET transactions_count = 0"
        )

    await app.state.db.transact(empty)


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[FastAPI]:
    application = create_app(settings)
    await empty_tables(application)
    yield application
    await application.state.db.dispose()
    await application.state.rate_limiter.close()


@pytest.fixture
async def client(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as http:
        yield http

"""Prometheus metrics: the families, the functions that count, and the `/metrics` text.

What every request counts (an HTTP request's count and duration, an ISO 8583 message's, an
authorization's outcome, the postings of a unit: `count`, `observe`) is kept in the process
and added to the families by `flush`, every `FLUSH_SECONDS` (`flushing`, in the app's and
each network process's lifespan), before each scrape and at shutdown: in multiprocess mode
each addition is a write to the worker's files (a lock, a pid check, an mmap write), and a
request paid ~10 µs of CPU for its five (measured: `python -m bench.profile --budget`); an
ISO approval's four, 6.3 py-spy samples of its network process per 1,000 approvals (1.7 now:
docs/performance.md#the-services-python-an-approval). A scrape therefore shows another
process's requests up to `FLUSH_SECONDS` late.

Labels are closed sets only: route templates (never the raw path, which carries uuids),
methods, status codes, authorization outcomes and decline slugs, limit names.
No token, code, card number or email can reach a label: nothing here takes request data.

Under `cardservice serve` the counters live in files under `PROMETHEUS_MULTIPROC_DIR`, which
`serve` prepares (`count_in_files`) before its HTTP workers and its network processes start:
a scrape served by any worker sums every process's, the network's too, with one worker (which
serves from `serve`'s own process) as with several.
"""

from __future__ import annotations

import asyncio
import bisect
import os
import shutil
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    values,
)
from prometheus_client.metrics import MetricWrapperBase

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
UNMATCHED_ROUTE = "unmatched"
CONTENT_TYPE = CONTENT_TYPE_LATEST

REQUESTS = Counter(
    "cardservice_http_requests",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "cardservice_http_request_duration_seconds",
    "Time from the request's arrival to its response's end, by route template and status.",
    ["method", "route", "status"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
AUTHORIZATIONS = Counter(
    "cardservice_authorizations",
    "Card authorizations answered, by outcome (pending, declined) and decline reason.",
    ["outcome", "reason"],
)
POSTINGS = Counter("cardservice_ledger_postings", "Ledger postings written (committed units).")
RATE_LIMITED = Counter(
    "cardservice_rate_limit_refusals",
    "Requests refused with 429, by limit (credential, auth_failures).",
    ["limit"],
)
RATE_LIMITER_UNAVAILABLE = Counter(
    "cardservice_rate_limiter_unavailable",
    "Rate-limit checks counted in process because Redis could not be reached.",
)
DATABASE_UNAVAILABLE = Counter(
    "cardservice_database_unavailable",
    "Requests answered 503 because the database could not be reached.",
)
WRITER_WAIT = Histogram(
    "cardservice_sqlite_writer_wait_seconds",
    "Time an SQLite write unit waited for the writer's turn.",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30),
)
CONNECTIONS_IN_USE = Gauge(
    "cardservice_db_connections_in_use",
    "PostgreSQL connections checked out of the pool, sampled every second (summed over "
    "live workers).",
    multiprocess_mode="livesum",
)
UNREADABLE_SECRETS = Counter(
    "cardservice_unreadable_secrets",
    "Times a stored secret could not be read under the configured keys when it was needed, "
    "by kind (webhook_endpoint: an attempt failed secret_unreadable; decision_endpoint: an "
    "authorization took on_timeout without asking). Run `cardservice keys check`.",
    ["kind"],
)
REPLICA_READS = Counter(
    "cardservice_replica_reads",
    "Read statements of standby-eligible routes, by the database that answered (primary, "
    "standby) and why (fresh; measuring, unavailable, lagging, pinned, failed: the primary).",
    ["target", "reason"],
)
BIN_LOCKS = Counter(
    "cardservice_card_testing_bin_locks",
    "BINs the card-testing guard locked: more than 20 unknown numbers of one BIN within 10 "
    "minutes (docs/network.md, BIN lock).",
)
REPLICA_LAG = Gauge(
    "cardservice_replica_lag_seconds",
    "The standby's replay lag as last measured (-1: it could not be read from).",
    multiprocess_mode="livemax",
)

SEAL_LAG = Gauge(
    "cardservice_ledger_seal_lag_seconds",
    "Age of the oldest committed journal entry waiting for the sealer (0: none), read from "
    "the database as the scrape is served (docs/ledger.md, 'The hash chain').",
    multiprocess_mode="mostrecent",
)


def route_template(scope: Mapping[str, Any]) -> str:
    """The matched route's template (`/card/{cardUuid}`), never the path with its ids."""
    route = scope.get("route")
    template = getattr(route, "path_format", None)
    return template if isinstance(template, str) else UNMATCHED_ROUTE


def count_in_files(directory: Path) -> None:
    """This process and those it starts count in files under `directory`, emptied first
    (stale files would add old counts): `cardservice serve`, before its workers start.

    prometheus_client picks its mode when it is imported, from `PROMETHEUS_MULTIPROC_DIR`; a
    process started after this imports it in file mode. This one imported it with the
    command's modules, before the directory was known: its families are counted in files from
    here on (their values made anew, none counted yet), so that a single worker, which serves
    from this process, sums the network processes' counts with its own. prometheus_client
    has no public call for this: its value class, its registry's collectors and their
    `_metric_init` are its internals (tests/observability/test_metrics.py reads a 1-worker
    and a 2-worker server's listener series)."""
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    os.environ[MULTIPROC_ENV] = str(directory)
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
    for family in list(REGISTRY._collector_to_names):
        if isinstance(family, MetricWrapperBase):
            if family._labelnames:
                family._metrics.clear()  # a label set's values are made as it is first used
            else:
                family._metric_init()  # type: ignore[no-untyped-call]


FLUSH_SECONDS = 1.0
# what the hot paths counted since the last flush: (counter, label values) → the amount;
# (histogram, label values) → [sum of seconds, count per bucket, +Inf last]
_counted: dict[tuple[Counter, tuple[str, ...]], float] = {}
_observed: dict[tuple[Histogram, tuple[str, ...]], list[Any]] = {}


def count(family: Counter, *labels: str, amount: float = 1) -> None:
    """Add `amount` to `family` (under `labels`), in this process until the next `flush`."""
    key = (family, labels)
    _counted[key] = _counted.get(key, 0) + amount


def observe(family: Histogram, seconds: float, *labels: str) -> None:
    """One observation of `family` (under `labels`), in this process until the next
    `flush`."""
    key = (family, labels)
    kept = _observed.get(key)
    bounds = family._upper_bounds
    if kept is None:
        kept = _observed[key] = [0.0, [0] * len(bounds)]
    kept[0] += seconds
    kept[1][bisect.bisect_left(bounds, seconds)] += 1  # the first bound ≥ seconds


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Count one answered request under its route template (`UNMATCHED_ROUTE` if none), in
    this process until the next `flush`."""
    labels = (method, route, str(status))
    count(REQUESTS, *labels)
    observe(LATENCY, seconds, *labels)


def flush() -> None:
    """Add what was counted since the last flush to its families: one write per label set
    and bucket, however many requests."""
    while _counted:
        (counter, labels), amount = _counted.popitem()
        (counter.labels(*labels) if labels else counter).inc(amount)
    while _observed:
        (family, labels), (seconds, buckets) = _observed.popitem()
        histogram = family.labels(*labels) if labels else family
        histogram._sum.inc(seconds)  # what Histogram.observe does, a bucket at a time
        for bucket, times in zip(histogram._buckets, buckets, strict=True):
            if times:
                bucket.inc(times)


@asynccontextmanager
async def flushing(connections_in_use: Callable[[], int]) -> AsyncIterator[None]:
    """While the app runs: every `FLUSH_SECONDS`, `flush` and sample the pool's connections
    in use; once more when it stops."""

    async def every_interval() -> None:
        while True:
            await asyncio.sleep(FLUSH_SECONDS)
            flush()
            CONNECTIONS_IN_USE.set(connections_in_use())

    task = asyncio.create_task(every_interval())
    try:
        yield
    finally:
        task.cancel()
        flush()


def count_authorization(status: str, error_slug: str | None) -> None:
    """One answered authorization: its transaction status and, if declined, the rule's slug."""
    count(AUTHORIZATIONS, status, error_slug or "none")


def count_unreadable_secret(kind: str) -> None:
    """A secret of `kind` (`webhook_endpoint`, `decision_endpoint`) that did not read."""
    UNREADABLE_SECRETS.labels(kind).inc()


def count_postings(n: int) -> None:
    """`n` postings committed to the ledger."""
    count(POSTINGS, amount=n)


def count_rate_limited(limit: str) -> None:
    RATE_LIMITED.labels(limit).inc()


def count_rate_limiter_unavailable() -> None:
    RATE_LIMITER_UNAVAILABLE.inc()


def count_database_unavailable() -> None:
    DATABASE_UNAVAILABLE.inc()


def count_bin_lock() -> None:
    BIN_LOCKS.inc()


def observe_writer_wait(seconds: float) -> None:
    """How long an SQLite write unit waited to start: queued behind the process's other
    units and the other processes' turns on the writer."""
    WRITER_WAIT.observe(seconds)


def count_replica_read(target: str, reason: str) -> None:
    REPLICA_READS.labels(target, reason).inc()


def set_replica_lag(milliseconds: float | None) -> None:
    """The standby's lag in ms, or None when it cannot be read from (-1 on the gauge)."""
    REPLICA_LAG.set(-1 if milliseconds is None else milliseconds / 1000)


def set_seal_lag(seconds: float) -> None:
    SEAL_LAG.set(seconds)


def exposition() -> bytes:
    """The text of every family: summed over the workers' files in multiprocess mode."""
    flush()
    if values.ValueClass is values.MutexValue:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)

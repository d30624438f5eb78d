"""Delivery counters of this process, for a `/metrics` endpoint to read
(`delivery_metrics()`); the worker also logs one line per attempt."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

LAG_SAMPLES = 10_000


@dataclass
class DeliveryCounters:
    attempts: int = 0
    delivered: int = 0
    failures: int = 0  # attempts without a 2xx
    given_up: int = 0  # deliveries marked failed after the last retry
    lags: deque[float] = field(default_factory=lambda: deque(maxlen=LAG_SAMPLES))


COUNTERS = DeliveryCounters()


def record_attempt(*, ok: bool, gave_up: bool, first_lag: float | None) -> None:
    """Count one attempt; `first_lag`: seconds from the event's commit to a first attempt."""
    COUNTERS.attempts += 1
    COUNTERS.delivered += ok
    COUNTERS.failures += not ok
    COUNTERS.given_up += gave_up
    if first_lag is not None:
        COUNTERS.lags.append(first_lag)


def _quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def delivery_metrics() -> dict[str, float | int | None]:
    """Attempts, deliveries, failures, give-ups, and the commit → first attempt lag
    (p50/p99/max over the last `LAG_SAMPLES` first attempts, seconds)."""
    lags = list(COUNTERS.lags)
    return {
        "webhook_attempts_total": COUNTERS.attempts,
        "webhook_delivered_total": COUNTERS.delivered,
        "webhook_failed_attempts_total": COUNTERS.failures,
        "webhook_given_up_total": COUNTERS.given_up,
        "webhook_first_attempt_lag_p50_seconds": _quantile(lags, 0.50),
        "webhook_first_attempt_lag_p99_seconds": _quantile(lags, 0.99),
        "webhook_first_attempt_lag_max_seconds": max(lags) if lags else None,
    }

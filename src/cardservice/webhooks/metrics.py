"""Webhook delivery series on `/metrics` (Prometheus; summed over every process of a
`cardservice serve`, like the other families in `cardservice.observability.metrics`).

Labels: the endpoint's uuid (so an operator can alert on one failing endpoint: one series
per endpoint and outcome) and the attempt's outcome, a closed set. Never the URL (it may
carry credentials in its query or user part), a secret, or a response body.
"""

from __future__ import annotations

from uuid import UUID

from prometheus_client import Counter, Histogram

OUTCOMES = (
    "delivered", "http_status", "timeout", "url_not_allowed", "connection", "secret_unreadable"
)  # fmt: skip

ATTEMPTS = Counter(
    "cardservice_webhook_attempts",
    "Webhook attempts made, by endpoint and outcome: delivered (a 2xx), http_status (another "
    "status), timeout, url_not_allowed (the URL's address was refused), connection (no answer), "
    "secret_unreadable (the endpoint's secret does not read under the configured keys).",
    ["endpoint", "outcome"],
)
GIVEN_UP = Counter(
    "cardservice_webhook_given_up",
    "Webhook deliveries marked failed after their last retry, by endpoint.",
    ["endpoint"],
)
FIRST_ATTEMPT_LAG = Histogram(
    "cardservice_webhook_first_attempt_lag_seconds",
    "Time from an event's commit to the start of its first delivery attempt.",
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800),
)
ATTEMPT_DURATION = Histogram(
    "cardservice_webhook_attempt_duration_seconds",
    "Time a webhook attempt took (resolution, connection, answer), by outcome.",
    ["outcome"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)


def outcome_of(status_code: int | None, error: str | None) -> str:
    """The attempt's outcome label: one of `OUTCOMES`."""
    if status_code is not None:
        return "delivered" if 200 <= status_code < 300 else "http_status"
    if error is not None and error.startswith("url_not_allowed"):
        return "url_not_allowed"
    if error is not None and error.startswith("secret_unreadable"):
        return "secret_unreadable"
    if error is not None and error.startswith("timeout"):
        return "timeout"
    return "connection"


def record_attempt(
    *, endpoint: UUID, outcome: str, seconds: float, gave_up: bool, first_lag: float | None
) -> None:
    """Count one attempt; `first_lag`: seconds from the event's commit to a first attempt."""
    ATTEMPTS.labels(str(endpoint), outcome).inc()
    ATTEMPT_DURATION.labels(outcome).observe(seconds)
    if gave_up:
        GIVEN_UP.labels(str(endpoint)).inc()
    if first_lag is not None:
        FIRST_ATTEMPT_LAG.observe(max(first_lag, 0.0))

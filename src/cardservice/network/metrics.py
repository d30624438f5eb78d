"""ISO 8583 listener series on `/metrics` (Prometheus; summed over every process of a
`cardservice serve`, like the other families in `cardservice.observability.metrics`).

Labels are closed sets: the request's MTI (one the listener answers, `codec.REQUESTS`) and
the answer's response code (field 39, `responses.py`). Never a card number, an STAN, a
terminal or a merchant: nothing here takes a field but the MTI and field 39.
"""

from __future__ import annotations

from prometheus_client import Counter, Histogram

MESSAGES = Counter(
    "cardservice_iso8583_messages",
    "ISO 8583 requests answered by the listener, by request MTI and response code (field 39).",
    ["mti", "response_code"],
)
ANSWER_DURATION = Histogram(
    "cardservice_iso8583_answer_duration_seconds",
    "Time from a decoded ISO 8583 request to its answer, by request MTI.",
    ["mti"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
UNREADABLE = Counter(
    "cardservice_iso8583_unreadable_frames",
    "Frames that closed their connection: unreadable, or of an MTI the listener does not answer.",
)


def record_answer(mti: str, response_code: str, seconds: float) -> None:
    """One answered request: its MTI, the answer's field 39 and the time it took."""
    MESSAGES.labels(mti, response_code).inc()
    ANSWER_DURATION.labels(mti).observe(seconds)


def count_unreadable() -> None:
    UNREADABLE.inc()

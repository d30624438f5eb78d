"""ISO 8583 listener series on `/metrics` (Prometheus; summed over every process of a
`cardservice serve`, like the other families in `cardservice.observability.metrics`).

A request's count and time are kept in the process and written by the next flush
(`observability.metrics`, every second and before a scrape); the rarer events (a connection,
a bound, an unreadable frame) are written at once.

Labels are closed sets: the request's MTI (one the listener answers, `codec.REQUESTS`) and
the answer's response code (field 39, `responses.py`). Never a card number, an STAN, a
terminal or a merchant: nothing here takes a field but the MTI and field 39.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from cardservice.observability.metrics import count, observe

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

CONNECTIONS = Gauge(
    "cardservice_iso8583_connections",
    "ISO 8583 connections open (summed over live workers).",
    multiprocess_mode="livesum",
)
CLOSED = Counter(
    "cardservice_iso8583_connections_closed",
    "ISO 8583 connections the listener closed for a bound, by bound: peer (an address not in "
    "CARDSERVICE_ISO8583_PEERS), per_peer (one more than "
    "CARDSERVICE_ISO8583_MAX_CONNECTIONS_PER_PEER from one address), max_connections (one more "
    "than CARDSERVICE_ISO8583_MAX_CONNECTIONS), all three on arrival; first_frame (no complete "
    "message CARDSERVICE_ISO8583_FRAME_SECONDS after opening), idle (no complete message for "
    "CARDSERVICE_ISO8583_IDLE_SECONDS), frame (a message's bytes not there "
    "CARDSERVICE_ISO8583_FRAME_SECONDS after its length).",
    ["bound"],
)
IN_FLIGHT_FULL = Counter(
    "cardservice_iso8583_in_flight_full",
    "Times a connection had CARDSERVICE_ISO8583_IN_FLIGHT requests in process and was not "
    "read until one was answered.",
)
LATE = Counter(
    "cardservice_iso8583_late_answers",
    "ISO 8583 requests answered 91 at CARDSERVICE_ISO8583_ANSWER_SECONDS while their work went "
    "on (an authorization that then committed was released), by request MTI.",
    ["mti"],
)
BOUNDS = ("peer", "per_peer", "max_connections", "first_frame", "idle", "frame")


def record_answer(mti: str, response_code: str, seconds: float) -> None:
    """One answered request: its MTI, the answer's field 39 and the time it took (kept in
    the process until the next flush, `observability.metrics.flush`)."""
    count(MESSAGES, mti, response_code)
    observe(ANSWER_DURATION, seconds, mti)


def count_unreadable() -> None:
    UNREADABLE.inc()


def connection_opened() -> None:
    CONNECTIONS.inc()


def connection_ended() -> None:
    CONNECTIONS.dec()


def count_closed(bound: str) -> None:
    """A connection closed by one of `BOUNDS`."""
    CLOSED.labels(bound).inc()


def count_in_flight_full() -> None:
    IN_FLIGHT_FULL.inc()


def count_late(mti: str) -> None:
    """A request answered `91` at its deadline."""
    LATE.labels(mti).inc()

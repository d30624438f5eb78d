"""The delivery loop's log: one line for a run of attempts, not one per attempt.

A replay queues hundreds of deliveries; the loop logs `webhook attempts` once the queue is
drained (or every `SUMMARY_SECONDS` while it stays busy): how many attempts, delivered,
failed and given up, over how many endpoints and events. A single attempt keeps its details
(event, endpoint, attempt, status or error). Every attempt is in `webhook_attempts`
(`GET /webhook-endpoints/{uuid}/deliveries`) and counted on `/metrics`.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Sequence

from cardservice.webhooks.delivery import Finished

log = logging.getLogger("cardservice.webhooks")
SUMMARY_SECONDS = 30.0


class AttemptLog:
    """Attempts recorded since the last line; `flush` writes that line."""

    def __init__(self) -> None:
        self._pending: list[Finished] = []
        self._since = 0.0

    def add(self, finished: Sequence[Finished]) -> None:
        if finished and not self._pending:
            self._since = time.monotonic()
        self._pending.extend(finished)

    def flush(self, *, idle: bool) -> None:
        """Log what is pending when the loop is idle, or when the last line is old enough."""
        if not self._pending or not (idle or time.monotonic() - self._since >= SUMMARY_SECONDS):
            return
        pending, self._pending = self._pending, []
        if len(pending) == 1:
            _log_one(pending[0])
            return
        verdicts = Counter(f.status for f in pending)
        log.info(
            "webhook attempts",
            extra={
                "attempts": len(pending),
                "delivered": verdicts["delivered"],
                "retrying": verdicts["pending"],
                "given_up": verdicts["failed"],
                "endpoints": len({f.claimed.endpoint_uuid for f in pending}),
                "events": len({f.claimed.event_uuid for f in pending}),
            },
        )


def _log_one(finished: Finished) -> None:
    claimed, outcome = finished.claimed, finished.outcome
    log.info(
        "webhook attempt",
        extra={
            "event_uuid": str(claimed.event_uuid),
            "endpoint_uuid": str(claimed.endpoint_uuid),
            "attempt": claimed.attempt,
            "status_code": outcome.status_code,
            "error": outcome.error,
            "duration_ms": outcome.duration_ms,
            "delivery": finished.status,
        },
    )

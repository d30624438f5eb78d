"""Mail series on `/metrics` (Prometheus; summed over the processes of a `cardservice serve`
like the other families): attempts by kind and outcome. Never an address or a subject."""

from __future__ import annotations

from prometheus_client import Counter

OUTCOMES = ("sent", "retrying", "failed", "in_doubt")

MAILS = Counter(
    "cardservice_mails",
    "Mail attempts by kind and outcome: sent (the SMTP server took it), retrying (it did not; "
    "tried again later), failed (given up: refused for good, out of attempts, or a sign-in "
    "link expired before it could be sent), in_doubt (DATA went out and no answer came, or the "
    "attempt died: never sent again by the loop; `cardservice mail in-doubt`).",
    ["kind", "outcome"],
)


def count_mail(kind: str, outcome: str) -> None:
    MAILS.labels(kind, outcome).inc()

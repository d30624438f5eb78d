"""Disputes of card purchases (docs/transactions.md#disputes)."""

from __future__ import annotations

from cardservice.disputes.records import dispute_record_of
from cardservice.disputes.schemas import DisputeReason, DisputeRecord, ResolveDisputeRequest
from cardservice.disputes.service import every_dispute, open_dispute, resolve_dispute

__all__ = [
    "DisputeReason",
    "DisputeRecord",
    "ResolveDisputeRequest",
    "dispute_record_of",
    "every_dispute",
    "open_dispute",
    "resolve_dispute",
]

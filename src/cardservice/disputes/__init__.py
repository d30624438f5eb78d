"""Disputes of card purchases (docs/transactions.md#disputes) and their steps through the card
network (docs/disputes.md)."""

from __future__ import annotations

from cardservice.disputes.network import (
    Answer,
    Chargeback,
    DisputeWrongStatus,
    PreArbitrationAnswer,
    SecondPresentment,
    accept_dispute,
    escalate_dispute,
    receive_pre_arbitration_answer,
    receive_representment,
    take_outgoing,
    win_if_unanswered,
    withdraw_dispute,
)
from cardservice.disputes.records import dispute_record_of
from cardservice.disputes.repository import due as due_disputes
from cardservice.disputes.schemas import (
    DisputeReason,
    DisputeRecord,
    DisputeStatus,
    ResolveDisputeRequest,
)
from cardservice.disputes.service import every_dispute, open_dispute, resolve_dispute
from cardservice.disputes.sweep import DISPUTE_SWEEP_JOB, sweep_unanswered

__all__ = [
    "DISPUTE_SWEEP_JOB",
    "Answer",
    "Chargeback",
    "DisputeReason",
    "DisputeRecord",
    "DisputeStatus",
    "DisputeWrongStatus",
    "PreArbitrationAnswer",
    "ResolveDisputeRequest",
    "SecondPresentment",
    "accept_dispute",
    "dispute_record_of",
    "due_disputes",
    "escalate_dispute",
    "every_dispute",
    "open_dispute",
    "receive_pre_arbitration_answer",
    "receive_representment",
    "resolve_dispute",
    "sweep_unanswered",
    "take_outgoing",
    "win_if_unanswered",
    "withdraw_dispute",
]

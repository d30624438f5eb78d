"""Disputes of card purchases (docs/transactions.md#disputes) and their steps through the card
network (docs/disputes.md)."""

from __future__ import annotations

from cardservice.disputes.network import (
    Answer,
    Chargeback,
    DisputeWrongStatus,
    SecondPresentment,
    accept_dispute,
    escalate_dispute,
    purchase_arn,
    receive_representment,
    take_outgoing,
    win_if_unanswered,
    withdraw_dispute,
)
from cardservice.disputes.repository import due as due_disputes
from cardservice.disputes.service import open_dispute, resolve_dispute

__all__ = [
    "Answer",
    "Chargeback",
    "DisputeWrongStatus",
    "SecondPresentment",
    "accept_dispute",
    "due_disputes",
    "escalate_dispute",
    "open_dispute",
    "purchase_arn",
    "receive_representment",
    "resolve_dispute",
    "take_outgoing",
    "win_if_unanswered",
    "withdraw_dispute",
]

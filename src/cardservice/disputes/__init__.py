"""Disputes of card purchases (docs/transactions.md#disputes)."""

from __future__ import annotations

from cardservice.disputes.service import every_dispute, open_dispute, resolve_dispute

__all__ = ["every_dispute", "open_dispute", "resolve_dispute"]

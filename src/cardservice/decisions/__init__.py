"""The authorization decision endpoint (docs/controls.md#the-decision-endpoint)."""

from __future__ import annotations

from cardservice.decisions.service import (
    EVENT_TYPE,
    PROVISIONING_TYPE,
    Verdict,
    ask,
    ask_provisioning,
    note_health,
)

__all__ = ["EVENT_TYPE", "PROVISIONING_TYPE", "Verdict", "ask", "ask_provisioning", "note_health"]

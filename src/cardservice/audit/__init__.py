"""The audit trail (`audit_log`): who did what to which object, when (PCI DSS 10.2)."""

from __future__ import annotations

from cardservice.audit.repository import (
    Actor,
    AuditFilters,
    action_times_since,
    page_of_audit,
    record_audit,
)

__all__ = ["Actor", "AuditFilters", "action_times_since", "page_of_audit", "record_audit"]

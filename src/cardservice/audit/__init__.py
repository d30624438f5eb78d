"""The audit trail (`audit_log`): who did what to which object, when (PCI DSS 10.2)."""

from __future__ import annotations

from cardservice.audit.export import audit_csv
from cardservice.audit.records import audit_record
from cardservice.audit.repository import (
    Actor,
    AuditFilters,
    action_times_since,
    page_of_audit,
    record_audit,
)

__all__ = [
    "Actor",
    "AuditFilters",
    "action_times_since",
    "audit_csv",
    "audit_record",
    "page_of_audit",
    "record_audit",
]

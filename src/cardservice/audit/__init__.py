"""The audit trail (`audit_log`): who did what to which object, when (PCI DSS 10.2)."""

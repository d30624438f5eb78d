"""Monthly account statements (docs/statements.md#statements): JSON and a printable PDF, from the
ledger."""

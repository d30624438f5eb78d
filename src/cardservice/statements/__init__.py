"""Monthly account statements (API.md §16): JSON and a printable PDF, from the ledger."""

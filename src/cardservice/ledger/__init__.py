"""The double-entry ledger: journal entries of postings that sum to zero per currency."""

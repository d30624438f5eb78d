"""User accounts: balances in one currency, and the team owner's read-only view."""

"""Disputes of card purchases (docs/transactions.md#disputes)."""

"""Disputes of card purchases (API.md §12)."""

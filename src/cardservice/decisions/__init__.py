"""The authorization decision endpoint (API.md §10)."""

"""The authorization decision endpoint (docs/controls.md#the-decision-endpoint)."""

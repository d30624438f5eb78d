"""The ISO 8583 network channel (API.md §14, docs/network.md)."""

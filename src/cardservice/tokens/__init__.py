"""Network tokens: a card's device PANs in digital wallets (API.md §19)."""

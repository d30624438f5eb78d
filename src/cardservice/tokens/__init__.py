"""Network tokens: a card's device PANs in digital wallets (docs/network.md#wallet-tokens)."""

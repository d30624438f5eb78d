"""The ISO 8583 network channel (docs/network.md#the-network-interface-iso-8583)."""

from cardservice.network.repository import IssuedCard, issued_card, issued_cards

__all__ = ["IssuedCard", "issued_card", "issued_cards"]

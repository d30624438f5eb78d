"""The ISO 8583 network channel (docs/network.md#the-network-interface-iso-8583)."""

"""Clearing files (docs/network.md#clearing-files): the network's daily presentments, booked through
the same entries as the ISO 8583 host's messages (docs/network.md, "Clearing files")."""

"""The acquirer's simulator runs against the issuer's host: the host's fixtures
(tests/network/conftest.py)."""

from tests.network.conftest import iso_settings, network

__all__ = ["iso_settings", "network"]

"""The ISO 8583 listener of tests/network, for the budget's network channel."""

from tests.network.conftest import iso_settings, network  # noqa: F401 - fixtures

"""The network fixtures: a real ISO 8583 listener beside the test's app, for the
authorizations that clearing files present."""

from tests.network.conftest import iso_settings, network  # noqa: F401

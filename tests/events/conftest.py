"""The outbox fixtures of the webhook tests, shared."""

from tests.webhooks.conftest import app, receiver, worker

__all__ = ["app", "receiver", "worker"]

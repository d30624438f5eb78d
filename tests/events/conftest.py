"""The outbox fixtures of the webhook tests, shared."""

from tests.webhooks.conftest import outbox, receiver, worker

__all__ = ["outbox", "receiver", "worker"]

"""Events: the outbox the database writes beside every change, and `GET /events`."""

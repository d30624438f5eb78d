"""A new transaction's event written with its data (docs/events.md#how-the-outbox-is-built).

The insert of a transaction (`transactions.repository.transactions_insert`, the one insert of
a transaction row) writes its `transaction.created` event beside it, its `data` the record
as written: the trigger `transactions_event_created` goes, so the authorization's unit leaves
no event for the outbox to read and fill at COMMIT. The other objects' triggers stay.

PostgreSQL: the deferred check that refuses an event committed without its data is queued
only for an event inserted without it (`WHEN (NEW.data IS NULL)`: evaluated at the insert),
so an event written complete costs nothing at COMMIT; its error names the constraint
`events_completed`, by which a unit that skipped the outbox's read (`Tx.events_written`) and
left a trigger's event after all is told apart and run again with the read
(`db.Database.transact`).

Revision ID: 20261127_55
Revises: 20261127_58
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "20261127_55"
down_revision = "20261127_58"
branch_labels = None
depends_on = None

# as 20261123_15 made them
_SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
_SQLITE_CREATED = (
    "CREATE TRIGGER transactions_event_created AFTER INSERT ON transactions FOR EACH ROW BEGIN"
    " INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)"
    f" VALUES ({_SQLITE_UUID4}, 'transaction.created', NEW.user_uuid, 'transaction', NEW.uuid,"
    " strftime('%Y-%m-%d %H:%M:%f000', 'now')); END"
)
_PG_CREATED = (
    "CREATE TRIGGER transactions_event_created AFTER INSERT ON transactions FOR EACH ROW"
    " EXECUTE FUNCTION record_event('transaction.created', 'transaction')"
)


_CHECK = """
CREATE OR REPLACE FUNCTION check_event_completed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM events WHERE id = NEW.id AND data IS NULL) THEN
        RAISE EXCEPTION 'event % committed without its data (write outside a unit '
            'of work?)', NEW.uuid USING ERRCODE = 'check_violation'{named};
    END IF;
    RETURN NULL;
END $$;
"""


def _completed_check(when: str) -> None:
    op.execute("DROP TRIGGER events_completed ON events")
    op.execute(
        "CREATE CONSTRAINT TRIGGER events_completed AFTER INSERT ON events"
        f" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW {when}"
        " EXECUTE FUNCTION check_event_completed()"
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_event_created ON transactions")
        op.execute(_CHECK.format(named=", CONSTRAINT = 'events_completed'"))
        _completed_check("WHEN (NEW.data IS NULL)")
    else:
        op.execute("DROP TRIGGER transactions_event_created")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _completed_check("")
        op.execute(_CHECK.format(named=""))
        op.execute(_PG_CREATED)
    else:
        op.execute(_SQLITE_CREATED)

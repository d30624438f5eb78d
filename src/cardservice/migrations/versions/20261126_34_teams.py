"""Teams that manage their spending (docs/teams.md#teams-budgets-requests-receipts).

* `team_budgets`: a member's monthly budget in one currency (`amount`), and what the owner
  added for one month by approving a `budget_increase` (`month_increase` for
  `increase_month`, `YYYY-MM`). What was spent is not stored here: it is read from
  `card_spend`, the counter the spending controls use (transactions/budgets.py);
* `team_requests`: a member's request (`card` | `budget_increase`), `pending → approved |
  declined`, with the events `team.request.created`, `team.request.approved` and
  `team.request.declined`, written by triggers as in 20261123_15;
* `team_receipt_policies`: one per team; `receipt_reminders`: one row per purchase whose
  missing receipt was reminded (its primary key makes the reminder once), whose insert
  writes the event `transaction.receipt_missing` on the transaction, and `frozen_at` once
  its card was frozen for it;
* `transactions.receipt_attachment_uuid` (the linked receipt; the service checks it is the
  holder's attachment, so the column carries no foreign key and drops cleanly on SQLite);
  `cards.frozen_reason` (20261126_31) may also say `receipt_missing`: the receipt policy froze
  the card (PostgreSQL's check on it widened);
* the catalogue again: `budget_exceeded` in the transaction-errors dictionary.

Revision ID: 20261126_34
Revises: 20261126_31
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261126_34"
down_revision = "20261126_32"
branch_labels = None
depends_on = None

SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"
# (trigger, timing, event type, condition on NEW/OLD or "")
REQUEST_EVENTS = (
    ("team_requests_event_created", "INSERT", "team.request.created", ""),
    (
        "team_requests_event_approved",
        "UPDATE",
        "team.request.approved",
        "NEW.status = 'approved' AND OLD.status <> 'approved'",
    ),
    (
        "team_requests_event_declined",
        "UPDATE",
        "team.request.declined",
        "NEW.status = 'declined' AND OLD.status <> 'declined'",
    ),
)
RECEIPT_MISSING = """
CREATE FUNCTION record_receipt_missing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at)
    VALUES (gen_random_uuid(), 'transaction.receipt_missing', NEW.user_uuid, 'transaction',
            NEW.transaction_uuid, clock_timestamp());
    RETURN NULL;
END $$
"""


def _timestamps() -> list[sa.Column[object]]:
    return [
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _budgets() -> None:
    op.create_table(
        "team_budgets",
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("team_uuid", sa.Uuid(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("month_increase", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("increase_month", sa.String(7), nullable=True),
        *_timestamps(),
        sa.PrimaryKeyConstraint("user_uuid", name="pk_team_budgets"),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_team_budgets_user_uuid_users"
        ),
        sa.ForeignKeyConstraint(
            ["team_uuid"], ["teams.uuid"], name="fk_team_budgets_team_uuid_teams"
        ),
        sa.CheckConstraint("amount > 0", name="ck_team_budgets_amount_positive"),
        sa.CheckConstraint("month_increase >= 0", name="ck_team_budgets_increase_not_negative"),
    )
    op.create_index("ix_team_budgets_team_uuid", "team_budgets", ["team_uuid"])


def _requests() -> None:
    op.create_table(
        "team_requests",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("team_uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("decided_by", sa.Uuid(), nullable=True),
        sa.Column("decision_reason", sa.String(255), nullable=True),
        sa.Column("result", sa.Text(), nullable=True),
        *_timestamps(),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("uuid", name="pk_team_requests"),
        sa.ForeignKeyConstraint(
            ["team_uuid"], ["teams.uuid"], name="fk_team_requests_team_uuid_teams"
        ),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_team_requests_user_uuid_users"
        ),
        sa.ForeignKeyConstraint(
            ["decided_by"], ["users.uuid"], name="fk_team_requests_decided_by_users"
        ),
        sa.CheckConstraint("kind IN ('card', 'budget_increase')", name="ck_team_requests_kind"),
        sa.CheckConstraint(
            "status IN ('pending', 'approved', 'declined')", name="ck_team_requests_status"
        ),
        sa.CheckConstraint(
            "(status = 'pending') = (decided_at IS NULL)",
            name="ck_team_requests_decided_when_closed",
        ),
    )
    op.create_index("ix_team_requests_team", "team_requests", ["team_uuid", "created_at", "uuid"])
    op.create_index("ix_team_requests_user", "team_requests", ["user_uuid", "created_at", "uuid"])


def _receipts() -> None:
    op.create_table(
        "team_receipt_policies",
        sa.Column("team_uuid", sa.Uuid(), nullable=False),
        sa.Column("min_amount", sa.BigInteger(), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("remind_after_days", sa.Integer(), nullable=False),
        sa.Column("freeze_after_days", sa.Integer(), nullable=False),
        *_timestamps(),
        sa.PrimaryKeyConstraint("team_uuid", name="pk_team_receipt_policies"),
        sa.ForeignKeyConstraint(
            ["team_uuid"], ["teams.uuid"], name="fk_team_receipt_policies_team_uuid_teams"
        ),
        sa.CheckConstraint("min_amount >= 0", name="ck_team_receipt_policies_min_amount"),
        sa.CheckConstraint(
            "remind_after_days >= 0 AND freeze_after_days >= remind_after_days",
            name="ck_team_receipt_policies_timeline",
        ),
    )
    op.create_table(
        "receipt_reminders",
        sa.Column("transaction_uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("frozen_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("transaction_uuid", name="pk_receipt_reminders"),
        sa.ForeignKeyConstraint(
            ["transaction_uuid"],
            ["transactions.uuid"],
            name="fk_receipt_reminders_transaction_uuid_transactions",
        ),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_receipt_reminders_user_uuid_users"
        ),
    )
    op.add_column("transactions", sa.Column("receipt_attachment_uuid", sa.Uuid(), nullable=True))


FROZEN_REASONS = "frozen_reason IS NULL OR frozen_reason IN ('suspected_fraud', 'receipt_missing')"


def _postgresql_triggers() -> None:
    op.drop_constraint("ck_cards_frozen_reason", "cards", type_="check")
    op.create_check_constraint("ck_cards_frozen_reason", "cards", FROZEN_REASONS)
    for name, timing, type_, condition in REQUEST_EVENTS:
        of = "OF status" if timing == "UPDATE" else ""
        when = f"WHEN ({condition})" if condition else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} {of} ON team_requests FOR EACH ROW {when} "
            f"EXECUTE FUNCTION record_event('{type_}', 'team_request')"
        )
    op.execute(RECEIPT_MISSING)
    op.execute(
        "CREATE TRIGGER receipt_reminders_event AFTER INSERT ON receipt_reminders"
        " FOR EACH ROW EXECUTE FUNCTION record_receipt_missing()"
    )


def _sqlite_triggers() -> None:
    for name, timing, type_, condition in REQUEST_EVENTS:
        when = f"WHEN {condition}" if condition else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} ON team_requests FOR EACH ROW {when} BEGIN "
            "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at) "
            f"VALUES ({SQLITE_UUID4}, '{type_}', NEW.user_uuid, 'team_request', NEW.uuid, "
            f"{SQLITE_NOW}); END"
        )
    op.execute(
        "CREATE TRIGGER receipt_reminders_event AFTER INSERT ON receipt_reminders"
        " FOR EACH ROW BEGIN "
        "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at) "
        f"VALUES ({SQLITE_UUID4}, 'transaction.receipt_missing', NEW.user_uuid, 'transaction',"
        f" NEW.transaction_uuid, {SQLITE_NOW}); END"
    )


def upgrade() -> None:
    _budgets()
    _requests()
    _receipts()
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_triggers()
    else:
        _sqlite_triggers()
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for name, *_rest in REQUEST_EVENTS:
        op.execute(f"DROP TRIGGER IF EXISTS {name}" + (" ON team_requests" if postgres else ""))
    op.execute(
        "DROP TRIGGER IF EXISTS receipt_reminders_event"
        + (" ON receipt_reminders" if postgres else "")
    )
    if postgres:
        op.execute("DROP FUNCTION record_receipt_missing()")
        op.execute("UPDATE cards SET frozen_reason = NULL WHERE frozen_reason = 'receipt_missing'")
        op.drop_constraint("ck_cards_frozen_reason", "cards", type_="check")
        op.create_check_constraint(
            "ck_cards_frozen_reason",
            "cards",
            "frozen_reason IS NULL OR frozen_reason = 'suspected_fraud'",
        )
    else:
        op.execute("UPDATE cards SET frozen_reason = NULL WHERE frozen_reason = 'receipt_missing'")
    op.drop_column("transactions", "receipt_attachment_uuid")
    for table in ("receipt_reminders", "team_receipt_policies", "team_requests", "team_budgets"):
        op.drop_table(table)
    op.execute("DELETE FROM dictionary_entries WHERE slug = 'budget_exceeded'")

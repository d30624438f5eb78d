"""Operating the program (docs/operations.md#running-a-program).

* `operator_keys`: the operator's API keys (`csk_…`), by hash, with their scopes;
* `programs`, and `users.program_uuid`; `users.status` (`active` | `suspended`: a suspended
  user's credentials are refused and their cards decline `account_inactive`);
* `topups`: a cardholder's funding request by a payment method, confirmed once by the
  operator (its deposit linked by a unique `transaction_uuid`), cancelled, or expired;
* `operator_requests`: an operator credit's or debit's `external_id` (the primary key is
  the guard: concurrent repeats make one transaction);
* `cards.closed_reason`, `cards.replaces`, `cards.replaced_by` (replacement);
* the transaction types `withdrawal` (an operator debit) and `card_transfer` (a replaced
  card's balance moving to its successor), added to the type rule both databases hold (as
  20261123_21 did).

Revision ID: 20261124_27
Revises: 20261124_26
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_27"
down_revision = "20261124_26"  # chained after the network's 20261124_26 at the merge
branch_labels = None
depends_on = None

TYPES = (
    "card_purchase",
    "card_refund",
    "card_issue",
    "card_topup",
    "auto_replenish",
    "fee",
    "deposit",
    "card_close",
    "dispute_credit",
    "withdrawal",
    "card_transfer",
)
TOPUP_STATUSES = ("awaiting_payment", "completed", "cancelled", "expired")
REASONS = ("lost", "stolen", "damaged", "expiring")
NOW = sa.DateTime(timezone=True)


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _type_rule(postgres: bool) -> None:
    expression = f"{{r}}type IN ({_in(TYPES)})"
    if postgres:
        op.execute("ALTER TABLE transactions DROP CONSTRAINT IF EXISTS ck_transactions_type")
        op.execute(
            "ALTER TABLE transactions ADD CONSTRAINT ck_transactions_type"
            f" CHECK ({expression.format(r='')})"
        )
        return
    for event in ("INSERT", "UPDATE"):
        trigger = f"ck_transactions_type_{event.lower()}"
        op.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        op.execute(
            f"CREATE TRIGGER {trigger} BEFORE {event} ON transactions"
            f" WHEN NOT ({expression.format(r='NEW.')})"
            " BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: ck_transactions_type'); END"
        )


def _keys_and_programs() -> None:
    op.create_table(
        "operator_keys",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("prefix", sa.String(16), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("revoked_at", NOW, nullable=True),
        sa.Column("created_at", NOW, nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_operator_keys"),
        sa.UniqueConstraint("key_hash", name="uq_operator_keys_key_hash"),
    )
    op.create_index("ix_operator_keys_prefix", "operator_keys", ["prefix"])
    op.create_table(
        "programs",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(120), nullable=False),
        sa.Column("bin_uuids", sa.Text(), nullable=False),
        sa.Column("spending_controls", sa.Text(), nullable=True),
        sa.Column("card_validity_months", sa.Integer(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_programs"),
        sa.CheckConstraint("card_validity_months BETWEEN 1 AND 120", name="ck_programs_validity"),
    )


def _topups_and_requests() -> None:
    op.create_table(
        "topups",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("account_uuid", sa.Uuid(), nullable=False),
        sa.Column("method_slug", sa.String(64), nullable=False),
        sa.Column("currency", sa.String(16), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("fee", sa.BigInteger(), nullable=False),
        sa.Column("rate", sa.String(32), nullable=False),
        sa.Column("account_currency", sa.String(3), nullable=False),
        sa.Column("credit_amount", sa.BigInteger(), nullable=False),
        sa.Column("reference", sa.String(32), nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("expires_at", NOW, nullable=False),
        sa.Column("received_amount", sa.BigInteger(), nullable=True),
        sa.Column("transaction_uuid", sa.Uuid(), nullable=True),
        sa.Column("created_at", NOW, nullable=False),
        sa.Column("updated_at", NOW, nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_topups"),
        sa.ForeignKeyConstraint(["user_uuid"], ["users.uuid"], name="fk_topups_user_uuid_users"),
        sa.ForeignKeyConstraint(
            ["account_uuid"], ["accounts.uuid"], name="fk_topups_account_uuid_accounts"
        ),
        sa.ForeignKeyConstraint(
            ["method_slug"],
            ["payment_methods.slug"],
            name="fk_topups_method_slug_payment_methods",
        ),
        sa.ForeignKeyConstraint(
            ["transaction_uuid"],
            ["transactions.uuid"],
            name="fk_topups_transaction_uuid_transactions",
        ),
        sa.UniqueConstraint("reference", name="uq_topups_reference"),
        sa.UniqueConstraint("transaction_uuid", name="uq_topups_transaction_uuid"),
        sa.CheckConstraint(f"status IN ({_in(TOPUP_STATUSES)})", name="ck_topups_status"),
        sa.CheckConstraint(
            "amount > 0 AND fee >= 0 AND credit_amount >= 0", name="ck_topups_amounts"
        ),
    )
    op.create_index("ix_topups_user_created", "topups", ["user_uuid", "created_at", "uuid"])
    op.create_index("ix_topups_status_expires", "topups", ["status", "expires_at"])
    op.create_table(
        "operator_requests",
        sa.Column("external_id", sa.String(128), nullable=False),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("transaction_uuid", sa.Uuid(), nullable=False),
        sa.Column("created_at", NOW, nullable=False),
        sa.PrimaryKeyConstraint("external_id", name="pk_operator_requests"),
        sa.ForeignKeyConstraint(
            ["transaction_uuid"],
            ["transactions.uuid"],
            name="fk_operator_requests_transaction_uuid_transactions",
        ),
    )


def _columns(postgres: bool) -> None:
    """New columns on users and cards (SQLite adds them without the foreign keys, which
    it cannot add to an existing table; PostgreSQL holds them)."""
    op.add_column(
        "users", sa.Column("status", sa.String(16), nullable=False, server_default="active")
    )
    op.add_column("users", sa.Column("program_uuid", sa.Uuid(), nullable=True))
    op.add_column("cards", sa.Column("closed_reason", sa.String(16), nullable=True))
    op.add_column("cards", sa.Column("replaces", sa.Uuid(), nullable=True))
    op.add_column("cards", sa.Column("replaced_by", sa.Uuid(), nullable=True))
    if not postgres:
        return
    op.create_foreign_key(
        "fk_users_program_uuid_programs", "users", "programs", ["program_uuid"], ["uuid"]
    )
    for column in ("replaces", "replaced_by"):
        op.create_foreign_key(f"fk_cards_{column}_cards", "cards", "cards", [column], ["uuid"])
    op.create_check_constraint("ck_users_status", "users", "status IN ('active', 'suspended')")
    op.create_check_constraint(
        "ck_cards_closed_reason",
        "cards",
        f"closed_reason IS NULL OR closed_reason IN ({_in(REASONS)})",
    )


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    _keys_and_programs()
    _topups_and_requests()
    _columns(postgres)
    _type_rule(postgres)


def downgrade() -> None:
    raise NotImplementedError("restore a backup instead")

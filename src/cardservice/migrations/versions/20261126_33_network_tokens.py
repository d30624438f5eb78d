"""Network tokens: cards in digital wallets (docs/network.md#wallet-tokens).

* `token_provisionings`: every provisioning request the issuer decided (an 0100 with
  processing code 900000): the card, the network's token reference, the wallet and device,
  the risk score, the decision (`approve | step_up | decline`) and who took it, and for a
  step-up the activation code made for the holder (a `three_ds_codes` row);
* `card_tokens`: the tokens the network created (its 0620 after a decision): the DPAN
  encrypted with the card-number key and found by its keyed fingerprint (unique, as
  `cards.pan_fingerprint`), its last four digits and expiry, wallet, device, status
  (`requires_activation | active | suspended | deleted`) and the card it pays with (a
  replacement moves it);
* `transactions.token`: JSON `{uuid, wallet, last4}` of the token that paid (NULL otherwise);
* the events `card.token.created` and `card.token.updated` (a change of status or of card),
  written by triggers as in 20261123_15 (PostgreSQL's `record_event()` is reused);
* the catalogue again: the `token_inactive` decline in the transaction-errors dictionary.

Revision ID: 20261126_33
Revises: 20261126_34
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261126_33"
down_revision = "20261126_35"
branch_labels = None
depends_on = None

WALLETS = "wallet IN ('apple_pay', 'google_pay', 'samsung_pay', 'card_on_file')"
STATUSES = "status IN ('requires_activation', 'active', 'suspended', 'deleted')"
DECISIONS = "decision IN ('approve', 'step_up', 'decline')"
# (trigger, timing, event type, watched columns of an update)
EVENTS = (
    ("card_tokens_event_created", "INSERT", "card.token.created", ()),
    ("card_tokens_event_updated", "UPDATE", "card.token.updated", ("status", "card_uuid")),
)
SQLITE_UUID4 = (
    "lower(hex(randomblob(6)) || '4' || substr(hex(randomblob(2)), 2)"
    " || substr('89ab', 1 + abs(random()) % 4, 1) || substr(hex(randomblob(2)), 2)"
    " || hex(randomblob(6)))"
)
SQLITE_NOW = "strftime('%Y-%m-%d %H:%M:%f000', 'now')"


def _provisionings() -> None:
    op.create_table(
        "token_provisionings",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("card_uuid", sa.Uuid(), nullable=False),
        sa.Column("token_reference", sa.String(32), nullable=False),
        sa.Column("requestor_id", sa.String(11), nullable=False),
        sa.Column("wallet", sa.String(16), nullable=False),
        sa.Column("device_name", sa.String(32), nullable=False),
        sa.Column("risk_score", sa.SmallInteger(), nullable=False),
        sa.Column("decision", sa.String(8), nullable=False),
        sa.Column("decided_by", sa.String(16), nullable=False),
        sa.Column("activation_code_uuid", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_token_provisionings"),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_token_provisionings_user_uuid_users"
        ),
        sa.ForeignKeyConstraint(
            ["card_uuid"], ["cards.uuid"], name="fk_token_provisionings_card_uuid_cards"
        ),
        sa.ForeignKeyConstraint(
            ["activation_code_uuid"],
            ["three_ds_codes.uuid"],
            name="fk_token_provisionings_activation_code_uuid_three_ds_codes",
        ),
        sa.CheckConstraint(WALLETS, name="ck_token_provisionings_wallet"),
        sa.CheckConstraint(DECISIONS, name="ck_token_provisionings_decision"),
    )
    op.create_index(
        "ix_token_provisionings_reference",
        "token_provisionings",
        ["token_reference", "created_at"],
    )
    op.create_index("ix_token_provisionings_card_uuid", "token_provisionings", ["card_uuid"])


def _tokens() -> None:
    op.create_table(
        "card_tokens",
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("card_uuid", sa.Uuid(), nullable=False),
        sa.Column("provisioning_uuid", sa.Uuid(), nullable=False),
        sa.Column("token_reference", sa.String(32), nullable=False),
        sa.Column("dpan_ciphertext", sa.LargeBinary(), nullable=False),
        sa.Column("dpan_fingerprint", sa.String(64), nullable=False),
        sa.Column("last4", sa.String(4), nullable=False),
        sa.Column("expiry_month", sa.Integer(), nullable=False),
        sa.Column("expiry_year", sa.Integer(), nullable=False),
        sa.Column("wallet", sa.String(16), nullable=False),
        sa.Column("device_name", sa.String(32), nullable=False),
        sa.Column("status", sa.String(24), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("uuid", name="pk_card_tokens"),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_card_tokens_user_uuid_users"
        ),
        sa.ForeignKeyConstraint(
            ["card_uuid"], ["cards.uuid"], name="fk_card_tokens_card_uuid_cards"
        ),
        sa.ForeignKeyConstraint(
            ["provisioning_uuid"],
            ["token_provisionings.uuid"],
            name="fk_card_tokens_provisioning_uuid_token_provisionings",
        ),
        sa.UniqueConstraint("token_reference", name="uq_card_tokens_token_reference"),
        sa.UniqueConstraint("dpan_fingerprint", name="uq_card_tokens_dpan_fingerprint"),
        sa.CheckConstraint(WALLETS, name="ck_card_tokens_wallet"),
        sa.CheckConstraint(STATUSES, name="ck_card_tokens_status"),
    )
    op.create_index(
        "ix_card_tokens_card_created", "card_tokens", ["card_uuid", "created_at", "uuid"]
    )


def _triggers(postgresql: bool) -> None:
    for name, timing, type_, watched in EVENTS:
        if postgresql:
            of = f"OF {', '.join(watched)}" if watched else ""
            changed = " OR ".join(f"OLD.{c} IS DISTINCT FROM NEW.{c}" for c in watched)
            when = f"WHEN ({changed})" if watched else ""
            op.execute(
                f"CREATE TRIGGER {name} AFTER {timing} {of} ON card_tokens FOR EACH ROW {when}"
                f" EXECUTE FUNCTION record_event('{type_}', 'card_token')"
            )
            continue
        changed = " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in watched)
        when = f"WHEN {changed}" if watched else ""
        op.execute(
            f"CREATE TRIGGER {name} AFTER {timing} ON card_tokens FOR EACH ROW {when} BEGIN "
            "INSERT INTO events (uuid, type, user_uuid, object_type, object_uuid, created_at) "
            f"VALUES ({SQLITE_UUID4}, '{type_}', NEW.user_uuid, 'card_token', NEW.uuid, "
            f"{SQLITE_NOW}); END"
        )


def upgrade() -> None:
    _provisionings()
    _tokens()
    op.add_column("transactions", sa.Column("token", sa.Text(), nullable=True))
    _triggers(op.get_bind().dialect.name == "postgresql")
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    postgresql = op.get_bind().dialect.name == "postgresql"
    for name, *_ in EVENTS:
        op.execute(f"DROP TRIGGER {name} ON card_tokens" if postgresql else f"DROP TRIGGER {name}")
    op.execute("DELETE FROM events WHERE object_type = 'card_token'")
    op.drop_column("transactions", "token")
    op.drop_table("card_tokens")
    op.drop_table("token_provisionings")
    op.execute(
        "DELETE FROM dictionary_entries WHERE kind = 'transaction_error'"
        " AND slug = 'token_inactive'"
    )

"""People, round 3 (docs/teams.md#a-team-owner-and-the-members-cards, docs/mail.md).

* `teams.member_cards`: the team's card policy, `direct` (a member buys cards, the default)
  or `request` (a member asks the owner, `POST /team/requests`);
* `cards.frozen_reason` may also say `owner`: the team's owner froze a member's card (only an
  owner unfreezes it). On SQLite the column has no CHECK (20261126_31);
* `notification_preferences`: one row per person who changed a default: which mails they
  want, and the amount from which a purchase is mailed;
* `mails`: the mail queue the background loop sends from (a row per mail: its recipient,
  subject and text, its attempts and lease). A sign-in mail's link is made as it is sent:
  no secret is stored here.

Revision ID: 20261127_46
Revises: 20261127_40
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_46"
down_revision = "20261127_40"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
WITH_OWNER = (
    "frozen_reason IS NULL OR frozen_reason IN"
    " ('suspected_fraud', 'receipt_missing', 'operator', 'owner')"
)
WITHOUT = (
    "frozen_reason IS NULL OR frozen_reason IN ('suspected_fraud', 'receipt_missing', 'operator')"
)
KINDS = (
    "'sign_in', 'declined_payment', 'large_purchase', 'team_request_decided',"
    " 'receipt_reminder', 'request_to_decide'"
)


def _frozen_check(condition: str) -> None:
    op.drop_constraint("ck_cards_frozen_reason", "cards", type_="check")
    op.create_check_constraint("ck_cards_frozen_reason", "cards", condition)


def _preferences() -> None:
    op.create_table(
        "notification_preferences",
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("declined_payment", sa.Boolean(), nullable=False),
        sa.Column("large_purchase", sa.Boolean(), nullable=False),
        sa.Column("large_purchase_amount", sa.BigInteger(), nullable=True),
        sa.Column("team_request_decided", sa.Boolean(), nullable=False),
        sa.Column("receipt_reminder", sa.Boolean(), nullable=False),
        sa.Column("request_to_decide", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "large_purchase_amount IS NULL OR large_purchase_amount > 0",
            name="ck_notification_preferences_amount",
        ),
        sa.ForeignKeyConstraint(
            ["user_uuid"], ["users.uuid"], name="fk_notification_preferences_user_uuid_users"
        ),
        sa.PrimaryKeyConstraint("user_uuid", name="pk_notification_preferences"),
    )


def _mails() -> None:
    op.create_table(
        "mails",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("uuid", sa.Uuid(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("user_uuid", sa.Uuid(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=True),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lease_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.String(length=500), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(f"kind IN ({KINDS})", name="ck_mails_kind"),
        sa.CheckConstraint("status IN ('pending', 'sent', 'failed')", name="ck_mails_status"),
        sa.ForeignKeyConstraint(["user_uuid"], ["users.uuid"], name="fk_mails_user_uuid_users"),
        sa.PrimaryKeyConstraint("id", name="pk_mails"),
        sa.UniqueConstraint("uuid", name="uq_mails_uuid"),
        # one mail of a kind per event and person: the queue is filled once per event
        sa.UniqueConstraint("event_id", "user_uuid", "kind", name="uq_mails_event_user_kind"),
    )
    pending = sa.text("status = 'pending'")
    op.create_index(
        "ix_mails_due", "mails", ["next_attempt_at", "id"],
        postgresql_where=pending, sqlite_where=pending,
    )  # fmt: skip
    op.create_index("ix_mails_user", "mails", ["user_uuid", "created_at"])


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    with op.batch_alter_table("teams") as batch:
        batch.add_column(
            sa.Column("member_cards", sa.String(length=8), nullable=False, server_default="direct")
        )
    if postgres:
        op.create_check_constraint(
            "ck_teams_member_cards", "teams", "member_cards IN ('direct', 'request')"
        )
        _frozen_check(WITH_OWNER)
    _preferences()
    _mails()


def downgrade() -> None:
    op.drop_index("ix_mails_user", table_name="mails")
    op.drop_index("ix_mails_due", table_name="mails")
    op.drop_table("mails")
    op.drop_table("notification_preferences")
    # an owner's freeze stays a freeze, as its holder's (a NULL reason) would be
    op.execute("UPDATE cards SET frozen_reason = NULL WHERE frozen_reason = 'owner'")
    if op.get_bind().dialect.name == "postgresql":
        _frozen_check(WITHOUT)
        op.drop_constraint("ck_teams_member_cards", "teams", type_="check")
    with op.batch_alter_table("teams") as batch:
        batch.drop_column("member_cards")

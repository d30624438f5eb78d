"""Mail sent once (docs/mail.md#delivery): a mail's `status` may also be `in_doubt` — its
attempt sent the SMTP `DATA` command, and nobody knows yet (or, once that attempt is over
without the server's answer, ever) whether the server took the message. Such a mail is never
sent again by the loop; the operator settles it (`cardservice mail settle`). An index finds
the attempts that ended without a word (a killed loop's), so the loop hands them to the
operator.

PostgreSQL replaces the CHECK; SQLite's is rewritten in place in the schema text (the
documented `writable_schema` way, which rewrites no row; as 20261127_48 does for `cards`).

Revision ID: 20261127_58
Revises: 20261127_57
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_58"
down_revision = "20261127_57"
branch_labels = None
depends_on = None

OLD = "status IN ('pending', 'sent', 'failed')"
NEW = "status IN ('pending', 'in_doubt', 'sent', 'failed')"
IN_DOUBT = sa.text("status = 'in_doubt'")


def _status_check(old: str, new: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.drop_constraint("ck_mails_status", "mails", type_="check")
        op.create_check_constraint("ck_mails_status", "mails", new)
        return
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        sa.text(
            "UPDATE sqlite_master SET sql = replace(sql, :old, :new)"
            " WHERE type = 'table' AND name = 'mails'"
        ).bindparams(old=old, new=new)
    )
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    op.execute(f"PRAGMA schema_version = {int(version) + 1}")
    op.execute("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    _status_check(OLD, NEW)
    op.create_index(
        "ix_mails_in_doubt", "mails", ["lease_until", "id"],
        postgresql_where=IN_DOUBT, sqlite_where=IN_DOUBT,
    )  # fmt: skip


def downgrade() -> None:
    op.drop_index("ix_mails_in_doubt", table_name="mails")
    # a mail in doubt was handed to the server as far as anyone knows: counted as sent before
    op.execute("UPDATE mails SET status = 'sent', lease_until = NULL WHERE status = 'in_doubt'")
    _status_check(NEW, OLD)

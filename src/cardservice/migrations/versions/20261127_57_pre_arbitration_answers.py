"""The acquirer's answer to a pre-arbitration (docs/disputes.md#the-acquirers-answer-to-a-pre-arbitration).

`clearing_records` takes two more kinds: `accepted` and `declined`, the acquirer's answer
(1644 `640` / `641`) to the issuer's 451, staged and booked by the incoming files' ingest as
its second presentments are.

SQLite's CHECK is edited in place in the schema text (as 20261127_50 does): a rebuilt table
would lose its triggers.

Revision ID: 20261127_57
Revises: 20261127_56
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_57"
down_revision = "20261127_56"
branch_labels = None
depends_on = None

NAME = "ck_clearing_records_ck_clearing_records_kind"
OLD_KIND = "kind IN ('purchase', 'refund', 'second', 'atm')"
NEW_KIND = "kind IN ('purchase', 'refund', 'second', 'atm', 'accepted', 'declined')"


def _check(old: str, new: str) -> None:
    """Replace the kinds' CHECK (its name as PostgreSQL holds it: the prefix twice)."""
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(op.f(NAME), "clearing_records", type_="check")
        op.create_check_constraint(op.f(NAME), "clearing_records", new)
        return
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        sa.text(
            "UPDATE sqlite_master SET sql = replace(sql, :old, :new)"
            " WHERE type = 'table' AND name = 'clearing_records'"
        ).bindparams(old=old, new=new)
    )
    version = op.get_bind().exec_driver_sql("PRAGMA schema_version").scalar_one()
    op.execute(f"PRAGMA schema_version = {int(version) + 1}")
    op.execute("PRAGMA writable_schema = OFF")


def upgrade() -> None:
    _check(OLD_KIND, NEW_KIND)


def downgrade() -> None:
    op.execute("DELETE FROM clearing_records WHERE kind IN ('accepted', 'declined')")
    _check(NEW_KIND, OLD_KIND)

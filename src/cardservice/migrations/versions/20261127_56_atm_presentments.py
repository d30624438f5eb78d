"""ATM presentments in clearing files (docs/network.md#clearing-files): `clearing_records.kind`
takes `atm` (a first presentment with DE 3 `01…`, cash at an ATM, booked against an
`atm_withdrawal` authorization).

SQLite's CHECK is edited in place in the schema text (as 20261127_50 does): a rebuilt table
would lose its triggers.

Revision ID: 20261127_56
Revises: 20261127_51
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261127_56"
down_revision = "20261127_51"
branch_labels = None
depends_on = None

NAME = "ck_clearing_records_ck_clearing_records_kind"  # as PostgreSQL holds it
OLD_KIND = "kind IN ('purchase', 'refund', 'second')"
NEW_KIND = "kind IN ('purchase', 'refund', 'second', 'atm')"


def _check(old: str, new: str) -> None:
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
    op.execute("DELETE FROM clearing_records WHERE kind = 'atm'")
    _check(NEW_KIND, OLD_KIND)

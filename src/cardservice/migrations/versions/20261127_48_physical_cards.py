"""Physical cards and PINs (docs/cards.md).

`cards` gains:
- `form`: `virtual` (every card so far) or `physical`;
- `shipping`: a physical card's delivery address (JSON), NULL for a virtual card;
- `fulfilment_status` (`ordered`, `printed`, `shipped`, `delivered`, `returned`),
  `fulfilment_carrier`, `fulfilment_tracking`, `fulfilment_updated_at`: a physical card's
  production and delivery, NULL for a virtual card;
- `pin_pvv`: the Visa PIN verification value of the PIN its holder set (never the PIN);
  NULL: no PIN;
- `pin_blocked`: the network blocked the PIN (too many wrong PINs); false until it does.

A card's `status` may also be `inactive` (a physical card until its holder activates it).
PostgreSQL's CHECK is replaced; SQLite's is edited in place in the schema text (the
documented `writable_schema` way of loosening a CHECK, which rewrites no row), because a
rebuilt `cards` table would lose its event triggers.

The catalogue again: the `card_physical` fee (a fixed amount per physical card bought).

`pin_nonces` keeps the SHA-256 of every nonce a PIN envelope carried: each is used once.

Revision ID: 20261127_48
Revises: 20261127_45
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261127_48"
down_revision = "20261127_45"
branch_labels = None
depends_on = None

OLD_STATUS = "status IN ('active', 'frozen', 'closed')"
NEW_STATUS = "status IN ('active', 'frozen', 'closed', 'inactive')"
FORM = "form IN ('virtual', 'physical')"
FULFILMENT = (
    "fulfilment_status IS NULL OR fulfilment_status IN"
    " ('ordered', 'printed', 'shipped', 'delivered', 'returned')"
)


def _sqlite_status_check(old: str, new: str) -> None:
    op.execute("PRAGMA writable_schema = ON")
    op.execute(
        sa.text(
            "UPDATE sqlite_master SET sql = replace(sql, :old, :new)"
            " WHERE type = 'table' AND name = 'cards'"
        ).bindparams(old=old, new=new)
    )
    version = op.get_bind().exec_driver_sql("PRAGMA schema_version").scalar_one()
    op.execute(f"PRAGMA schema_version = {int(version) + 1}")
    op.execute("PRAGMA writable_schema = OFF")


def _status_check(old: str, new: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(op.f("ck_cards_status"), "cards", type_="check")
        op.create_check_constraint(op.f("ck_cards_status"), "cards", new)
    else:
        _sqlite_status_check(old, new)


def upgrade() -> None:
    op.add_column(
        "cards", sa.Column("form", sa.String(8), nullable=False, server_default="virtual")
    )
    op.add_column("cards", sa.Column("shipping", sa.JSON(), nullable=True))
    op.add_column("cards", sa.Column("fulfilment_status", sa.String(16), nullable=True))
    op.add_column("cards", sa.Column("fulfilment_carrier", sa.String(64), nullable=True))
    op.add_column("cards", sa.Column("fulfilment_tracking", sa.String(64), nullable=True))
    op.add_column(
        "cards", sa.Column("fulfilment_updated_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("cards", sa.Column("pin_pvv", sa.String(4), nullable=True))
    op.add_column(
        "cards",
        sa.Column("pin_blocked", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    _status_check(OLD_STATUS, NEW_STATUS)
    if op.get_bind().dialect.name == "postgresql":
        op.create_check_constraint(op.f("ck_cards_form"), "cards", FORM)
        op.create_check_constraint(op.f("ck_cards_fulfilment_status"), "cards", FULFILMENT)
    op.create_table(
        "pin_nonces",
        sa.Column("nonce_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("nonce_hash", name="pk_pin_nonces"),
    )
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    op.drop_table("pin_nonces")
    # an inactive card cannot be represented before: it is frozen until then
    op.execute("UPDATE cards SET status = 'frozen' WHERE status = 'inactive'")
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint(op.f("ck_cards_fulfilment_status"), "cards", type_="check")
        op.drop_constraint(op.f("ck_cards_form"), "cards", type_="check")
    _status_check(NEW_STATUS, OLD_STATUS)
    with op.batch_alter_table("cards") as batch:
        for column in (
            "pin_blocked", "pin_pvv", "fulfilment_updated_at", "fulfilment_tracking",
            "fulfilment_carrier", "fulfilment_status", "shipping", "form",
        ):  # fmt: skip
            batch.drop_column(column)

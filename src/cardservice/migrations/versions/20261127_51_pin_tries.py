"""The PIN on the network (docs/cards.md#pin-in-iso-8583).

`cards.pin_failures`: the wrong PINs in a row since the last right one (the third blocks
the PIN, `pin_blocked`); written under the card's row lock by the authorization that counted
it.

`cards.activated_at`: when its holder activated a physical card (those active already take
their last change's time); NULL for a virtual card and a physical one never activated — the
card-testing guard may freeze such a card after wrong activation digits, and its holder's
unfreeze then gives it back `inactive`, never `active` without its digits.

The transaction type `atm_withdrawal` (cash at an ATM, held and captured as a purchase), added
to the type rule both databases hold (as 20261124_27 did).

The catalogue again: the decline slugs `invalid_pin` (`55`), `pin_tries_exceeded` (`75`)
and `virtual_card_present` (`57`); the `card_atm` fee (a fixed amount per withdrawal).

Revision ID: 20261127_51
Revises: 20261127_54
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from cardservice.catalogue.loader import sync_catalogue

revision = "20261127_51"
down_revision = "20261127_54"
branch_labels = None
depends_on = None


TYPES = (  # the types as 20261127_50 left them
    "card_purchase", "card_refund", "card_issue", "card_topup", "auto_replenish", "fee",
    "deposit", "card_close", "dispute_credit", "withdrawal", "card_transfer",
    "dispute_provisional_credit", "dispute_provisional_reversal",
)  # fmt: skip
ATM = "atm_withdrawal"


def _type_rule(types: tuple[str, ...]) -> None:
    expression = "{r}type IN (" + ", ".join(f"'{value}'" for value in types) + ")"
    if op.get_bind().dialect.name == "postgresql":
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


def upgrade() -> None:
    _type_rule((*TYPES, ATM))
    op.add_column(
        "cards",
        sa.Column("pin_failures", sa.Integer(), nullable=False, server_default="0"),
    )
    op.add_column("cards", sa.Column("activated_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(
        "UPDATE cards SET activated_at = updated_at"
        " WHERE form = 'physical' AND status IN ('active', 'frozen')"
    )
    sync_catalogue(op.get_bind())


def downgrade() -> None:
    # a withdrawal cannot be represented before: it was a purchase of cash
    op.execute(f"UPDATE transactions SET type = 'card_purchase' WHERE type = '{ATM}'")
    _type_rule(TYPES)
    op.drop_column("cards", "activated_at")
    op.drop_column("cards", "pin_failures")  # SQLite drops it in place: its triggers stay

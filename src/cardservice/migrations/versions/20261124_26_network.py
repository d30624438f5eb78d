"""The ISO 8583 network interface (docs/network.md#the-network-interface-iso-8583).

`transactions` gains what the network channel shows on a transaction:
- `channel`: `sandbox` (every row so far) | `iso8583`;
- `network`: JSON text `{stan, rrn, acquirer_id, terminal_id, merchant_id, auth_code}`
  (NULL for the sandbox);
- `stand_in`: an authorization the network approved on the issuer's behalf (0120);
- `shortfall`: what such an authorization took beyond the card's balance, booked to the
  `cardholder_receivables` book (minor units, ≥ 0).

`network_messages` is the one table of message keys (jPOS keeps repeats and reversals
matched on one): a row per message answered that moved or may move money, keyed by
(acquirer id 32 as 11 digits, STAN 11, transmission date and time 7, the MTI's class
without its repeat digit), with the answer given (a repeat gets it again) and the
transaction it concerns. A reversal whose original is unknown leaves a row under the
*original's* key with no answer yet (`response_code` NULL): the original, arriving within
24 h, finds it (or collides with it) and is released at once.

Revision ID: 20261124_26
Revises: 20261124_25
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "20261124_26"
down_revision = "20261124_25"  # chained after card-details, merged in for its CVV2
branch_labels = None
depends_on = None

CHECKS = {
    "channel": "{r}channel IN ('sandbox', 'iso8583')",
    "shortfall": "{r}shortfall >= 0",
}


def upgrade() -> None:
    op.add_column(
        "transactions",
        sa.Column("channel", sa.String(16), nullable=False, server_default="sandbox"),
    )
    op.add_column("transactions", sa.Column("network", sa.Text()))
    op.add_column(
        "transactions",
        sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.add_column(
        "transactions",
        sa.Column("shortfall", sa.BigInteger(), nullable=False, server_default="0"),
    )
    _add_checks()
    op.create_table(
        "network_messages",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True),
        sa.Column("acquirer_id", sa.String(11), nullable=False),
        sa.Column("stan", sa.String(6), nullable=False),
        sa.Column("transmitted", sa.String(10), nullable=False),
        sa.Column("mti_class", sa.String(3), nullable=False),
        sa.Column("transaction_uuid", sa.Uuid(), sa.ForeignKey("transactions.uuid")),
        sa.Column("response_code", sa.String(2)),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "acquirer_id", "stan", "transmitted", "mti_class", name="uq_network_messages_key"
        ),
    )


def _add_checks() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name, expression in CHECKS.items():
            op.execute(
                f"ALTER TABLE transactions ADD CONSTRAINT ck_transactions_{name}"
                f" CHECK ({expression.format(r='')})"
            )
        return
    for name, expression in CHECKS.items():
        for event in ("INSERT", "UPDATE"):
            op.execute(
                f"CREATE TRIGGER ck_transactions_{name}_{event.lower()} BEFORE {event}"
                f" ON transactions WHEN NOT ({expression.format(r='NEW.')})"
                f" BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed:"
                f" ck_transactions_{name}'); END"
            )


def downgrade() -> None:
    op.drop_table("network_messages")
    if op.get_bind().dialect.name != "postgresql":
        for name in CHECKS:
            for event in ("insert", "update"):
                op.execute(f"DROP TRIGGER IF EXISTS ck_transactions_{name}_{event}")
    for column in ("shortfall", "stand_in", "network", "channel"):
        op.drop_column("transactions", column)

"""The journal's hash chain and the day totals of balances at an instant
(docs/ledger.md#the-hash-chain-tamper-evidence).

* `journal_entries.chain_seq` (unique) and `hash`: the entry's place in the chain and
  SHA-256 over its canonical content and the previous hash (`cardservice.ledger.chain`).
  Entries stay append-only: the one change the database lets through is giving an entry
  without a place its place and hash, once (PostgreSQL: `refuse_entry_change`, which
  compares the whole row but those two columns; SQLite: the update trigger's `WHEN`).
* `ledger_chain_head`: one row, the last place and hash; every unit that wrote entries
  locks it at its very end.
* `ledger_day_totals`: postings added up per UTC day, holder class, entry kind, currency;
  `ledger_holder_days`: per account or card, UTC day and currency (the checkpoints of
  balances at an instant, `cardservice.ledger.books`).
* `ix_postings_account` and `ix_postings_card` become (holder, entry_id, amount): a
  holder's postings in a range of entries, read from the index alone.
* `ix_journal_entries_created_at`: the entries of a day, for balances at an instant.

Existing history is chained here in id order (the order the entries were written; their
commit order was not recorded) and its day totals are added up.

Revision ID: 20261124_28
Revises: 20261124_27
Create Date: 2026-11-24
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from cardservice.ledger.chain import GENESIS, day_totals, entries_of, entry_hash, holder_days

revision = "20261124_28"
down_revision = "20261124_27"  # chained after the operator's 20261124_27 at the merge
branch_labels = None
depends_on = None

BATCH = 5_000

POSTGRES = [
    """
    CREATE FUNCTION refuse_entry_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'UPDATE' AND OLD.chain_seq IS NULL AND OLD.hash IS NULL
                AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
                AND to_jsonb(NEW) - 'chain_seq' - 'hash'
                    = to_jsonb(OLD) - 'chain_seq' - 'hash' THEN
            RETURN NEW;  -- chained once (ledger.chain.seal)
        END IF;
        RAISE EXCEPTION 'journal entries are never edited or deleted; post a reversal'
            USING ERRCODE = 'check_violation';
    END $$
    """,
    "DROP TRIGGER journal_entries_append_only ON journal_entries",
    "CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries"
    " FOR EACH ROW EXECUTE FUNCTION refuse_entry_change()",
]

SQLITE = [
    "DROP TRIGGER journal_entries_append_only_update",
    """
    CREATE TRIGGER journal_entries_append_only_update BEFORE UPDATE ON journal_entries
    WHEN NOT (OLD.chain_seq IS NULL AND OLD.hash IS NULL
              AND NEW.chain_seq IS NOT NULL AND NEW.hash IS NOT NULL
              AND NEW.id IS OLD.id AND NEW.kind IS OLD.kind
              AND NEW.reference IS OLD.reference AND NEW.created_at IS OLD.created_at)
    BEGIN SELECT RAISE(ABORT, 'journal_entries are never edited or deleted; post a reversal');
    END
    """,
]

_BATCH_ROWS = """
SELECT e.id, e.kind, e.reference, e.created_at,
       p.account_uuid, p.card_uuid, p.system_book, p.currency, p.amount
FROM journal_entries e JOIN postings p ON p.entry_id = e.id
WHERE e.id > :after AND e.id <= :upto ORDER BY e.id, p.id"""


def _chain_history(bind: sa.Connection) -> None:
    postgres = bind.dialect.name == "postgresql"
    last_id = int(
        bind.execute(sa.text("SELECT coalesce(max(id), 0) FROM journal_entries")).scalar_one()
    )
    seq, prev, after = 0, GENESIS, 0
    totals: dict[Any, tuple[int, int]] = {}
    holders: dict[Any, int] = {}
    while after < last_id:
        upto = after + BATCH
        rows = bind.execute(sa.text(_BATCH_ROWS), {"after": after, "upto": upto}).mappings()
        entries = entries_of(rows)  # type: ignore[arg-type]  # a mapping serves as a Row
        updates = []
        for entry in entries:
            seq += 1
            prev = entry_hash(entry, seq, prev)
            updates.append({"id": entry.id, "seq": seq, "hash": prev})
        if updates:
            bind.execute(
                sa.text("UPDATE journal_entries SET chain_seq = :seq, hash = :hash WHERE id = :id"),
                updates,
            )
        for key, (amount, count) in day_totals(entries).items():
            total, postings = totals.get(key, (0, 0))
            totals[key] = (total + amount, postings + count)
        for place, amount in holder_days(entries).items():
            holders[place] = holders.get(place, 0) + amount
        after = upto
    if totals:
        bind.execute(
            sa.text(
                "INSERT INTO ledger_day_totals (day, holder_class, kind, currency, amount, postings)"
                " VALUES (:day, :holder_class, :kind, :currency, :amount, :postings)"
            ),
            [
                {"day": k[0] if postgres else k[0].isoformat(), "holder_class": k[1], "kind": k[2], "currency": k[3],
                 "amount": v[0], "postings": v[1]}
                for k, v in totals.items()
            ],
        )  # fmt: skip
    if holders:
        bind.execute(
            sa.text(
                "INSERT INTO ledger_holder_days (holder, day, currency, amount)"
                " VALUES (:holder, :day, :currency, :amount)"
            ),
            [
                {"holder": k[0], "day": k[1] if postgres else k[1].isoformat(),
                 "currency": k[2], "amount": v}
                for k, v in holders.items()
            ],
        )  # fmt: skip
    bind.execute(
        sa.text("INSERT INTO ledger_chain_head (id, seq, hash) VALUES (1, :seq, :hash)"),
        {"seq": seq, "hash": prev},
    )


def upgrade() -> None:
    op.add_column("journal_entries", sa.Column("chain_seq", sa.BigInteger()))
    op.add_column("journal_entries", sa.Column("hash", sa.String(64)))
    op.create_index("ix_journal_entries_chain_seq", "journal_entries", ["chain_seq"], unique=True)
    op.create_index("ix_journal_entries_created_at", "journal_entries", ["created_at"])
    op.create_table(
        "ledger_chain_head",
        sa.Column("id", sa.SmallInteger(), primary_key=True),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.CheckConstraint("id = 1", name="one_row"),
    )
    op.create_table(
        "ledger_day_totals",
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("holder_class", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(32), primary_key=True),
        sa.Column("currency", sa.String(3), primary_key=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("postings", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "ledger_holder_days",
        sa.Column("holder", sa.String(48), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("currency", sa.String(3), primary_key=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
    )
    for holder in ("account", "card"):
        op.drop_index(f"ix_postings_{holder}", "postings")
        op.create_index(
            f"ix_postings_{holder}", "postings", [f"{holder}_uuid", "entry_id", "amount"]
        )
    bind = op.get_bind()
    for statement in POSTGRES if bind.dialect.name == "postgresql" else SQLITE:
        op.execute(statement)
    _chain_history(bind)


def downgrade() -> None:
    raise NotImplementedError("the hash chain is not taken back; restore a backup instead")

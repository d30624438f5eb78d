"""The ledger's rules held by both databases, and counters that keep the lock order.

Rules (each refused by the database itself, whoever writes):
* an entry's postings are written before the entry; inserting the entry checks that they
  sum to zero per currency (and that there are some); a posting for an entry that already
  exists is refused; a posting whose entry never comes fails at commit (the foreign key is
  deferred: DEFERRABLE on PostgreSQL, `PRAGMA defer_foreign_keys` in SQLite's write units);
* postings and entries are append-only;
* a posting's currency is its account's or card's currency;
* transactions: amount, fee ≥ 0, 0 ≤ refunded_amount ≤ amount, enumerated type, status and
  direction; accounts: enumerated status.
PostgreSQL holds the checks as CHECK constraints, SQLite (which cannot add one to an existing
table) as triggers with the same expressions.

Counters (PostgreSQL; SQLite's writer holds the whole database): one trigger keeps them in a
fixed order — the user's transaction count, then the user's spend days, then the tag — and
every firing that touches a spend day takes the user's count row first, so two units of one
user always meet on the same row first and can never wait on each other in a cycle. Tag
popularity is kept by the same trigger for every transaction carrying a tag (refunds too).

Revision ID: 20261123_02
Revises: 20261123_01
Create Date: 2026-11-23
"""

from __future__ import annotations

from alembic import op

revision = "20261123_02"
down_revision = "20261123_01"
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
)
STATUSES = ("pending", "completed", "declined", "reversed", "refunded")


def _in(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


# `{r}` is the row: nothing in a CHECK, `NEW.` in a trigger.
CHECKS = {
    "transactions": {
        "amounts_not_negative": "{r}amount >= 0 AND {r}fee >= 0",
        "refunded_within_amount": "{r}refunded_amount >= 0 AND {r}refunded_amount <= {r}amount",
        "type": f"{{r}}type IN ({_in(TYPES)})",
        "status": f"{{r}}status IN ({_in(STATUSES)})",
        "direction": "{r}direction IN ('debit', 'credit')",
    },
    "accounts": {"status": "{r}status IN ('active', 'frozen', 'closed')"},
}

POSTGRES = [
    "DROP TRIGGER postings_balanced ON postings",
    "DROP FUNCTION check_entry_balanced()",
    "ALTER TABLE postings ALTER CONSTRAINT fk_postings_entry_id_journal_entries"
    " DEFERRABLE INITIALLY DEFERRED",
    """
    CREATE FUNCTION check_posting() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF EXISTS (SELECT 1 FROM journal_entries WHERE id = NEW.entry_id) THEN
            RAISE EXCEPTION 'entry % is already written: its postings are final', NEW.entry_id
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.account_uuid IS NOT NULL AND NEW.currency IS DISTINCT FROM
                (SELECT currency FROM accounts WHERE uuid = NEW.account_uuid) THEN
            RAISE EXCEPTION 'posting currency differs from its account''s'
                USING ERRCODE = 'check_violation';
        END IF;
        IF NEW.card_uuid IS NOT NULL AND NEW.currency IS DISTINCT FROM
                (SELECT currency FROM cards WHERE uuid = NEW.card_uuid) THEN
            RAISE EXCEPTION 'posting currency differs from its card''s'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END $$
    """,
    "CREATE TRIGGER postings_checked BEFORE INSERT ON postings"
    " FOR EACH ROW EXECUTE FUNCTION check_posting()",
    """
    CREATE FUNCTION check_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF NOT EXISTS (SELECT 1 FROM postings WHERE entry_id = NEW.id) OR EXISTS (
            SELECT 1 FROM postings WHERE entry_id = NEW.id
            GROUP BY currency HAVING SUM(amount) <> 0
        ) THEN
            RAISE EXCEPTION 'journal entry % does not sum to zero', NEW.id
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries"
    " FOR EACH ROW EXECUTE FUNCTION check_entry_balanced()",
    "CREATE TRIGGER journal_entries_append_only BEFORE UPDATE OR DELETE ON journal_entries"
    " FOR EACH ROW EXECUTE FUNCTION refuse_posting_change()",
    # counters, in one trigger and one order
    "DROP TRIGGER transactions_counted ON transactions",
    "DROP FUNCTION count_transactions()",
    "DROP TRIGGER transactions_spend ON transactions",
    "DROP FUNCTION track_spend()",
    """
    CREATE FUNCTION keep_counters() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- 1. the user's transaction count (its row is the first counter any unit takes)
        IF TG_OP = 'INSERT' THEN
            INSERT INTO transaction_counts (user_uuid, transactions) VALUES (NEW.user_uuid, 1)
            ON CONFLICT (user_uuid)
            DO UPDATE SET transactions = transaction_counts.transactions + 1;
        ELSIF TG_OP = 'DELETE' THEN
            UPDATE transaction_counts SET transactions = transactions - 1
            WHERE user_uuid = OLD.user_uuid;
        ELSE
            PERFORM 1 FROM transaction_counts WHERE user_uuid = NEW.user_uuid FOR UPDATE;
        END IF;
        -- 2. the user's spend days
        IF TG_OP <> 'INSERT' AND OLD.type = 'card_purchase'
                AND OLD.status IN ('pending', 'completed') THEN
            UPDATE daily_spend SET amount = amount - OLD.amount
            WHERE user_uuid = OLD.user_uuid AND currency = OLD.currency
              AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.type = 'card_purchase'
                AND NEW.status IN ('pending', 'completed') THEN
            INSERT INTO daily_spend (user_uuid, currency, spent_on, amount)
            VALUES (NEW.user_uuid, NEW.currency, (NEW.created_at AT TIME ZONE 'UTC')::date,
                    NEW.amount)
            ON CONFLICT (user_uuid, currency, spent_on)
            DO UPDATE SET amount = daily_spend.amount + EXCLUDED.amount;
        END IF;
        -- 3. the tag's popularity: every transaction carrying it
        IF TG_OP = 'INSERT' AND NEW.tag_slug IS NOT NULL THEN
            UPDATE transaction_tags SET transactions_count = transactions_count + 1
            WHERE slug = NEW.tag_slug;
        END IF;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER transactions_counters"
    " AFTER INSERT OR UPDATE OF status, amount, type, created_at, currency, user_uuid OR DELETE"
    " ON transactions FOR EACH ROW EXECUTE FUNCTION keep_counters()",
]

SQLITE = [
    """
    CREATE TRIGGER postings_checked BEFORE INSERT ON postings BEGIN
        SELECT RAISE(ABORT, 'the entry is already written: its postings are final')
        WHERE EXISTS (SELECT 1 FROM journal_entries WHERE id = NEW.entry_id);
        SELECT RAISE(ABORT, 'posting currency differs from its account''s')
        WHERE NEW.account_uuid IS NOT NULL AND NEW.currency IS NOT
            (SELECT currency FROM accounts WHERE uuid = NEW.account_uuid);
        SELECT RAISE(ABORT, 'posting currency differs from its card''s')
        WHERE NEW.card_uuid IS NOT NULL AND NEW.currency IS NOT
            (SELECT currency FROM cards WHERE uuid = NEW.card_uuid);
    END
    """,
    """
    CREATE TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries BEGIN
        SELECT RAISE(ABORT, 'the journal entry does not sum to zero')
        WHERE NOT EXISTS (SELECT 1 FROM postings WHERE entry_id = NEW.id) OR EXISTS (
            SELECT 1 FROM postings WHERE entry_id = NEW.id
            GROUP BY currency HAVING sum(amount) <> 0
        );
    END
    """,
    *(
        f"CREATE TRIGGER {table}_append_only_{event.lower()} BEFORE {event} ON {table} BEGIN"
        f" SELECT RAISE(ABORT, '{table} are never edited or deleted; post a reversal'); END"
        for table in ("postings", "journal_entries")
        for event in ("UPDATE", "DELETE")
    ),
    "CREATE TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " WHEN NEW.tag_slug IS NOT NULL BEGIN"
    " UPDATE transaction_tags SET transactions_count = transactions_count + 1"
    " WHERE slug = NEW.tag_slug; END",
]


def _sqlite_checks() -> list[str]:
    return [
        f"CREATE TRIGGER ck_{table}_{name}_{event.lower()} BEFORE {event} ON {table}"
        f" WHEN NOT ({expression.format(r='NEW.')})"
        f" BEGIN SELECT RAISE(ABORT, 'CHECK constraint failed: ck_{table}_{name}'); END"
        for table, checks in CHECKS.items()
        for name, expression in checks.items()
        for event in ("INSERT", "UPDATE")
    ]


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    if postgres:
        for statement in POSTGRES:
            op.execute(statement)
        for table, checks in CHECKS.items():
            for name, expression in checks.items():
                op.execute(
                    f"ALTER TABLE {table} ADD CONSTRAINT ck_{table}_{name}"
                    f" CHECK ({expression.format(r='')})"
                )
    else:
        for statement in [*SQLITE, *_sqlite_checks()]:
            op.execute(statement)
    op.execute(
        "UPDATE transaction_tags SET transactions_count ="
        " (SELECT count(*) FROM transactions t WHERE t.tag_slug = transaction_tags.slug)"
    )


def downgrade() -> None:
    raise NotImplementedError("the ledger's rules are not taken back; restore a backup instead")

"""The foreign keys an approval's rows fired, checked once a statement instead (PostgreSQL).

An approval's write statement (`ledger.entries`: the transaction, its event, the postings,
the entry, the card's balance) fired a foreign key's trigger a row: the transaction's to its
user, account and card (a `FOR KEY SHARE` probe each, on rows the unit already holds locked
or updates in the same statement), and at COMMIT the postings' deferred one to their entry
(a probe a posting, on the entry the same statement inserted). Measured inside PostgreSQL
(`python -m bench.ledger_checks --keys`, docs/ledger.md "What each key and index costs an
approval"), they are dropped and the statement triggers that already run once a statement
check the same:

* `count_inserted()` (`transactions_counted`, migration 20261128_01) checks that every new
  transaction's user, account and card (when it has one) exists: `no user …`, `no account
  …`, `no card …`, `foreign_key_violation` as the keys raised. An index probe each, no lock.
* `check_postings()` (`postings_checked`, migration 20261127_52) refuses a posting whose
  entry was not written by the very command that wrote the posting: one already written
  (as before), or none at all (`no journal entry …`). On PostgreSQL an entry's postings and
  the entry are one statement (`ledger.entries`, the only writer); a posting whose entry
  never comes is refused at once, no longer at COMMIT.
* The other side of the dropped keys: a user, an account or a card a transaction names is
  never deleted nor its uuid changed (`users_kept`, `accounts_kept`, `cards_kept`: `BEFORE
  DELETE OR UPDATE OF uuid`, row triggers on rows the service never deletes — what the keys'
  `NO ACTION` refused), and a transaction's user, account or card changed by an update is
  checked as a new one (`transactions_holders_known`). Journal entries are append-only
  already (`journal_entries_append_only`): an entry a posting names is never deleted.

Without a lock a delete of a user racing the insert of their transaction is not serialised
by the insert: the unit holds the account and the card locked (docs/ledger.md, "Lock
order"), so a delete of either waits for it and then finds the transaction; a user is not
deleted while an account of theirs exists (`fk_accounts_user_uuid_users` stays).

The transaction's key to its parent (`fk_transactions_parent_uuid_transactions`) stays, and
so does every index: their figures and readers are in docs/ledger.md.

SQLite keeps its foreign keys (checked in process, no lock; dropping one there would
rebuild the table).

Revision ID: 20261128_04
Revises: 20261128_01
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "20261128_04"
down_revision = "20261128_01"
branch_labels = None
depends_on = None

DAY = "(created_at AT TIME ZONE 'UTC')::date"

# the keys dropped: name, table, column, referenced table, and how (the way back)
KEYS = [
    ("fk_transactions_user_uuid_users", "transactions", "user_uuid", "users", ""),
    ("fk_transactions_account_uuid_accounts", "transactions", "account_uuid", "accounts", ""),
    ("fk_transactions_card_uuid_cards", "transactions", "card_uuid", "cards", ""),
    (
        "fk_postings_entry_id_journal_entries", "postings", "entry_id", "journal_entries",
        " DEFERRABLE INITIALLY DEFERRED",
    ),
]  # fmt: skip


def _count_inserted(holders: str) -> str:
    """`count_inserted()` of migration 20261128_01, with `holders` first."""
    return f"""
CREATE OR REPLACE FUNCTION count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing text;
BEGIN{holders}
    -- 1. the users' transaction counts
    INSERT INTO transaction_counts (user_uuid, transactions)
    SELECT user_uuid, count(*) FROM new_transactions GROUP BY user_uuid ORDER BY user_uuid
    ON CONFLICT (user_uuid)
    DO UPDATE SET transactions = transaction_counts.transactions + EXCLUDED.transactions;
    -- 2. the users' spend days
    INSERT INTO daily_spend (user_uuid, currency, spent_on, amount)
    SELECT user_uuid, currency, {DAY}, sum(amount)::bigint FROM new_transactions
    WHERE type = 'card_purchase' AND status IN ('pending', 'completed')
    GROUP BY user_uuid, currency, {DAY} ORDER BY user_uuid, currency, {DAY}
    ON CONFLICT (user_uuid, currency, spent_on)
    DO UPDATE SET amount = daily_spend.amount + EXCLUDED.amount;
    -- 3. the tags: each exists (no foreign key, migration 20261127_52), a waiting row each
    SELECT n.tag_slug INTO missing FROM new_transactions n
    WHERE n.tag_slug IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM transaction_tags t WHERE t.slug = n.tag_slug)
    LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'no tag %', missing USING ERRCODE = 'foreign_key_violation';
    END IF;
    INSERT INTO tag_counts_waiting (tag_slug)
    SELECT tag_slug FROM new_transactions WHERE tag_slug IS NOT NULL;
    -- 4. the cards' spend days (their spending controls' windows)
    INSERT INTO card_spend (card_uuid, spent_on, amount)
    SELECT card_uuid, {DAY}, sum(amount - refunded_amount)::bigint FROM new_transactions
    WHERE type = 'card_purchase' AND status IN ('pending', 'completed', 'refunded')
    GROUP BY card_uuid, {DAY} ORDER BY card_uuid, {DAY}
    ON CONFLICT (card_uuid, spent_on)
    DO UPDATE SET amount = card_spend.amount + EXCLUDED.amount;
    RETURN NULL;
END $$
"""


# one query for the statement's transactions, scalar probes (no lock): the first missing one
HOLDERS = """
    -- 0. each one's user, account and card exists (no foreign keys, migration 20261128_04)
    SELECT CASE
             WHEN NOT EXISTS (SELECT 1 FROM users u WHERE u.uuid = n.user_uuid)
               THEN 'no user ' || n.user_uuid
             WHEN NOT EXISTS (SELECT 1 FROM accounts a WHERE a.uuid = n.account_uuid)
               THEN 'no account ' || n.account_uuid
             ELSE 'no card ' || n.card_uuid END
    INTO missing FROM new_transactions n
    WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.uuid = n.user_uuid)
       OR NOT EXISTS (SELECT 1 FROM accounts a WHERE a.uuid = n.account_uuid)
       OR (n.card_uuid IS NOT NULL
           AND NOT EXISTS (SELECT 1 FROM cards c WHERE c.uuid = n.card_uuid))
    LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', missing USING ERRCODE = 'foreign_key_violation';
    END IF;"""

# a transaction's user, account or card changed: the same check, for the row
CHECK_HOLDERS = """
CREATE FUNCTION check_holders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM users WHERE uuid = NEW.user_uuid) THEN
        RAISE EXCEPTION 'no user %', NEW.user_uuid USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM accounts WHERE uuid = NEW.account_uuid) THEN
        RAISE EXCEPTION 'no account %', NEW.account_uuid
            USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.card_uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cards WHERE uuid = NEW.card_uuid)
    THEN
        RAISE EXCEPTION 'no card %', NEW.card_uuid USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END $$
"""

# a user, an account or a card deleted or renumbered: refused while a transaction names it
# (TG_ARGV[0]: the transactions' column; each has an index that leads with it)
KEEP_HOLDER = """
CREATE FUNCTION keep_holder() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    named boolean;
BEGIN
    IF TG_OP = 'DELETE' OR NEW.uuid IS DISTINCT FROM OLD.uuid THEN
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM transactions WHERE %I = $1)', TG_ARGV[0])
        INTO named USING OLD.uuid;
        IF named THEN
            RAISE EXCEPTION '% % is named by a transaction', TG_TABLE_NAME, OLD.uuid
                USING ERRCODE = 'foreign_key_violation';
        END IF;
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$
"""


def _check_postings(entry: str) -> str:
    """`check_postings()` of migration 20261127_52, its entry's rule `entry`."""
    return f"""
CREATE OR REPLACE FUNCTION check_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    broken text;
BEGIN
    SELECT CASE WHEN n.currency IS DISTINCT FROM
                    (SELECT a.currency FROM accounts a WHERE a.uuid = n.account_uuid)
                     AND n.account_uuid IS NOT NULL
                  OR n.currency IS DISTINCT FROM
                    (SELECT c.currency FROM cards c WHERE c.uuid = n.card_uuid)
                     AND n.card_uuid IS NOT NULL
                THEN 'posting currency differs from its holder''s (or no such holder)'{entry}
    INTO broken FROM new_postings n
    WHERE (n.account_uuid IS NOT NULL AND n.currency IS DISTINCT FROM
           (SELECT a.currency FROM accounts a WHERE a.uuid = n.account_uuid))
       OR (n.card_uuid IS NOT NULL AND n.currency IS DISTINCT FROM
           (SELECT c.currency FROM cards c WHERE c.uuid = n.card_uuid))
       -- an entry written by another command than the posting's (transaction, command)
       OR (SELECT NOT (e.xmin = p.xmin AND e.cmin = p.cmin)
           FROM journal_entries e, postings p WHERE e.id = n.entry_id AND p.id = n.id)
    LIMIT 1;
    IF broken IS NOT NULL THEN
        RAISE EXCEPTION '%', broken USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$
"""


# 20261127_52's: an entry written before; now also none at all (its key is dropped)
ENTRY_BEFORE = """
                ELSE 'the entry is already written: its postings are final' END"""
ENTRY_NOW = """
                WHEN NOT EXISTS (SELECT 1 FROM journal_entries e WHERE e.id = n.entry_id)
                THEN 'no journal entry ' || n.entry_id || ' in the posting''s statement'
                ELSE 'the entry is already written: its postings are final' END"""
CHECK_POSTINGS = _check_postings(ENTRY_NOW).replace(
    """       OR (SELECT NOT (e.xmin = p.xmin AND e.cmin = p.cmin)
           FROM journal_entries e, postings p WHERE e.id = n.entry_id AND p.id = n.id)""",
    """       OR NOT EXISTS (SELECT 1 FROM journal_entries e, postings p
                      WHERE e.id = n.entry_id AND p.id = n.id
                        AND e.xmin = p.xmin AND e.cmin = p.cmin)""",
)

HOLDER_TABLES = [("users", "user_uuid"), ("accounts", "account_uuid"), ("cards", "card_uuid")]

UPGRADE = [
    *(f"ALTER TABLE {table} DROP CONSTRAINT {name}" for name, table, *_ in KEYS),
    _count_inserted(HOLDERS),
    CHECK_HOLDERS,
    "CREATE TRIGGER transactions_holders_known BEFORE UPDATE OF user_uuid, account_uuid,"
    " card_uuid ON transactions FOR EACH ROW WHEN (NEW.user_uuid IS DISTINCT FROM"
    " OLD.user_uuid OR NEW.account_uuid IS DISTINCT FROM OLD.account_uuid"
    " OR NEW.card_uuid IS DISTINCT FROM OLD.card_uuid) EXECUTE FUNCTION check_holders()",
    KEEP_HOLDER,
    *(
        f"CREATE TRIGGER {table}_kept BEFORE DELETE OR UPDATE OF uuid ON {table}"
        f" FOR EACH ROW EXECUTE FUNCTION keep_holder('{column}')"
        for table, column in HOLDER_TABLES
    ),
    CHECK_POSTINGS,
]

DOWNGRADE = [
    _check_postings(ENTRY_BEFORE),
    *(f"DROP TRIGGER {table}_kept ON {table}" for table, _column in HOLDER_TABLES),
    "DROP FUNCTION keep_holder()",
    "DROP TRIGGER transactions_holders_known ON transactions",
    "DROP FUNCTION check_holders()",
    _count_inserted(""),
    *(
        f"ALTER TABLE {table} ADD CONSTRAINT {name} FOREIGN KEY ({column})"
        f" REFERENCES {target} ({'id' if target == 'journal_entries' else 'uuid'}){how}"
        for name, table, column, target, how in KEYS
    ),
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in DOWNGRADE:
            op.execute(statement)

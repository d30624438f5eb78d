"""Three foreign keys an approval's rows fired, checked where the unit checks already
(PostgreSQL).

An approval's write statement (`ledger.entries`: the transaction, its event, the postings,
the entry, the card's balance) fired a foreign key's trigger a row: the transaction's to its
user, account, card and parent (a `FOR KEY SHARE` probe each, on rows the unit holds locked
or updates in the same statement; the parent's NULL), and at COMMIT the postings' deferred
one to their entry (a probe a posting, on the entry the same statement inserted). Measured
under EXPLAIN ANALYZE (each trigger's time, docs/ledger.md "The keys and indexes of an
approval"): a key's probe costs about what the same probe costs in a statement trigger's
query (12–20 µs each at load 14), so a key is dropped only where what it checks is checked
already:

* **the posting's entry** (`fk_postings_entry_id_journal_entries`): `check_postings()`
  (`postings_checked`, migration 20261127_52) reads each new posting's entry already (written
  by the posting's own command?); an entry that is not there now refuses the posting too
  (`no journal entry …`, at the end of its statement, no longer at COMMIT). On PostgreSQL an
  entry and its postings are one statement (`ledger.entries`, the only writer).
* **the transaction's user** (`fk_transactions_user_uuid_users`): `count_inserted()` adds
  every new transaction to its user's `transaction_counts` row, whose own key to users is
  checked when the row is made (a user's first transaction); a user is never deleted.
* **the transaction's card** (`fk_transactions_card_uuid_cards`): a counted purchase
  (`card_purchase` pending, completed, refunded) is added to its card's `card_spend` day,
  whose key to cards is checked when the day's row is made; any other transaction with a
  card has it probed in `count_inserted()`'s one check query, with the tag (`no card …`,
  `foreign_key_violation`).
* The other side: a user or a card a transaction names is never deleted nor its uuid
  changed (`users_kept`, `cards_kept`, `BEFORE DELETE OR UPDATE OF uuid` row triggers,
  `keep_holder()`: what the keys' `NO ACTION` refused; the service deletes neither), and a
  transaction's user or card changed by an update is checked (`transactions_holders_known`,
  `check_holders()`). Journal entries are append-only already: an entry is never deleted.

The transaction's keys to its account (its probe would only move) and its parent (NULL on an
approval: 2 µs) stay, and so does every index (docs/ledger.md: each one's figure and readers).

Without the lock a key took, a delete of a card racing the insert of its transaction is
serialised by the card's own lock (the unit holds it: docs/ledger.md, "Lock order"); a
user's, by their accounts' keys to them (`fk_accounts_user_uuid_users`).

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
    ("fk_transactions_card_uuid_cards", "transactions", "card_uuid", "cards", ""),
    (
        "fk_postings_entry_id_journal_entries", "postings", "entry_id", "journal_entries",
        " DEFERRABLE INITIALLY DEFERRED",
    ),
]  # fmt: skip


def _count_inserted(check: str, tags: str) -> str:
    """`count_inserted()` of migration 20261128_01, `check` first, `tags` its section 3."""
    return f"""
CREATE OR REPLACE FUNCTION count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing text;
BEGIN{check}
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
    -- 3. the tags: {tags}
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


# 20261128_01: the tags checked in section 3; now, before the counters, the tags and the
# cards in the same one query (a query of a trigger costs more than its probes; scalar
# subqueries: index probes whatever the planner guesses of the transition table)
TAGS_BEFORE = """each exists (no foreign key, migration 20261127_52), a waiting row each
    SELECT n.tag_slug INTO missing FROM new_transactions n
    WHERE n.tag_slug IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM transaction_tags t WHERE t.slug = n.tag_slug)
    LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'no tag %', missing USING ERRCODE = 'foreign_key_violation';
    END IF;"""
TAGS_NOW = "a waiting row each (each exists: 0.)"
CHECK = """
    -- 0. each one's tag and card exists (no foreign keys: migrations 20261127_52, 20261128_04).
    -- Its user is its count's row (1.: that row's key to users, checked when the row is made;
    -- a user is never deleted), a counted purchase's card its spend day's (4.: the same)
    SELECT CASE WHEN n.tag_slug IS NOT NULL AND NOT EXISTS
                       (SELECT 1 FROM transaction_tags t WHERE t.slug = n.tag_slug)
                  THEN 'no tag ' || n.tag_slug
                ELSE 'no card ' || n.card_uuid END
    INTO missing FROM new_transactions n
    WHERE (n.tag_slug IS NOT NULL
           AND (SELECT t.slug FROM transaction_tags t WHERE t.slug = n.tag_slug) IS NULL)
       OR (n.card_uuid IS NOT NULL
           AND NOT (n.type = 'card_purchase' AND n.status IN ('pending', 'completed', 'refunded'))
           AND (SELECT c.uuid FROM cards c WHERE c.uuid = n.card_uuid) IS NULL)
    LIMIT 1;
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION '%', missing USING ERRCODE = 'foreign_key_violation';
    END IF;"""

# a transaction's user or card changed: each exists
CHECK_HOLDERS = """
CREATE FUNCTION check_holders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM users WHERE uuid = NEW.user_uuid) THEN
        RAISE EXCEPTION 'no user %', NEW.user_uuid USING ERRCODE = 'foreign_key_violation';
    END IF;
    IF NEW.card_uuid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM cards WHERE uuid = NEW.card_uuid)
    THEN
        RAISE EXCEPTION 'no card %', NEW.card_uuid USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NEW;
END $$
"""

# a user or a card deleted or renumbered: refused while a transaction names it
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
# no entry: no row, NULL, not false (a scalar subquery: index probes, as 20261127_52's)
CHECK_POSTINGS = (
    _check_postings(ENTRY_NOW)
    .replace("command than the posting's (transaction, command)", "command (or none)")
    .replace("AND p.id = n.id)", "AND p.id = n.id) IS NOT FALSE")
)

HOLDER_TABLES = [("users", "user_uuid"), ("cards", "card_uuid")]

UPGRADE = [
    *(f"ALTER TABLE {table} DROP CONSTRAINT {name}" for name, table, *_ in KEYS),
    _count_inserted(CHECK, TAGS_NOW),
    CHECK_HOLDERS,
    "CREATE TRIGGER transactions_holders_known BEFORE UPDATE OF user_uuid, card_uuid"
    " ON transactions FOR EACH ROW WHEN (NEW.user_uuid IS DISTINCT FROM OLD.user_uuid"
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
    _count_inserted("", TAGS_BEFORE),
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

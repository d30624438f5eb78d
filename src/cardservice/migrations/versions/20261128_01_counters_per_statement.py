"""The counters of inserted transactions kept once a statement, not once a row (PostgreSQL).

A clearing unit writes its force posts as one statement (`ledger.post_entries`), but every
transaction it inserted still fired two row triggers: `keep_counters` (the user's
`transaction_counts` row, the user's `daily_spend` day, the card's `card_spend` day; measured
2026-11-27: 27, 31-37 and 20-25 µs a row) and `count_tag` (the tag's check and its
`tag_counts_waiting` row).

Now one `AFTER INSERT … FOR EACH STATEMENT` trigger over the statement's new transactions
(`REFERENCING NEW TABLE`, as the ledger's checks, migration 20261127_52),
`transactions_counted` → `count_inserted()`, keeps them: one upsert a counter table for
every row of the statement, the rows grouped by user, by (user, currency, day), by
(card, day) — the same rows and values the row triggers wrote (a count, a sum). The groups
are written in key order, in the counters' one order (user's count, user's days, then the
card's days; docs/ledger.md, "Lock order"), so two statements of several users meet on
their first common row. The tag's check (`no tag …`, `foreign_key_violation`) and its waiting
rows (one a tagged transaction, as before) are in the same function.

An update or a delete of transactions (settle, reverse, refund, expiry: status and amounts
move counters out of one day and into another) keeps its row trigger
(`transactions_counters`, now `AFTER UPDATE OF … OR DELETE`; `keep_counters` without its
insert sections): PostgreSQL allows no transition table on a trigger with a column list, and
those paths update one transaction a unit but for the expiry sweep.

SQLite keeps its row triggers (it has no statement-level ones): the same counters, row by row.

Revision ID: 20261128_01
Revises: 20261127_55
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "20261128_01"
down_revision = "20261127_55"
branch_labels = None
depends_on = None

WATCHED = "status, amount, refunded_amount, type, created_at, currency, user_uuid, card_uuid"
DAY = "(created_at AT TIME ZONE 'UTC')::date"

COUNT_INSERTED = f"""
CREATE FUNCTION count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    missing text;
BEGIN
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

# keep_counters for an update or a delete: what migration 20261124_30 left, less its inserts
KEEP_COUNTERS = """
CREATE OR REPLACE FUNCTION keep_counters() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- 1. the user's count row, taken first (an insert is counted by count_inserted)
    IF TG_OP = 'DELETE' THEN
        UPDATE transaction_counts SET transactions = transactions - 1
        WHERE user_uuid = OLD.user_uuid;
    ELSE
        PERFORM 1 FROM transaction_counts WHERE user_uuid = NEW.user_uuid FOR UPDATE;
    END IF;
    -- 2. the user's spend days
    IF OLD.type = 'card_purchase' AND OLD.status IN ('pending', 'completed') THEN
        UPDATE daily_spend SET amount = amount - OLD.amount
        WHERE user_uuid = OLD.user_uuid AND currency = OLD.currency
          AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.type = 'card_purchase'
            AND NEW.status IN ('pending', 'completed') THEN
        INSERT INTO daily_spend (user_uuid, currency, spent_on, amount)
        VALUES (NEW.user_uuid, NEW.currency, (NEW.created_at AT TIME ZONE 'UTC')::date,
                NEW.amount)
        ON CONFLICT (user_uuid, currency, spent_on)
        DO UPDATE SET amount = daily_spend.amount + EXCLUDED.amount;
    END IF;
    -- 3. the card's spend days
    IF OLD.type = 'card_purchase' AND OLD.status IN ('pending', 'completed', 'refunded') THEN
        UPDATE card_spend SET amount = amount - (OLD.amount - OLD.refunded_amount)
        WHERE card_uuid = OLD.card_uuid
          AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.type = 'card_purchase'
            AND NEW.status IN ('pending', 'completed', 'refunded') THEN
        INSERT INTO card_spend (card_uuid, spent_on, amount)
        VALUES (NEW.card_uuid, (NEW.created_at AT TIME ZONE 'UTC')::date,
                NEW.amount - NEW.refunded_amount)
        ON CONFLICT (card_uuid, spent_on)
        DO UPDATE SET amount = card_spend.amount + EXCLUDED.amount;
    END IF;
    RETURN NULL;
END $$
"""

UPGRADE = [
    "DROP TRIGGER transactions_tag_counted ON transactions",
    "DROP FUNCTION count_tag()",
    "DROP TRIGGER transactions_counters ON transactions",
    KEEP_COUNTERS,
    f"CREATE TRIGGER transactions_counters AFTER UPDATE OF {WATCHED} OR DELETE ON transactions"
    " FOR EACH ROW EXECUTE FUNCTION keep_counters()",
    COUNT_INSERTED,
    "CREATE TRIGGER transactions_counted AFTER INSERT ON transactions REFERENCING NEW TABLE AS"
    " new_transactions FOR EACH STATEMENT EXECUTE FUNCTION count_inserted()",
]

# the definitions of migrations 20261124_30 and 20261127_52, for the way back
KEEP_COUNTERS_ROW = """
CREATE OR REPLACE FUNCTION keep_counters() RETURNS trigger LANGUAGE plpgsql AS $$
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
    -- 3. the tag's popularity: counted at COMMIT (count_tag, migration 20261124_30)
    -- 4. the card's spend days (its spending controls' windows)
    IF TG_OP <> 'INSERT' AND OLD.type = 'card_purchase'
            AND OLD.status IN ('pending', 'completed', 'refunded') THEN
        UPDATE card_spend SET amount = amount - (OLD.amount - OLD.refunded_amount)
        WHERE card_uuid = OLD.card_uuid
          AND spent_on = (OLD.created_at AT TIME ZONE 'UTC')::date;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.type = 'card_purchase'
            AND NEW.status IN ('pending', 'completed', 'refunded') THEN
        INSERT INTO card_spend (card_uuid, spent_on, amount)
        VALUES (NEW.card_uuid, (NEW.created_at AT TIME ZONE 'UTC')::date,
                NEW.amount - NEW.refunded_amount)
        ON CONFLICT (card_uuid, spent_on)
        DO UPDATE SET amount = card_spend.amount + EXCLUDED.amount;
    END IF;
    RETURN NULL;
END $$
"""
COUNT_TAG = """
CREATE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM transaction_tags WHERE slug = NEW.tag_slug) THEN
        RAISE EXCEPTION 'no tag %', NEW.tag_slug USING ERRCODE = 'foreign_key_violation';
    END IF;
    INSERT INTO tag_counts_waiting (tag_slug) VALUES (NEW.tag_slug);
    RETURN NULL;
END $$
"""
DOWNGRADE = [
    "DROP TRIGGER transactions_counted ON transactions",
    "DROP FUNCTION count_inserted()",
    "DROP TRIGGER transactions_counters ON transactions",
    KEEP_COUNTERS_ROW,
    f"CREATE TRIGGER transactions_counters AFTER INSERT OR UPDATE OF {WATCHED}"
    " OR DELETE ON transactions FOR EACH ROW EXECUTE FUNCTION keep_counters()",
    COUNT_TAG,
    "CREATE TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " FOR EACH ROW WHEN (NEW.tag_slug IS NOT NULL) EXECUTE FUNCTION count_tag()",
]


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in UPGRADE:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in DOWNGRADE:
            op.execute(statement)

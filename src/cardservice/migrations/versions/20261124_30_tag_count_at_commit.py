"""A tag's popularity is counted as the unit commits, not as its transaction is inserted.

`keep_counters` (migration 20261124_22) added 1 to the tag's `transactions_count` in the
AFTER INSERT trigger of every transaction carrying a tag: the tag's row stayed locked from
that INSERT to the end of the unit (the entry posted, the card's balance, the events, the
answer's reads and every round trip between them). Every tagged authorization of every user
waited for it: the ISO 8583 host tags by merchant name, so with the cards spread over 16
accounts 6 of its 8 write units waited on that one row (`bench.iso --accounts 16`,
pg_stat_activity sampled: `INSERT INTO transactions` waiting on a transactionid lock whose
holder was any other unit in progress), and the host ran a third of the bare peer.

Now `keep_counters` no longer touches the tag; a constraint trigger deferred to COMMIT,
`transactions_tag_counted`, adds the 1 there (the same count: once per transaction inserted
with a tag; a savepoint rolled back takes its event with it). The row is held from there to
the end of the commit, as the chain head is (`ledger_seal`). Deferred triggers fire in the
order their rows were inserted; the units that write a tagged transaction (an authorization,
a refund, a dispute credit) insert it before its entry, so they take the tag's row, then
the head. A unit that posted an entry before a tagged transaction would meet another in a
deadlock, which `db.transact` runs again whole. SQLite is unchanged: its writer holds the
whole database for a unit.

Revision ID: 20261124_30
Revises: 20261124_29
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "20261124_30"
down_revision = "20261124_29"
branch_labels = None
depends_on = None

COUNT_TAG = """
CREATE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE transaction_tags SET transactions_count = transactions_count + 1
    WHERE slug = NEW.tag_slug;
    RETURN NULL;
END $$
"""
TRIGGER = (
    "CREATE CONSTRAINT TRIGGER transactions_tag_counted AFTER INSERT ON transactions"
    " DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.tag_slug IS NOT NULL)"
    " EXECUTE FUNCTION count_tag()"
)

# migration 20261124_22's keep_counters as it was (what the downgrade restores)
WITH_TAG = """
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
    -- 3. the tag's popularity: every transaction carrying it
    IF TG_OP = 'INSERT' AND NEW.tag_slug IS NOT NULL THEN
        UPDATE transaction_tags SET transactions_count = transactions_count + 1
        WHERE slug = NEW.tag_slug;
    END IF;
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
TAG_STEP = """\
    -- 3. the tag's popularity: every transaction carrying it
    IF TG_OP = 'INSERT' AND NEW.tag_slug IS NOT NULL THEN
        UPDATE transaction_tags SET transactions_count = transactions_count + 1
        WHERE slug = NEW.tag_slug;
    END IF;
"""
# migration 20261124_22's keep_counters without its third section
WITHOUT_TAG = WITH_TAG.replace(
    TAG_STEP,
    "    -- 3. the tag's popularity: counted at COMMIT (count_tag, migration 20261124_30)\n",
)


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(WITHOUT_TAG)
        op.execute(COUNT_TAG)
        op.execute(TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER transactions_tag_counted ON transactions")
        op.execute("DROP FUNCTION count_tag()")
        op.execute(WITH_TAG)

"""A leaner money unit: the ledger's checks once a statement, fewer foreign keys and
indexes on the rows an authorization writes.

Measured first (`python -m bench.iso --scaling`, a private PostgreSQL 15 with
`pg_stat_statements` track=all, 16 accounts, 8 connections, load 12; µs a call): the
authorization's write statement 1,114 µs with its row triggers inside it, among them the
`transaction_tags` foreign key's `FOR KEY SHARE` 49 µs (one tag row shared by every unit of
every account buying at that merchant; 15–19 µs in runs at load 25), the accounts' 22, the
cards' 9 a posting and 9 a transaction, `check_posting` 3 probes a posting (3 postings),
`check_entry_balanced` 21.
After (`python -m bench.ledger_checks --before 20261127_48 --entries 1000 --rounds 4`: an
authorization's entry — three postings and the entry in one statement — written in a loop
inside PostgreSQL, the two schemas in turn): **1,046 → 664 and 856 → 660 µs an entry**
(0.635×, 0.772×; two runs at load 23–25 on 2 cores), this migration's changes together.

PostgreSQL:
* **`postings_checked`** is an `AFTER INSERT … FOR EACH STATEMENT` trigger over the
  statement's new postings (`REFERENCING NEW TABLE`): one query for every posting of the
  statement (scalar subqueries: index probes whatever the planner guesses of the transition
  table; a form with joins cost 103 µs a statement in one run, this one 23) — its account's
  or card's currency (a holder that does not exist has none, so the posting is refused: the
  foreign keys `fk_postings_account_uuid_accounts` and `fk_postings_card_uuid_cards` said
  nothing more and are dropped), and "a posting for an
  entry already written is refused": an entry that is there after the statement and was
  not written by the very command that wrote the posting (`xmin`, `cmin`: the same
  transaction and command) was written before it. (An entry's raw `xmin` could equal a
  writer's again only after 2^32 transactions, and its `cmin` would have to match too.)
* **`journal_entries_balanced`** is an `AFTER INSERT … FOR EACH STATEMENT` trigger over the
  statement's new entries: every one has postings and they sum to zero per currency.
  Statement-level triggers fire once the whole statement is done, also for the
  authorization's single statement that writes postings then entry (`ledger.entries`).
* **The tag's foreign key** (`fk_transactions_tag_slug_transaction_tags`) is dropped: its
  `FOR KEY SHARE` on the tag's row is a row lock every unit of unrelated accounts shares
  (15–49 µs a tagged authorization, multixacts when they meet). `count_tag()`, the trigger
  that already runs for every tagged transaction, checks that the tag exists instead (an
  index probe, no lock), `transactions_tag_known` a changed tag, and
  `transaction_tags_deleted`/`_renamed` refuse to delete or rename a tag a transaction carries (tags
  are catalogue rows: neither happens on the money path; without a lock a delete racing a
  tagged insert is not serialised).
The transactions' keys to their account, card and user stay (the unit holds the account and
card locked already; 22 + 9 + 6 µs), as does the postings' deferred key to their entry
(a posting whose entry never comes fails at commit).

Both databases: **`ix_journal_entries_reference`** is dropped. No statement looks an entry
up by its reference (joins go from the entry to its transaction, by the transaction's
primary key), and it cost 13 µs an entry (a random uuid's place in a b-tree: 100,000 rows
inserted server-side 35.5–37.3 µs a row with it, 18.3–24.4 without, three alternations,
load 14) and 37 bytes.

SQLite keeps its row triggers (it has no statement-level ones; the same rules, migration
20261123_02) and its foreign keys (checked in process, no lock; dropping one there would
rebuild the table).

Revision ID: 20261127_52
Revises: 20261127_48
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "20261127_52"
down_revision = "20261127_48"
branch_labels = None
depends_on = None

# Scalar subqueries stay per-row index probes whatever the planner guesses of the
# transition table (a join could become a hash join over the whole table, in a plan the
# function keeps for its session).
CHECK_POSTINGS = """
CREATE FUNCTION check_postings() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    broken text;
BEGIN
    SELECT CASE WHEN n.currency IS DISTINCT FROM
                    (SELECT a.currency FROM accounts a WHERE a.uuid = n.account_uuid)
                     AND n.account_uuid IS NOT NULL
                  OR n.currency IS DISTINCT FROM
                    (SELECT c.currency FROM cards c WHERE c.uuid = n.card_uuid)
                     AND n.card_uuid IS NOT NULL
                THEN 'posting currency differs from its holder''s (or no such holder)'
                ELSE 'the entry is already written: its postings are final' END
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
CHECK_ENTRIES = """
CREATE FUNCTION check_entries_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (
        SELECT 1 FROM new_entries e
        WHERE NOT EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id)
           OR EXISTS (SELECT 1 FROM postings p WHERE p.entry_id = e.id
                      GROUP BY p.currency HAVING sum(p.amount) <> 0)
    ) THEN
        RAISE EXCEPTION 'a journal entry does not sum to zero' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NULL;
END $$
"""
COUNT_TAG = """
CREATE OR REPLACE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM transaction_tags WHERE slug = NEW.tag_slug) THEN
        RAISE EXCEPTION 'no tag %', NEW.tag_slug USING ERRCODE = 'foreign_key_violation';
    END IF;
    INSERT INTO tag_counts_waiting (tag_slug) VALUES (NEW.tag_slug);
    RETURN NULL;
END $$
"""
CHECK_TAG = """
CREATE FUNCTION check_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_TABLE_NAME = 'transactions' THEN
        IF NOT EXISTS (SELECT 1 FROM transaction_tags WHERE slug = NEW.tag_slug) THEN
            RAISE EXCEPTION 'no tag %', NEW.tag_slug USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM transactions WHERE tag_slug = OLD.slug) THEN
        RAISE EXCEPTION 'tag % is in use', OLD.slug USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$
"""
POSTGRES = [
    "DROP TRIGGER postings_checked ON postings",
    "DROP FUNCTION check_posting()",
    CHECK_POSTINGS,
    "CREATE TRIGGER postings_checked AFTER INSERT ON postings REFERENCING NEW TABLE AS"
    " new_postings FOR EACH STATEMENT EXECUTE FUNCTION check_postings()",
    "DROP TRIGGER journal_entries_balanced ON journal_entries",
    "DROP FUNCTION check_entry_balanced()",
    CHECK_ENTRIES,
    "CREATE TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries REFERENCING NEW"
    " TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION check_entries_balanced()",
    "ALTER TABLE postings DROP CONSTRAINT fk_postings_account_uuid_accounts",
    "ALTER TABLE postings DROP CONSTRAINT fk_postings_card_uuid_cards",
    "ALTER TABLE transactions DROP CONSTRAINT fk_transactions_tag_slug_transaction_tags",
    COUNT_TAG,
    CHECK_TAG,
    "CREATE TRIGGER transactions_tag_known BEFORE UPDATE OF tag_slug ON transactions FOR EACH ROW"
    " WHEN (NEW.tag_slug IS NOT NULL AND NEW.tag_slug IS DISTINCT FROM OLD.tag_slug)"
    " EXECUTE FUNCTION check_tag()",
    # the catalogue's sync writes every column of a tag, its slug too: only a changed one counts
    "CREATE TRIGGER transaction_tags_renamed BEFORE UPDATE OF slug ON transaction_tags"
    " FOR EACH ROW WHEN (NEW.slug IS DISTINCT FROM OLD.slug) EXECUTE FUNCTION check_tag()",
    "CREATE TRIGGER transaction_tags_deleted BEFORE DELETE ON transaction_tags"
    " FOR EACH ROW EXECUTE FUNCTION check_tag()",
]

# the definitions of migrations 20261123_02 and 20261127_43, for the way back
CHECK_POSTING_ROW = """
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
"""
CHECK_ENTRY_ROW = """
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
"""
COUNT_TAG_WAITING = """
CREATE OR REPLACE FUNCTION count_tag() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO tag_counts_waiting (tag_slug) VALUES (NEW.tag_slug);
    RETURN NULL;
END $$
"""
POSTGRES_BACK = [
    "DROP TRIGGER transaction_tags_deleted ON transaction_tags",
    "DROP TRIGGER transaction_tags_renamed ON transaction_tags",
    "DROP TRIGGER transactions_tag_known ON transactions",
    "DROP FUNCTION check_tag()",
    COUNT_TAG_WAITING,
    "ALTER TABLE transactions ADD CONSTRAINT fk_transactions_tag_slug_transaction_tags"
    " FOREIGN KEY (tag_slug) REFERENCES transaction_tags (slug)",
    "ALTER TABLE postings ADD CONSTRAINT fk_postings_card_uuid_cards"
    " FOREIGN KEY (card_uuid) REFERENCES cards (uuid)",
    "ALTER TABLE postings ADD CONSTRAINT fk_postings_account_uuid_accounts"
    " FOREIGN KEY (account_uuid) REFERENCES accounts (uuid)",
    "DROP TRIGGER journal_entries_balanced ON journal_entries",
    "DROP FUNCTION check_entries_balanced()",
    CHECK_ENTRY_ROW,
    "CREATE TRIGGER journal_entries_balanced AFTER INSERT ON journal_entries"
    " FOR EACH ROW EXECUTE FUNCTION check_entry_balanced()",
    "DROP TRIGGER postings_checked ON postings",
    "DROP FUNCTION check_postings()",
    CHECK_POSTING_ROW,
    "CREATE TRIGGER postings_checked BEFORE INSERT ON postings"
    " FOR EACH ROW EXECUTE FUNCTION check_posting()",
]


def upgrade() -> None:
    op.drop_index("ix_journal_entries_reference", table_name="journal_entries")
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES:
            op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for statement in POSTGRES_BACK:
            op.execute(statement)
    op.create_index("ix_journal_entries_reference", "journal_entries", ["reference"])

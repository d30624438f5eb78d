"""The statements the service ran on the fleet, sorted by where Citus would run them.

    python -m scripts.fleet.statements      # after make fleet-failover or make fleet-chaos

Reads `pg_stat_statements` on the leader (the fleet preloads it) for the service's database
and puts every statement in one group of the plan in docs/operations.md ("Past one
primary"), by the tables it names and the keys it filters on:

* `tenant` — it names distributed tables only through the caller (a user, an account, a
  card, a transaction of one user): one shard once `tenant_uuid` is added to its filter;
* `global key` — it finds a row by a key known before the tenant (a token or MFA code hash,
  a card number's fingerprint, an ISO 8583 message key, an operator's external_id, a
  sign-in link): one shard of a table distributed by that key, or a lookup table;
* `all tenants` — it walks every tenant's rows (sweeps, the delivery queue, the books, the
  ledger's chain, event numbering): every shard;
* `reference` — reference tables only (copied to every node): local;
* `other` — catalog and tooling statements (migrations, the probes, this script).

Prints one line per group (statements, calls, share of calls), then the `all tenants` and
`global key` statements with their calls.
"""

from __future__ import annotations

import asyncio
import re

import asyncpg

from scripts.fleet import fleet

DISTRIBUTED = {
    "users", "accounts", "cards", "transactions", "journal_entries", "postings",
    "idempotency_keys", "attachments", "three_ds_codes", "transaction_counts", "daily_spend",
    "card_spend", "user_fee_overrides", "disputes", "events", "webhook_endpoints",
    "webhook_deliveries", "webhook_attempts", "topups", "network_messages",
    "operator_requests", "api_tokens", "mfa_codes", "sign_in_links",
    "authorization_endpoints", "audit_log", "ledger_holder_days",
}  # fmt: skip
# copied to every node; `ledger_chain_head` and `ledger_day_totals` are named here only so
# that they count as tables: one row (per day) for the whole ledger, written by every entry,
# they fall in `all tenants` (docs/operations.md)
REFERENCE = {
    "bins", "fee_rates", "payment_methods", "payment_currencies", "dictionary_entries",
    "transaction_tags", "teams", "programs", "fx_rates", "operator_keys",
    "ledger_chain_head", "ledger_day_totals",
}  # fmt: skip
GLOBAL_KEYS = re.compile(
    r"\b(token_hash|code_hash|pan_fingerprint|link_hash|secret_hash|acquirer_id|"
    r"operator_requests|email)\b"
)
TENANT_KEYS = re.compile(
    r"\b(user_uuid|account_uuid|card_uuid|owner_uuid|parent_uuid)\s*(=|IN|=\s*ANY)"
)
ALL_TENANTS = re.compile(
    r"\b(SKIP LOCKED|expires_at\s*<|next_attempt_at\s*<=|sequence|ledger_chain_head|"
    r"ledger_day_totals|pg_advisory|"
    r"GROUP BY (system_book|currency)|count\(\*\) FROM (transactions|postings))\b",
    re.IGNORECASE,
)
# a row the unit names itself: by its uuid or id (rows it wrote or locked through its
# tenant), a trigger's NEW row, or an insert (the row carries its tenant)
ROW_OF_THE_UNIT = re.compile(
    r"(\b(uuid|id|entry_id)\s*(=|IN\b|=\s*ANY)|\bNEW\.|^\s*(WITH\b.*)?INSERT INTO)",
    re.IGNORECASE,
)
TABLE = re.compile(r"\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_]+)", re.IGNORECASE)

_STATEMENTS = """
SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
WHERE d.datname = $1 ORDER BY s.calls DESC"""


def group(query: str) -> str:
    tables = {name.lower() for name in TABLE.findall(query)}
    distributed, reference = tables & DISTRIBUTED, tables & REFERENCE
    if ALL_TENANTS.search(query) and (distributed or reference):
        return "all tenants"
    if not distributed:
        return "reference" if reference else "other"
    if ALL_TENANTS.search(query):
        return "all tenants"
    if GLOBAL_KEYS.search(query) and not TENANT_KEYS.search(query):
        return "global key"
    if TENANT_KEYS.search(query) or ROW_OF_THE_UNIT.search(query):
        return "tenant"
    return "all tenants"


async def main() -> int:
    connection = await asyncpg.connect(fleet.DSN)
    try:
        rows = await connection.fetch(_STATEMENTS, fleet.DATABASE)
    finally:
        await connection.close()
    groups: dict[str, list[tuple[int, str]]] = {}
    for row in rows:
        query = " ".join(row["query"].split())
        groups.setdefault(group(query), []).append((int(row["calls"]), query))
    total = sum(calls for found in groups.values() for calls, _ in found) or 1
    for name in ("tenant", "global key", "all tenants", "reference", "other"):
        found = groups.get(name, [])
        calls = sum(c for c, _ in found)
        print(f"{name:12} {len(found):4} statements {calls:9} calls {100 * calls / total:5.1f} %")
    for name in ("all tenants", "global key"):
        print(f"\n{name}:")
        for calls, query in groups.get(name, []):
            print(f"  {calls:8}  {query[:160]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))

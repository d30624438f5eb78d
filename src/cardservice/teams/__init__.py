"""Teams that manage their spending (docs/teams.md#teams-budgets-requests-receipts): budgets,
requests, receipts chased."""

from cardservice.teams.receipts import RECEIPT_POLICY_JOB, enforce_receipts

__all__ = ["RECEIPT_POLICY_JOB", "enforce_receipts"]

"""Transactions: the money use cases, one entry each, whatever the channel
(docs/architecture.md#the-use-cases-and-their-single-entries). Other packages use what this
module names — the entries, their messages and errors, the lock order's shared statements,
the records — never the engine, the state machine, the holds or the locks' module itself
(an import-linter contract in pyproject.toml and tests/transactions/test_entries.py hold it).
"""

from cardservice.transactions.adjustments import credit_card, recapture
from cardservice.transactions.authorize import (
    Answered,
    Authorization,
    Opened,
    Presentation,
    Question,
    Recorded,
    Then,
    authorization_of,
    authorize_card,
    authorize_opened,
    rules_first,
)
from cardservice.transactions.expiry import expire_due_holds, sweep_expired_holds
from cardservice.transactions.holds import InvalidTransition, holder_leg
from cardservice.transactions.lifecycle import RefundTooLarge, credited_amount
from cardservice.transactions.locks import (
    authorization_account_sql,
    lock_account,
    lock_budget,
    lock_card,
    lock_card_account,
    lock_card_columns,
    lock_purchase,
    locked_purchase,
)
from cardservice.transactions.records import Purchase
from cardservice.transactions.repository import card_balance
from cardservice.transactions.service import (
    CaptureMessage,
    RefundMessage,
    ReversalMessage,
    capture,
    capture_purchase,
    force_post,
    refund,
    refund_purchase,
    reverse,
    reverse_purchase,
)

__all__ = [
    "Answered",
    "Authorization",
    "CaptureMessage",
    "InvalidTransition",
    "Opened",
    "Presentation",
    "Purchase",
    "Question",
    "Recorded",
    "RefundMessage",
    "RefundTooLarge",
    "ReversalMessage",
    "Then",
    "authorization_account_sql",
    "authorization_of",
    "authorize_card",
    "authorize_opened",
    "capture",
    "capture_purchase",
    "card_balance",
    "credit_card",
    "credited_amount",
    "expire_due_holds",
    "force_post",
    "holder_leg",
    "lock_account",
    "lock_budget",
    "lock_card",
    "lock_card_account",
    "lock_card_columns",
    "lock_purchase",
    "locked_purchase",
    "recapture",
    "refund",
    "refund_purchase",
    "reverse",
    "reverse_purchase",
    "rules_first",
    "sweep_expired_holds",
]

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
    prepare_statements,
    rules_first,
)
from cardservice.transactions.deposits import deposit
from cardservice.transactions.expiry import HOLD_SWEEP_JOB, expire_due_holds, sweep_expired_holds
from cardservice.transactions.export import csv_chunks
from cardservice.transactions.force_posts import ForcePost, force_post
from cardservice.transactions.holds import InvalidTransition, holder_leg, owed_beyond
from cardservice.transactions.increments import increment_purchase
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
from cardservice.transactions.records import (
    TRANSACTION_FIELDS,
    Purchase,
    purchase_arn,
    three_ds_code_record,
    transaction_columns,
    transaction_record,
    transaction_record_of,
)
from cardservice.transactions.reports import report
from cardservice.transactions.repository import (
    card_balance,
    credit_row,
    insert_transactions,
    latest_settled_purchases,
    payee,
    set_receipt,
    transaction_row,
)
from cardservice.transactions.schemas import (
    ERROR_SLUGS,
    AuthorizationRequest,
    CaptureRequest,
    DepositRequest,
    IncrementRequest,
    RefundRequest,
    ThreeDsRecord,
    ThreeDsRequest,
    TransactionRecord,
    TransactionStatus,
    TransactionType,
)
from cardservice.transactions.service import (
    CaptureMessage,
    RefundMessage,
    ReversalMessage,
    capture,
    capture_purchase,
    refund,
    refund_purchase,
    reverse,
    reverse_purchase,
)
from cardservice.transactions.three_ds import issue_code, matching_code, unassigned_codes, use_code
from cardservice.transactions.withdrawals import withdraw

__all__ = [
    "ERROR_SLUGS",
    "HOLD_SWEEP_JOB",
    "TRANSACTION_FIELDS",
    "Answered",
    "Authorization",
    "AuthorizationRequest",
    "CaptureMessage",
    "CaptureRequest",
    "DepositRequest",
    "ForcePost",
    "IncrementRequest",
    "InvalidTransition",
    "Opened",
    "Presentation",
    "Purchase",
    "Question",
    "Recorded",
    "RefundMessage",
    "RefundRequest",
    "RefundTooLarge",
    "ReversalMessage",
    "Then",
    "ThreeDsRecord",
    "ThreeDsRequest",
    "TransactionRecord",
    "TransactionStatus",
    "TransactionType",
    "authorization_account_sql",
    "authorization_of",
    "authorize_card",
    "authorize_opened",
    "capture",
    "capture_purchase",
    "card_balance",
    "credit_card",
    "credit_row",
    "credited_amount",
    "csv_chunks",
    "deposit",
    "expire_due_holds",
    "force_post",
    "holder_leg",
    "increment_purchase",
    "insert_transactions",
    "issue_code",
    "latest_settled_purchases",
    "lock_account",
    "lock_budget",
    "lock_card",
    "lock_card_account",
    "lock_card_columns",
    "lock_purchase",
    "locked_purchase",
    "matching_code",
    "owed_beyond",
    "payee",
    "prepare_statements",
    "purchase_arn",
    "recapture",
    "refund",
    "refund_purchase",
    "report",
    "reverse",
    "reverse_purchase",
    "rules_first",
    "set_receipt",
    "sweep_expired_holds",
    "three_ds_code_record",
    "transaction_columns",
    "transaction_record",
    "transaction_record_of",
    "transaction_row",
    "unassigned_codes",
    "use_code",
    "withdraw",
]

"""Transactions: the authorization engine, state machine, reports and receipts."""

from __future__ import annotations

from cardservice.transactions.records import (
    TRANSACTION_FIELDS,
    three_ds_code_record,
    transaction_columns,
    transaction_record,
    transaction_record_of,
)
from cardservice.transactions.repository import (
    credit_row,
    insert_transactions,
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
from cardservice.transactions.three_ds import issue_code, matching_code, unassigned_codes, use_code

__all__ = [
    "ERROR_SLUGS",
    "TRANSACTION_FIELDS",
    "AuthorizationRequest",
    "CaptureRequest",
    "DepositRequest",
    "IncrementRequest",
    "RefundRequest",
    "ThreeDsRecord",
    "ThreeDsRequest",
    "TransactionRecord",
    "TransactionStatus",
    "TransactionType",
    "credit_row",
    "insert_transactions",
    "issue_code",
    "matching_code",
    "payee",
    "set_receipt",
    "three_ds_code_record",
    "transaction_columns",
    "transaction_record",
    "transaction_record_of",
    "transaction_row",
    "unassigned_codes",
    "use_code",
]

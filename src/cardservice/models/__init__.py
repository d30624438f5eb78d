"""All tables, one module each; importing this package registers them on `Base.metadata`."""

from cardservice.models.account import Account
from cardservice.models.attachment import Attachment
from cardservice.models.audit import AuditEntry
from cardservice.models.authorization_endpoint import AuthorizationEndpoint
from cardservice.models.base import Base
from cardservice.models.card import Card, PinNonce
from cardservice.models.card_testing import CardTestingBin, CardTestingMerchant
from cardservice.models.clearing import ClearingFile, ClearingOutgoing, ClearingRecord
from cardservice.models.console_session import ConsoleSession
from cardservice.models.credential import ApiToken, MfaCode
from cardservice.models.dispute import Dispute
from cardservice.models.event import Event
from cardservice.models.idempotency import IdempotencyKey
from cardservice.models.ledger import (
    JournalEntry,
    LedgerChainHead,
    LedgerDayTotal,
    LedgerHolderDay,
    Posting,
)
from cardservice.models.mail import Mail, NotificationPreferences
from cardservice.models.network_message import NetworkMessage
from cardservice.models.operator import OperatorKey, OperatorRequest, Program, Topup
from cardservice.models.reference import (
    Bin,
    DictionaryEntry,
    FeeRate,
    FxRate,
    FxRateHistory,
    PaymentCurrency,
    PaymentMethod,
    TransactionTag,
    UserFeeOverride,
)
from cardservice.models.sign_in_link import SignInLink
from cardservice.models.team import ReceiptReminder, TeamBudget, TeamReceiptPolicy, TeamRequest
from cardservice.models.three_ds import ThreeDsCode
from cardservice.models.token import CardToken, TokenProvisioning
from cardservice.models.transaction import Transaction
from cardservice.models.user import Team, User
from cardservice.models.webhook import WebhookAttempt, WebhookDelivery, WebhookEndpoint

__all__ = [
    "Account",
    "ApiToken",
    "Attachment",
    "AuditEntry",
    "AuthorizationEndpoint",
    "Base",
    "Bin",
    "Card",
    "CardTestingBin",
    "CardTestingMerchant",
    "CardToken",
    "ClearingFile",
    "ClearingOutgoing",
    "ClearingRecord",
    "ConsoleSession",
    "DictionaryEntry",
    "Dispute",
    "Event",
    "FeeRate",
    "FxRate",
    "FxRateHistory",
    "IdempotencyKey",
    "JournalEntry",
    "LedgerChainHead",
    "LedgerDayTotal",
    "LedgerHolderDay",
    "Mail",
    "MfaCode",
    "NetworkMessage",
    "NotificationPreferences",
    "OperatorKey",
    "OperatorRequest",
    "PaymentCurrency",
    "PaymentMethod",
    "PinNonce",
    "Posting",
    "Program",
    "ReceiptReminder",
    "SignInLink",
    "Team",
    "TeamBudget",
    "TeamReceiptPolicy",
    "TeamRequest",
    "ThreeDsCode",
    "TokenProvisioning",
    "Topup",
    "Transaction",
    "TransactionTag",
    "User",
    "UserFeeOverride",
    "WebhookAttempt",
    "WebhookDelivery",
    "WebhookEndpoint",
]

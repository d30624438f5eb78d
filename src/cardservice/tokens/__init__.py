"""Network tokens: a card's device PANs in digital wallets (docs/network.md#wallet-tokens)."""

from __future__ import annotations

from cardservice.tokens.records import (
    TOKEN_FIELDS,
    WALLET_CODES,
    WALLET_NAMES,
    WALLET_OF_NAME,
    paid_with,
    token_columns,
    token_record,
)
from cardservice.tokens.service import (
    DeclinedReference,
    DpanRefused,
    NotDecided,
    ProvisioningRequest,
    TokenNotice,
    activate_token,
    card_tokens,
    change_token,
    create_token,
    delete_with_card,
    follow_replacement,
    record_decision,
    rules_decision,
    stricter,
)

__all__ = [
    "TOKEN_FIELDS",
    "WALLET_CODES",
    "WALLET_NAMES",
    "WALLET_OF_NAME",
    "DeclinedReference",
    "DpanRefused",
    "NotDecided",
    "ProvisioningRequest",
    "TokenNotice",
    "activate_token",
    "card_tokens",
    "change_token",
    "create_token",
    "delete_with_card",
    "follow_replacement",
    "paid_with",
    "record_decision",
    "rules_decision",
    "stricter",
    "token_columns",
    "token_record",
]

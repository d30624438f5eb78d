from enum import StrEnum


class AuthorizationRequestForceDeclineType0(StrEnum):
    ACCOUNT_INACTIVE = "account_inactive"
    BUDGET_EXCEEDED = "budget_exceeded"
    CARD_CLOSED = "card_closed"
    CARD_EXPIRED = "card_expired"
    CARD_FROZEN = "card_frozen"
    CARD_INACTIVE = "card_inactive"
    CURRENCY_NOT_SUPPORTED = "currency_not_supported"
    DO_NOT_HONOR = "do_not_honor"
    INSUFFICIENT_FUNDS = "insufficient_funds"
    INVALID_3DS = "invalid_3ds"
    INVALID_CVV2 = "invalid_cvv2"
    INVALID_EXPIRY = "invalid_expiry"
    INVALID_PIN = "invalid_pin"
    LIMIT_EXCEEDED = "limit_exceeded"
    MERCHANT_BLOCKED = "merchant_blocked"
    PIN_TRIES_EXCEEDED = "pin_tries_exceeded"
    SUSPECTED_FRAUD = "suspected_fraud"
    TOKEN_INACTIVE = "token_inactive"
    VIRTUAL_CARD_PRESENT = "virtual_card_present"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ExportTransactionsCsvFiltersType(StrEnum):
    ATM_WITHDRAWAL = "atm_withdrawal"
    AUTO_REPLENISH = "auto_replenish"
    CARD_CLOSE = "card_close"
    CARD_ISSUE = "card_issue"
    CARD_PURCHASE = "card_purchase"
    CARD_REFUND = "card_refund"
    CARD_TOPUP = "card_topup"
    CARD_TRANSFER = "card_transfer"
    DEPOSIT = "deposit"
    DISPUTE_CREDIT = "dispute_credit"
    DISPUTE_PROVISIONAL_CREDIT = "dispute_provisional_credit"
    DISPUTE_PROVISIONAL_REVERSAL = "dispute_provisional_reversal"
    FEE = "fee"
    WITHDRAWAL = "withdrawal"

    def __str__(self) -> str:
        return str(self.value)

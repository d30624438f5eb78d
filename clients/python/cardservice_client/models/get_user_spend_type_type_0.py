from enum import StrEnum


class GetUserSpendTypeType0(StrEnum):
    ATM_WITHDRAWAL = "atm_withdrawal"
    CARD_PURCHASE = "card_purchase"

    def __str__(self) -> str:
        return str(self.value)

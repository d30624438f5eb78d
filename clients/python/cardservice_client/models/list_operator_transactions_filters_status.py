from enum import StrEnum


class ListOperatorTransactionsFiltersStatus(StrEnum):
    COMPLETED = "completed"
    DECLINED = "declined"
    PENDING = "pending"
    REFUNDED = "refunded"
    REVERSED = "reversed"

    def __str__(self) -> str:
        return str(self.value)

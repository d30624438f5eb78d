from enum import StrEnum


class TopupRecordStatus(StrEnum):
    AWAITING_PAYMENT = "awaiting_payment"
    CANCELLED = "cancelled"
    COMPLETED = "completed"
    EXPIRED = "expired"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class TeamCardRecordFrozenReasonType0(StrEnum):
    OPERATOR = "operator"
    OWNER = "owner"
    RECEIPT_MISSING = "receipt_missing"
    SUSPECTED_FRAUD = "suspected_fraud"

    def __str__(self) -> str:
        return str(self.value)

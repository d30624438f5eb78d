from enum import StrEnum


class TeamCardRecordCardType(StrEnum):
    MERCHANT_LOCKED = "merchant_locked"
    MULTI_USE = "multi_use"
    SINGLE_USE = "single_use"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class FeeRecordKind(StrEnum):
    FIXED = "fixed"
    PERCENT = "percent"

    def __str__(self) -> str:
        return str(self.value)

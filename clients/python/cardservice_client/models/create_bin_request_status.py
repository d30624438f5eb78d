from enum import StrEnum


class CreateBinRequestStatus(StrEnum):
    AVAILABLE = "available"
    UNAVAILABLE = "unavailable"

    def __str__(self) -> str:
        return str(self.value)

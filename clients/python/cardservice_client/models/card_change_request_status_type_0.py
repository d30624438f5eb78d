from enum import StrEnum


class CardChangeRequestStatusType0(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    FROZEN = "frozen"

    def __str__(self) -> str:
        return str(self.value)

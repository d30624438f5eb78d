from enum import StrEnum


class TeamCardRecordStatus(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    FROZEN = "frozen"
    INACTIVE = "inactive"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class TokenRecordStatus(StrEnum):
    ACTIVE = "active"
    DELETED = "deleted"
    REQUIRES_ACTIVATION = "requires_activation"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)

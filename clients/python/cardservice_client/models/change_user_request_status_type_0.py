from enum import StrEnum


class ChangeUserRequestStatusType0(StrEnum):
    ACTIVE = "active"
    SUSPENDED = "suspended"

    def __str__(self) -> str:
        return str(self.value)

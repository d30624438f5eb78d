from enum import StrEnum


class ListOperatorAccountsFiltersStatus(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    FROZEN = "frozen"

    def __str__(self) -> str:
        return str(self.value)

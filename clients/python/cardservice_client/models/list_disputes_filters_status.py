from enum import StrEnum


class ListDisputesFiltersStatus(StrEnum):
    LOST = "lost"
    OPEN = "open"
    WON = "won"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ResolveDisputeRequestOutcome(StrEnum):
    LOST = "lost"
    WON = "won"

    def __str__(self) -> str:
        return str(self.value)

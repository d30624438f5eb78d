from enum import StrEnum


class ReplaceCardRequestReason(StrEnum):
    DAMAGED = "damaged"
    EXPIRING = "expiring"
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class TeamCardRecordClosedReasonType0(StrEnum):
    DAMAGED = "damaged"
    EXPIRING = "expiring"
    LOST = "lost"
    STOLEN = "stolen"

    def __str__(self) -> str:
        return str(self.value)

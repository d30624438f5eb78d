from enum import StrEnum


class BlockedTagRecordRestriction(StrEnum):
    BLOCKED = "blocked"
    RESTRICTED = "restricted"

    def __str__(self) -> str:
        return str(self.value)

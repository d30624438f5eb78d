from enum import StrEnum


class TeamCardRecordForm(StrEnum):
    PHYSICAL = "physical"
    VIRTUAL = "virtual"

    def __str__(self) -> str:
        return str(self.value)

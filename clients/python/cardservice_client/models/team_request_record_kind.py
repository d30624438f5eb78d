from enum import StrEnum


class TeamRequestRecordKind(StrEnum):
    BUDGET_INCREASE = "budget_increase"
    CARD = "card"

    def __str__(self) -> str:
        return str(self.value)

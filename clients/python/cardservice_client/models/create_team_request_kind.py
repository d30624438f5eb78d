from enum import StrEnum


class CreateTeamRequestKind(StrEnum):
    BUDGET_INCREASE = "budget_increase"
    CARD = "card"

    def __str__(self) -> str:
        return str(self.value)

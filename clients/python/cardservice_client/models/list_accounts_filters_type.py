from enum import StrEnum


class ListAccountsFiltersType(StrEnum):
    BUDGET = "budget"
    MAIN = "main"
    SAVINGS = "savings"
    TEAM = "team"

    def __str__(self) -> str:
        return str(self.value)

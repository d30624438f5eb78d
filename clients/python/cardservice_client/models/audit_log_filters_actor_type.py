from enum import StrEnum


class AuditLogFiltersActorType(StrEnum):
    CONSOLE = "console"
    OPERATOR_KEY = "operator_key"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)

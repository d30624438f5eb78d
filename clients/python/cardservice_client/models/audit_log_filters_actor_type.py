from enum import StrEnum


class AuditLogFiltersActorType(StrEnum):
    OPERATOR_KEY = "operator_key"
    SYSTEM = "system"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)

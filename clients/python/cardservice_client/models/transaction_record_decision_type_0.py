from enum import StrEnum


class TransactionRecordDecisionType0(StrEnum):
    ENDPOINT = "endpoint"
    ENDPOINT_ERROR = "endpoint_error"
    RULES = "rules"
    STAND_IN = "stand_in"
    TIMEOUT = "timeout"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class AuthorizationEndpointRecordOnTimeout(StrEnum):
    APPROVE = "approve"
    DECLINE = "decline"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class CardPolicyRecordMemberCards(StrEnum):
    DIRECT = "direct"
    REQUEST = "request"

    def __str__(self) -> str:
        return str(self.value)

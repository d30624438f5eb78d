from enum import StrEnum


class CardPolicyRequestMemberCards(StrEnum):
    DIRECT = "direct"
    REQUEST = "request"

    def __str__(self) -> str:
        return str(self.value)

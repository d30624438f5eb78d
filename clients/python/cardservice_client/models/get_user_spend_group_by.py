from enum import StrEnum


class GetUserSpendGroupBy(StrEnum):
    CARD = "card"
    MEMBER = "member"
    MERCHANT = "merchant"
    TAG = "tag"

    def __str__(self) -> str:
        return str(self.value)

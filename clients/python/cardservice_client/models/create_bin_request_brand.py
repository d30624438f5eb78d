from enum import StrEnum


class CreateBinRequestBrand(StrEnum):
    MASTERCARD = "mastercard"
    VISA = "visa"

    def __str__(self) -> str:
        return str(self.value)

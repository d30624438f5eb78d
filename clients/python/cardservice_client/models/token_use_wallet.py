from enum import StrEnum


class TokenUseWallet(StrEnum):
    APPLE_PAY = "apple_pay"
    CARD_ON_FILE = "card_on_file"
    GOOGLE_PAY = "google_pay"
    SAMSUNG_PAY = "samsung_pay"

    def __str__(self) -> str:
        return str(self.value)

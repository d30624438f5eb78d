from enum import StrEnum


class TransactionRecordChannel(StrEnum):
    CLEARING = "clearing"
    ISO8583 = "iso8583"
    SANDBOX = "sandbox"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class HistoryStepStatus(StrEnum):
    CHARGEBACK_SENT = "chargeback_sent"
    LOST = "lost"
    OPEN = "open"
    PRE_ARBITRATION = "pre_arbitration"
    REPRESENTMENT_RECEIVED = "representment_received"
    WITHDRAWN = "withdrawn"
    WON = "won"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ListEventsFiltersType(StrEnum):
    ATTACHMENT_CREATED = "attachment.created"
    CARD_CREATED = "card.created"
    CARD_DETAILS_REVEALED = "card.details_revealed"
    CARD_UPDATED = "card.updated"
    DISPUTE_CREATED = "dispute.created"
    DISPUTE_UPDATED = "dispute.updated"
    THREE_DS_CODE_CREATED = "three_ds.code_created"
    TRANSACTION_CREATED = "transaction.created"
    TRANSACTION_UPDATED = "transaction.updated"

    def __str__(self) -> str:
        return str(self.value)

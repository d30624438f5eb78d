from enum import StrEnum


class EndpointUpdateEventTypesType0Item(StrEnum):
    ATTACHMENT_CREATED = "attachment.created"
    CARD_CREATED = "card.created"
    CARD_UPDATED = "card.updated"
    THREE_DS_CODE_CREATED = "three_ds.code_created"
    TRANSACTION_CREATED = "transaction.created"
    TRANSACTION_UPDATED = "transaction.updated"

    def __str__(self) -> str:
        return str(self.value)

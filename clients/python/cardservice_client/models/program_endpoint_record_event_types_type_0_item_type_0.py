from enum import StrEnum


class ProgramEndpointRecordEventTypesType0ItemType0(StrEnum):
    ATTACHMENT_CREATED = "attachment.created"
    CARD_CREATED = "card.created"
    CARD_DETAILS_REVEALED = "card.details_revealed"
    CARD_PIN_UPDATED = "card.pin.updated"
    CARD_TOKEN_CREATED = "card.token.created"
    CARD_TOKEN_UPDATED = "card.token.updated"
    CARD_UPDATED = "card.updated"
    DISPUTE_CREATED = "dispute.created"
    DISPUTE_UPDATED = "dispute.updated"
    TEAM_REQUEST_APPROVED = "team.request.approved"
    TEAM_REQUEST_CREATED = "team.request.created"
    TEAM_REQUEST_DECLINED = "team.request.declined"
    THREE_DS_CODE_CREATED = "three_ds.code_created"
    TRANSACTION_CREATED = "transaction.created"
    TRANSACTION_RECEIPT_MISSING = "transaction.receipt_missing"
    TRANSACTION_UPDATED = "transaction.updated"

    def __str__(self) -> str:
        return str(self.value)

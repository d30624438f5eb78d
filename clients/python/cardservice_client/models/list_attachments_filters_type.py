from enum import StrEnum


class ListAttachmentsFiltersType(StrEnum):
    DOCUMENT = "document"
    INVOICE = "invoice"
    PHOTO = "photo"
    RECEIPT = "receipt"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ProgramEndpointUpdateEventTypesType0ItemType1(StrEnum):
    CARD_TESTING_LOCKED = "card_testing.locked"
    CLEARING_FILE_INGESTED = "clearing_file.ingested"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class FulfilmentStatus(StrEnum):
    DELIVERED = "delivered"
    ORDERED = "ordered"
    PRINTED = "printed"
    RETURNED = "returned"
    SHIPPED = "shipped"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class CreateUserRequestRoleType0(StrEnum):
    MEMBER = "member"
    OWNER = "owner"

    def __str__(self) -> str:
        return str(self.value)

"""The token record as served (docs/network.md#wallet-tokens)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal
from uuid import UUID

from pydantic import BaseModel, Field

Wallet = Literal["apple_pay", "google_pay", "samsung_pay", "card_on_file"]
TokenStatus = Literal["requires_activation", "active", "suspended", "deleted"]


class TokenRecord(BaseModel):
    uuid: UUID
    card_uuid: UUID = Field(description="The card the token pays with (a replacement moves it).")
    wallet: Wallet
    device_name: str = Field(description="The device the wallet named (ISO 8583 DE 48.72).")
    last4: str = Field(description="The last four digits of the device PAN; never more of it.")
    status: TokenStatus
    created_at: datetime
    updated_at: datetime

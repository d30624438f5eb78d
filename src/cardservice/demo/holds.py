"""The demo's card-network shapes (docs/transactions.md#holds-captures-increments-expiry), one of
each on a card of their own: a hotel that raises its hold (incremental authorization) and captures
it, a marketplace capturing in three parts, a restaurant tip (over-capture), a fuel pump capturing
less than it held, a hold nobody captured, released by the expiry sweep, a purchase in euros settled
at another rate than authorized, and one in euros captured in three parts at two rates — through
the entries every channel calls (`transactions.rules_first` in the demo's one unit: its owner has
no decision endpoint yet, `transactions.capture`)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from decimal import Decimal

from cardservice.cards import BuyCardsRequest, buy_cards, last_card_of_account
from cardservice.db.sql import Tx
from cardservice.security import CardCipher
from cardservice.transactions import (
    Authorization,
    CaptureMessage,
    capture,
    expire_due_holds,
    rules_first,
)


async def _card(
    tx: Tx, cipher: CardCipher, owner: uuid.UUID, account: uuid.UUID, bin_: str
) -> uuid.UUID:
    body = BuyCardsRequest.model_validate(
        {
            "account_uuid": str(account),
            "bin_uuid": bin_,
            "start_balance": Decimal("2000"),
            "description": "Network shapes: holds, captures, expiry",
        }
    )
    await buy_cards(tx, cipher, owner, body)
    found = await last_card_of_account(tx, account)
    assert found is not None
    return found


async def network_shapes(
    tx: Tx, cipher: CardCipher, owner: uuid.UUID, account: uuid.UUID, bin_: str, now: datetime
) -> None:
    """One purchase of each docs/transactions.md#holds-captures-increments-expiry shape on a new
    card of `account` (USD)."""
    card = await _card(tx, cipher, owner, account, bin_)

    async def hold(
        cents: int, merchant: str, tag: str | None, at: datetime, currency: str = "USD"
    ) -> uuid.UUID:
        message = Authorization(card, cents, currency, merchant, tag=tag)
        recorded, _no_endpoint = await rules_first(tx, cipher, owner, message, now=at)
        assert recorded is not None and recorded.row["status"] == "pending", recorded
        return uuid.UUID(str(recorded.row["uuid"]))

    earlier = now - timedelta(days=2)
    hotel = await hold(30000, "Hilton", "hilton", earlier)
    raise_by = Authorization(card, 12000, "USD", "Hilton", tag="hilton", parent_uuid=hotel)
    await rules_first(tx, cipher, owner, raise_by, now=earlier + timedelta(days=1))
    await capture(tx, owner, CaptureMessage(hotel), now - timedelta(hours=3))
    market = await hold(9000, "Amazon", "amazon", earlier)
    for part, final in ((3000, False), (3000, False), (3000, True)):
        await capture(tx, owner, CaptureMessage(market, part, final), now - timedelta(hours=2))
    dinner = await hold(5000, "Restaurant", None, earlier)
    await capture(tx, owner, CaptureMessage(dinner, 5800), now - timedelta(hours=1))
    fuel = await hold(10000, "Shell", "shell", earlier)
    await capture(tx, owner, CaptureMessage(fuel, 4317), now - timedelta(minutes=30))
    await hold(2500, "Forgotten merchant", None, now - timedelta(days=10))
    abroad = await hold(8000, "Lufthansa", "lufthansa", earlier, currency="EUR")
    settled = CaptureMessage(abroad, rate=Decimal("1.0900"))
    await capture(tx, owner, settled, now - timedelta(minutes=10))
    stay = await hold(20000, "Paris hotel", None, earlier, currency="EUR")  # 217.00 USD
    for part, final, rate in ((8000, False, None), (6000, False, "1.10"), (5000, True, None)):
        message = CaptureMessage(stay, part, final, None if rate is None else Decimal(rate))
        await capture(tx, owner, message, now - timedelta(minutes=5))
    await expire_due_holds(tx, now)

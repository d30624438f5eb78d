"""The demo team at work (docs/teams.md#teams-budgets-requests-receipts): a second member with
a few purchases this month, both members' monthly budgets (Alex's already over), a receipt
policy that chases Sam's larger purchases of the last weeks, and a request of each kind
waiting for the owner — so the owner's Team page shows what it is for. Made through the
teams' services, as the owner and the members would through the API."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from decimal import Decimal

from cardservice.auth import Principal
from cardservice.cards import BuyCardsRequest, buy_cards
from cardservice.db.sql import Tx
from cardservice.security import CardCipher
from cardservice.teams.receipts import put_policy
from cardservice.teams.schemas import CreateTeamRequest, ReceiptPolicyRequest
from cardservice.teams.service import create_request, set_budget
from cardservice.transactions import Authorization, CaptureMessage, capture, rules_first

# Alex's purchases this month, (cents, merchant, tag), days before now: over a 300 EUR budget
ALEX_PURCHASES = [
    (12900, "Lufthansa", "lufthansa", 6),
    (8450, "Booking.com", "booking-com", 4),
    (4620, "Uber", "uber", 2),
    (9800, "Airbnb", "airbnb", 1),
]
POLICY = {"min_amount": 50, "currency": "USD", "remind_after_days": 3, "freeze_after_days": 30}
POLICY_SINCE = timedelta(days=20)  # the policy chases purchases captured since it was set


def _as(user: uuid.UUID, team: uuid.UUID, role: str) -> Principal:
    """The demo's people as the teams' services see an API caller (no credential: the demo
    acts in their name, as the operator's CLI does)."""
    return Principal(user, team, role, "demo", "", None)


async def alex_spends(
    tx: Tx, cipher: CardCipher, alex: uuid.UUID, account: uuid.UUID, bin_uuid: str, now: datetime
) -> None:
    """Alex's one EUR card and this month's purchases on it, each captured at once."""
    body = BuyCardsRequest.model_validate(
        {
            "account_uuid": str(account),
            "bin_uuid": bin_uuid,
            "start_balance": Decimal("600"),
            "description": "Alex's travel card",
        }
    )
    card = uuid.UUID(str((await buy_cards(tx, cipher, alex, body))["cards"][0]["uuid"]))
    month_start = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    for cents, merchant, tag, days in ALEX_PURCHASES:
        moment = max(now - timedelta(days=days), month_start)
        paid = Authorization(card, cents, "EUR", merchant, tag=tag)
        recorded, _question = await rules_first(tx, cipher, alex, paid, now=moment)
        assert recorded is not None, "the demo's users have no decision endpoint"
        await capture(tx, alex, CaptureMessage(recorded.row["uuid"]), moment)


async def manage_team(
    tx: Tx,
    team: uuid.UUID,
    owner: uuid.UUID,
    members: dict[str, uuid.UUID],
    sam_account: uuid.UUID,
    usd_bin: str,
    now: datetime,
) -> None:
    """Budgets, the receipt policy and two pending requests (`members`: Sam's and Alex's)."""
    boss = _as(owner, team, "owner")
    sam, alex = _as(members["sam"], team, "member"), _as(members["alex"], team, "member")
    await set_budget(tx, boss, sam.user_uuid, 250000, "USD", now)
    await set_budget(tx, boss, alex.user_uuid, 30000, "EUR", now)
    await put_policy(tx, boss, ReceiptPolicyRequest.model_validate(POLICY), now - POLICY_SINCE)
    card = {
        "kind": "card",
        "account_uuid": str(sam_account),
        "bin_uuid": usd_bin,
        "start_balance": Decimal("150"),
        "description": "Conference travel",
    }
    await create_request(tx, sam, CreateTeamRequest.model_validate(card), now)
    more = {"kind": "budget_increase", "amount": Decimal("100"), "currency": "EUR"}
    more["reason"] = "Client dinner in Lyon"
    await create_request(tx, alex, CreateTeamRequest.model_validate(more), now)

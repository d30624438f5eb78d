"""`cardservice demo`: a demo team with accounts, cards and history, built through the services.

Idempotent: the data is created once; every run prints a fresh bearer token for the demo owner.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardservice.accounts.service import create_account
from cardservice.auth.credentials import issue_token
from cardservice.cards.purchase import buy_cards
from cardservice.cards.schemas import BuyCardsRequest
from cardservice.config import Settings
from cardservice.db import Database
from cardservice.ledger.money import to_minor
from cardservice.models import Bin, User
from cardservice.security import CardCipher
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

DEMO_EMAIL = "demo@cardservice.example"
DEMO_TEAM = "Demo Team"
TOKEN_LIFETIME = timedelta(days=30)


async def _bin_for(session: AsyncSession, currency: str) -> str:
    found = await session.scalar(
        select(Bin.uuid)
        .where(Bin.currency == currency, Bin.status == "available")
        .order_by(Bin.bin)
    )
    if found is None:
        raise RuntimeError(f"the catalogue has no available {currency} BIN")
    return str(found)


async def _populate(session: AsyncSession, cipher: CardCipher) -> User:
    owner = await create_user(session, DEMO_EMAIL, "Dana Demo", DEMO_TEAM, "owner")
    member = await create_user(
        session, "sam@cardservice.example", "Sam Member", DEMO_TEAM, "member"
    )
    plan = [
        (owner, "Main USD", "USD", "main", Decimal("25000"), 4),
        (owner, "Ads budget EUR", "EUR", "budget", Decimal("12000"), 3),
        (member, "Team travel", "USD", "team", Decimal("5000"), 2),
    ]
    for user, name, currency, type_, funds, cards in plan:
        account = await create_account(session, user.uuid, name, currency, type_)
        await deposit(session, user.uuid, account.uuid, to_minor(funds), "Initial funding")
        body = BuyCardsRequest.model_validate(
            {
                "account_uuid": str(account.uuid),
                "bin_uuid": await _bin_for(session, currency),
                "start_balance": Decimal("500"),
                "cards_count": cards,
                "description": f"{name} card",
                "auto_replenish_amount": Decimal("200"),
                "auto_replenish_min_balance": Decimal("50"),
            }
        )
        await buy_cards(session, cipher, user.uuid, body)
    return owner


async def create_demo(settings: Settings) -> str:
    """Create the demo data if missing; return a new bearer token for the demo owner."""
    db = Database(settings)
    try:
        async with db.write() as session:
            owner = await session.scalar(select(User).where(User.email == DEMO_EMAIL))
            if owner is None:
                owner = await _populate(session, CardCipher.from_settings(settings))
            _token, plaintext = await issue_token(session, owner.uuid, "demo", TOKEN_LIFETIME)
        return plaintext
    finally:
        await db.dispose()

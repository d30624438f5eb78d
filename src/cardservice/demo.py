"""`cardservice demo`: a demo team with accounts, cards and history, built through the services.

Idempotent: the data is created once; every run prints a fresh bearer token for the demo owner.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
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
from cardservice.models import Bin, Card, Transaction, TransactionTag, User
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.sql import session_tx
from cardservice.transactions import lifecycle
from cardservice.transactions.deposits import deposit
from cardservice.transactions.engine import Authorization, authorize
from cardservice.transactions.three_ds import issue_code
from cardservice.users.service import create_user

DEMO_EMAIL = "demo@cardservice.example"
DEMO_SEED = 20260319
HISTORY_DAYS = 90
POPULAR_MERCHANTS = {
    "Amazon",
    "Netflix",
    "Spotify",
    "Uber",
    "Airbnb",
    "Google Ads",
    "Facebook Ads",
    "Starbucks",
    "Apple",
    "Booking.com",
    "Lidl",
    "IKEA",
    "Shopify",
    "Amazon Web Services",
    "DigitalOcean",
    "Steam",
    "Ryanair",
    "Lufthansa",
    "Zara",
    "McDonald's",
    "Bolt",
    "GitHub",
    "Notion",
    "Figma",
}
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
        await buy_cards(await session_tx(session), cipher, user.uuid, body)
    for user in (owner, member):
        rng = random.Random(f"{DEMO_SEED}:{user.email}")  # noqa: S311 - demo data, not secrets
        await _history(session, cipher, user, rng)
    return owner


async def _history(
    session: AsyncSession, cipher: CardCipher, user: User, rng: random.Random
) -> None:
    """About 35 purchases per card over the last 90 days, through the engine, oldest first."""
    cards = list(await session.scalars(select(Card).where(Card.user_uuid == user.uuid)))
    merchants = [
        tag
        for tag in await session.scalars(select(TransactionTag).order_by(TransactionTag.name))
        if tag.name in POPULAR_MERCHANTS or tag.restriction == "blocked"
    ]
    weights = [1 if tag.restriction else 20 for tag in merchants]
    now = utcnow()
    moments = sorted(
        now - timedelta(minutes=rng.randint(60, HISTORY_DAYS * 24 * 60))
        for _ in range(35 * len(cards))
    )
    for moment in moments:
        card, tag = rng.choice(cards), rng.choices(merchants, weights)[0]
        amount = rng.choice([rng.randint(300, 3000), rng.randint(3000, 25000)])
        purchase = await authorize(
            await session_tx(session),
            cipher,
            user.uuid,
            Authorization(
                card_uuid=card.uuid,
                amount=amount,
                currency=card.currency,
                merchant_name=tag.name,
                tag=tag.slug,
            ),
            now=moment,
        )
        if purchase.status == "pending":
            await _settle_or_not(session, user, purchase, moment, now, rng)
    await issue_code(
        session,
        cipher,
        user.uuid,
        cards[0].uuid,
        "Booking.com",
        18900,
        cards[0].currency,
        timedelta(minutes=10),
        now,
    )


async def _settle_or_not(
    session: AsyncSession,
    user: User,
    purchase: Transaction,
    moment: datetime,
    now: datetime,
    rng: random.Random,
) -> None:
    """Most purchases settle within a day, a few are reversed, some settled ones refunded."""
    settled_at = moment + timedelta(hours=rng.randint(1, 30))
    if rng.random() < 0.07:
        await lifecycle.reverse(session, user.uuid, purchase.uuid, now=moment)
    elif settled_at < now:
        await lifecycle.settle(session, user.uuid, purchase.uuid, now=settled_at)
        if rng.random() < 0.05:
            await lifecycle.refund(
                session, user.uuid, purchase.uuid, rng.randint(1, purchase.amount), now=settled_at
            )


async def create_demo(settings: Settings) -> str:
    """Create the demo data if missing; return a new bearer token for the demo owner."""
    db = Database(settings)
    try:
        async with db.write() as session:
            owner = await session.scalar(select(User).where(User.email == DEMO_EMAIL))
            if owner is None:
                owner = await _populate(session, CardCipher.from_settings(settings))
            _token, plaintext = await issue_token(
                await session_tx(session), owner.uuid, "demo", TOKEN_LIFETIME
            )
        return plaintext
    finally:
        await db.dispose()

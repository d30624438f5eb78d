"""`cardservice demo`: a demo team with accounts, cards and history, built through the services;
a frozen card and a card with spending controls (and its declines) among them, a card
with one purchase of each network shape (holds.py: increment, captures in parts, tip,
fuel, expired hold), the owner's disputes one at each step of their life through the network
(disputes.py), the owner's first USD card in Apple Pay (a wallet token that paid once), and the
team at work (team.py: a second member, budgets, a receipt policy, requests waiting).

Idempotent: the data is created once; every run prints the demo owner's bearer token, the one
kept in `<var_dir>/demo-token` while it is valid, else a new one (token.py). Users,
accounts and their funding are made by the operator API's services (cardservice.operator),
as an operator would make them.
"""

from __future__ import annotations

import random
import uuid
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from cardservice import runtime
from cardservice.accounts import account_in
from cardservice.acquirer import draw_dpan, token_expiry
from cardservice.cards import (
    BuyCardsRequest,
    CardChangeRequest,
    SpendingControls,
    buy_cards,
    cards_of_user,
    change_card,
)
from cardservice.config import Settings
from cardservice.db.sql import Tx, as_uuid
from cardservice.demo.disputes import Walk, open_disputes
from cardservice.demo.disputes import walk as dispute_walk
from cardservice.demo.holds import network_shapes
from cardservice.demo.team import alex_spends, manage_team
from cardservice.demo.token import demo_token, keep, read_kept, token_path
from cardservice.dictionaries import available_bin, every_tag
from cardservice.errors import NotFound
from cardservice.models.base import utcnow
from cardservice.observability.progress import Report
from cardservice.operator import (
    CLI,
    CreateAccountRequest,
    CreateUserRequest,
    MoneyRequest,
    move_money_in,
    onboard_user,
    open_account,
)
from cardservice.security import CardCipher
from cardservice.tokens import (
    ProvisioningRequest,
    TokenNotice,
    create_token,
    paid_with,
    record_decision,
)
from cardservice.transactions import (
    Authorization,
    CaptureMessage,
    Presentation,
    RefundMessage,
    ReversalMessage,
    capture,
    issue_code,
    refund,
    reverse,
    rules_first,
)
from cardservice.users import team_by_name, user_by_email

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


async def _bin_for(tx: Tx, currency: str) -> str:
    found = await available_bin(tx, currency)
    if found is None:
        raise RuntimeError(f"the catalogue has no available {currency} BIN")
    return str(found)


async def _onboard(tx: Tx, email: str, name: str, role: str) -> uuid.UUID:
    """A demo user, onboarded as the operator API onboards one."""
    body = CreateUserRequest(email=email, name=name, team=DEMO_TEAM, role=role)  # type: ignore[arg-type]
    user = as_uuid((await onboard_user(tx, CLI, body))["uuid"])
    assert user is not None
    return user


async def _fund(
    tx: Tx, user: uuid.UUID, name: str, currency: str, type_: str, funds: Decimal
) -> uuid.UUID:
    """An account opened and credited as the operator API does it."""
    body = CreateAccountRequest(user_uuid=str(user), name=name, currency=currency, type=type_)
    account = as_uuid((await open_account(tx, CLI, body))["uuid"])
    assert account is not None
    credit = MoneyRequest(
        amount=funds, external_id=f"demo-funding-{account}", description="Initial funding"
    )
    await move_money_in(tx, CLI, "credit", account, credit)
    return account


async def _populate(tx: Tx, cipher: CardCipher, report: Report) -> Walk:
    owner = await _onboard(tx, DEMO_EMAIL, "Dana Demo", "owner")
    member = await _onboard(tx, "sam@cardservice.example", "Sam Member", "member")
    plan = [
        (owner, "Main USD", "USD", "main", Decimal("25000"), 4),
        (owner, "Ads budget EUR", "EUR", "budget", Decimal("12000"), 3),
        (member, "Team travel", "USD", "team", Decimal("5000"), 2),
    ]
    for user, name, currency, type_, funds, cards in plan:
        account = await _fund(tx, user, name, currency, type_, funds)
        body = BuyCardsRequest.model_validate(
            {
                "account_uuid": str(account),
                "bin_uuid": await _bin_for(tx, currency),
                "start_balance": Decimal("500"),
                "cards_count": cards,
                "description": f"{name} card",
                "auto_replenish_amount": Decimal("200"),
                "auto_replenish_min_balance": Decimal("50"),
            }
        )
        await buy_cards(tx, cipher, user, body)
    for user, email in ((owner, DEMO_EMAIL), (member, "sam@cardservice.example")):
        rng = random.Random(f"{DEMO_SEED}:{email}")  # noqa: S311 - demo data, not secrets
        await _history(tx, cipher, user, rng, report, f"{email} history")
    await _controls(tx, cipher, owner)
    walk = await open_disputes(tx, owner)
    main_usd = await account_in(tx, owner, "USD")
    assert main_usd is not None
    await network_shapes(tx, cipher, owner, main_usd, await _bin_for(tx, "USD"), utcnow())
    await _wallet(tx, cipher, owner)
    await _team_at_work(tx, cipher, owner, member)
    return walk


async def _team_at_work(tx: Tx, cipher: CardCipher, owner: uuid.UUID, sam: uuid.UUID) -> None:
    """Alex, a second member with an EUR account and a card spent over budget; then the
    owner's budgets, receipt policy, and the members' requests (team.py)."""
    alex = await _onboard(tx, "alex@cardservice.example", "Alex Member", "member")
    account = await _fund(tx, alex, "Alex's EUR", "EUR", "team", Decimal("2000"))
    now = utcnow()
    await alex_spends(tx, cipher, alex, account, await _bin_for(tx, "EUR"), now)
    team = await team_by_name(tx, DEMO_TEAM)
    sam_account = await account_in(tx, sam, "USD")
    assert team is not None and sam_account is not None
    members = {"sam": sam, "alex": alex}
    await manage_team(tx, team, owner, members, sam_account, await _bin_for(tx, "USD"), now)


async def _wallet(tx: Tx, cipher: CardCipher, owner: uuid.UUID) -> None:
    """The owner's first USD card in Apple Pay, as the network's token service puts it there
    (an approved provisioning, then the token it made), and one payment with it."""
    first = (await cards_of_user(tx, owner, "USD"))[0]
    card_uuid = as_uuid(first["uuid"])
    assert card_uuid is not None
    rng = random.Random(f"{DEMO_SEED}:wallet")  # noqa: S311 - demo data, not secrets
    reference, now = f"DEMO{rng.getrandbits(64):016X}", utcnow()
    asked = ProvisioningRequest(
        card_uuid, owner, "USD", reference, "40010030273", "apple_pay", "Dana's iPhone", 1
    )
    await record_decision(tx, cipher, asked, "approve", "rules", now)
    notice = TokenNotice(
        card_uuid, reference, draw_dpan(rng), token_expiry(), "apple_pay", "Dana's iPhone"
    )
    token = await create_token(tx, cipher, notice, now)
    paid = {"uuid": token["uuid"], "wallet": "apple_pay", "last4": notice.dpan[-4:]}
    wallet = Presentation(token=paid_with(paid))
    payment = Authorization(card_uuid, 1450, "USD", "Starbucks", tag="starbucks",
                            presentation=wallet)  # fmt: skip
    await rules_first(tx, cipher, owner, payment, now=now)


DEMO_LIMITS = {"per_authorization": 40, "daily": 60, "monthly": 1500, "blocked_tags": ["uber"]}
# (amount in cents, tag) the limited card meets today: over 40, two that fit, over 60 a day,
# a blocked tag, the last that fits, over again
LIMITED_ATTEMPTS = [
    (5000, None),
    (2500, "amazon"),
    (2500, "netflix"),
    (2000, None),
    (1500, "uber"),
    (1000, None),
    (3000, "spotify"),
]


async def _controls(tx: Tx, cipher: CardCipher, owner: uuid.UUID) -> None:
    """The owner's last USD card frozen (and one decline on it); the one before it with
    limits, meeting a few `limit_exceeded` and one `merchant_blocked` today."""
    rows = await cards_of_user(tx, owner, "USD")
    limited, frozen = (as_uuid(row["uuid"]) for row in rows[-2:])
    assert limited is not None and frozen is not None
    now = utcnow()
    await change_card(tx, owner, frozen, CardChangeRequest(status="frozen"), now)
    controls = SpendingControls.model_validate(DEMO_LIMITS)
    limits = CardChangeRequest(
        description="Limited: 40 a payment, 60 a day", spending_controls=controls
    )
    await change_card(tx, owner, limited, limits, now)
    attempts = [(frozen, 2500, "netflix")] + [
        (limited, cents, tag) for cents, tag in LIMITED_ATTEMPTS
    ]
    for card_uuid, amount, tag in attempts:
        merchant = "Merchant" if tag is None else tag.capitalize()
        message = Authorization(card_uuid, amount, "USD", merchant, tag=tag)
        await rules_first(tx, cipher, owner, message, now=now)


async def _history(
    tx: Tx,
    cipher: CardCipher,
    user: uuid.UUID,
    rng: random.Random,
    report: Report,
    stage: str,
) -> None:
    """About 35 purchases per card over the last 90 days, through the authorization entry,
    oldest first."""
    cards = await cards_of_user(tx, user)
    merchants = [
        tag
        for tag in await every_tag(tx)
        if tag["name"] in POPULAR_MERCHANTS or tag["restriction"] == "blocked"
    ]
    weights = [1 if tag["restriction"] else 20 for tag in merchants]
    now = utcnow()
    moments = sorted(
        now - timedelta(minutes=rng.randint(60, HISTORY_DAYS * 24 * 60))
        for _ in range(35 * len(cards))
    )
    for done, moment in enumerate(moments, start=1):
        card, tag = rng.choice(cards), rng.choices(merchants, weights)[0]
        amount = rng.choice([rng.randint(300, 3000), rng.randint(3000, 25000)])
        recorded, _no_endpoint = await rules_first(
            tx,
            cipher,
            user,
            Authorization(
                card_uuid=as_uuid(card["uuid"]),  # type: ignore[arg-type]
                amount=amount,
                currency=card["currency"],
                merchant_name=tag["name"],
                tag=tag["slug"],
            ),
            now=moment,
        )
        assert recorded is not None, "the demo's users have no decision endpoint"
        purchase = recorded.row
        if purchase["status"] == "pending":
            await _settle_or_not(tx, user, purchase, moment, now, rng)
        report(stage, done, len(moments))
    first = cards[0]
    card_uuid = as_uuid(first["uuid"])
    assert card_uuid is not None
    ttl = timedelta(minutes=10)
    await issue_code(tx, cipher, user, card_uuid, "Booking.com", 18900, first["currency"], ttl, now)


async def _settle_or_not(
    tx: Tx,
    user: uuid.UUID,
    purchase: dict[str, Any],
    moment: datetime,
    now: datetime,
    rng: random.Random,
) -> None:
    """Most purchases settle within a day, a few are reversed, some settled ones refunded."""
    settled_at = moment + timedelta(hours=rng.randint(1, 30))
    if rng.random() < 0.07:
        await reverse(tx, user, ReversalMessage(purchase["uuid"]), moment)
    elif settled_at < now:
        await capture(tx, user, CaptureMessage(purchase["uuid"]), settled_at)
        if rng.random() < 0.05:
            amount = rng.randint(1, purchase["amount"])
            await refund(tx, user, RefundMessage(purchase["uuid"], amount), settled_at)


def _quiet(_stage: str, _done: int, _total: int) -> None:
    """No progress to show."""


async def create_demo(settings: Settings, report: Report = _quiet) -> str:
    """Create the demo data if missing (its progress told to `report`); return the demo
    owner's bearer token (the kept one while valid, else a new one), kept for next time."""
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher
    path = token_path(settings.var_dir)
    kept = read_kept(path)

    async def unit(tx: Tx) -> tuple[str, Walk | None]:
        walk = None
        try:
            owner = await user_by_email(tx, DEMO_EMAIL)
        except NotFound:
            walk = await _populate(tx, cipher, report)
            owner = walk.owner
        return await demo_token(tx, owner, kept, utcnow()), walk

    try:
        token, walk = await db.transact(unit)
        if walk is not None:  # the disputes' files and decisions, units of their own
            await dispute_walk(db, cipher, walk)
    finally:
        await parts.aclose()
    keep(path, token)
    return token

"""The simulator's token service (docs/network.md#wallet-tokens): it plays the network that puts a
card in a wallet — the provisioning request, then the token-created notice with a DPAN it draws —
for `cardservice network tokenize` and the wallet traffic of `network run --faults wallets`."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from cardservice.acquirer import messages, repository
from cardservice.acquirer.client import NetworkClient
from cardservice.acquirer.messages import TOKEN_BIN
from cardservice.cards import luhn_check_digit
from cardservice.db.database import Database
from cardservice.models.base import utcnow
from cardservice.security import CardCipher
from cardservice.tokens import WALLET_OF_NAME, card_tokens, change_token
from cardservice.transactions import unassigned_codes

DECISIONS = {"00": "approved", "85": "approved once the holder confirms", "05": "declined"}
TOKEN_YEARS = 4  # a DPAN's validity, from this year
DPAN_LENGTH = 16


@dataclass
class Tokenized:
    """What the network knows of a token it asked for: the decision (field 39), and, when
    not declined, the reference, DPAN and expiry it told the issuer (the notice's 39)."""

    decision: str
    reference: str
    dpan: str
    expiry: str  # YYMM
    notice: str | None = None

    @property
    def recorded(self) -> bool:
        """Decided for and told: the issuer keeps the token (it pays once active)."""
        return self.decision in ("00", "85") and self.notice == "00"


def draw_dpan(chooser: random.Random) -> str:
    """A Luhn-valid DPAN of the simulated token service's range."""
    body = "".join(str(chooser.randint(0, 9)) for _ in range(DPAN_LENGTH - len(TOKEN_BIN) - 1))
    return TOKEN_BIN + body + luhn_check_digit(TOKEN_BIN + body)


def token_expiry() -> str:
    year = (datetime.now(UTC).year + TOKEN_YEARS) % 100
    return f"{year:02d}12"


async def tokenize(
    client: NetworkClient,
    pan: str,
    expiry: str,
    key: Callable[[], tuple[str, str]],
    *,
    wallet: str = "apple_pay",
    risk: int = 1,
    device_name: str = "Simulated phone",
    chooser: random.Random | None = None,
) -> Tokenized:
    """Ask the issuer whether the card may go into `wallet`; unless declined, draw a DPAN
    and tell the issuer the token was created."""
    chooser = chooser or random.SystemRandom()
    code = WALLET_OF_NAME[wallet]
    reference = f"SIM{uuid.UUID(int=chooser.getrandbits(128)).hex[:20].upper()}"
    asked = messages.provisioning(
        pan, expiry, *key(), reference=reference, wallet=code, device_name=device_name, risk=risk
    )
    decision = (await client.request("0100", asked)).fields[39]
    made = Tokenized(decision, reference, draw_dpan(chooser), token_expiry())
    if decision not in ("00", "85"):
        return made
    notice = messages.token_created(
        pan, made.dpan, made.expiry, *key(), reference=reference, wallet=code,
        device_name=device_name,
    )  # fmt: skip
    made.notice = (await client.request("0620", notice)).fields[39]
    return made


async def activate(
    client: NetworkClient, reference: str, code: str, key: Callable[[], tuple[str, str]]
) -> str:
    """The holder's activation code for a token (field 39 of the 0630)."""
    return (
        await client.request("0620", messages.token_activation(reference, code, *key()))
    ).fields[39]


def describe_token(made: Tokenized) -> str:
    """What `network tokenize` prints: the decision, and the token the network made."""
    lines = [f"0110 {made.decision} ({DECISIONS.get(made.decision, 'refused')})"]
    if made.notice is not None:
        lines += [
            f"0630 {made.notice}",
            f"token reference {made.reference}",
            f"dpan {made.dpan}",
            f"expiry {made.expiry}",
        ]
    if made.decision == "85" and made.notice == "00":
        lines.append(
            "the holder's activation code is listed in GET /user/3ds-unassigned; then: "
            f"cardservice network activate --reference {made.reference} --code CODE"
        )
    return "\n".join(lines)


@dataclass
class WalletCard:
    """A card of the run in a wallet: the token's DPAN and expiry, and its status."""

    dpan: str
    expiry: str
    status: str


async def put_in_wallets(
    db: Database,
    cipher: CardCipher,
    client: NetworkClient,
    cards: Sequence[tuple[str, str, str]],
    key: Callable[[], tuple[str, str]],
    chooser: random.Random,
) -> list[WalletCard | None]:
    """Each card `(uuid, pan, expiry)` of the run into a wallet, with a risk score drawn
    1–5: the run's cards never paid yet, so each is a step-up; the network then sends the
    holder's activation code (read as the holder reads it) for all but the first, whose token
    stays `requires_activation`; the second's token is suspended by its holder. Payments of
    both answer `62` (`token_inactive`)."""
    made: list[WalletCard | None] = []
    for index, (card_uuid, pan, expiry) in enumerate(cards):
        wallet = chooser.choice(tuple(WALLET_OF_NAME))
        token = await tokenize(
            client, pan, expiry, key, wallet=wallet, risk=chooser.randint(1, 5), chooser=chooser
        )
        if not token.recorded:
            made.append(None)
            continue
        status = "requires_activation"
        owner = await repository.sim_owner(db.reader, uuid.UUID(card_uuid))
        assert owner is not None
        if index > 0:
            status = await _activate_as_holder(db, cipher, client, owner, token, key)
        if index == 1 and status == "active":
            status = await _suspend_as_holder(db, owner, uuid.UUID(card_uuid), token)
        made.append(WalletCard(token.dpan, token.expiry, status))
    return made


async def _activate_as_holder(
    db: Database,
    cipher: CardCipher,
    client: NetworkClient,
    owner: uuid.UUID,
    token: Tokenized,
    key: Callable[[], tuple[str, str]],
) -> str:
    """The holder reads the newest activation code listed and types it in the wallet."""
    codes = await unassigned_codes(db.reader, cipher, owner, utcnow())
    for code in codes:  # newest first
        if code["amount"] == 0:
            answer = await activate(client, token.reference, code["code"], key)
            return "active" if answer == "00" else "requires_activation"
    return "requires_activation"


async def _suspend_as_holder(
    db: Database, owner: uuid.UUID, card_uuid: uuid.UUID, token: Tokenized
) -> str:
    """The holder suspends the token (the service's own use case, as the API calls it)."""
    listed = await card_tokens(db.reader, owner, None, card_uuid)
    token_uuid = uuid.UUID(str(listed[-1]["uuid"]))
    now = utcnow()
    changed = await db.transact(
        lambda tx: change_token(tx, owner, card_uuid, token_uuid, "suspend", now)
    )
    return str(changed["status"])

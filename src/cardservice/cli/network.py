"""`cardservice network send|run`: the network simulator on the command line
(docs/network.md#the-network-interface-iso-8583)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import click
import orjson

from cardservice import runtime
from cardservice.acquirer import (
    NetworkClient,
    card_to_send,
    messages,
    representments,
    simulator,
    token_expiry_to_send,
    transmitted_now,
    wallets,
)
from cardservice.cli.arguments import AMOUNT, CURRENCY, CommandError, Parsed, runs
from cardservice.config import Settings
from cardservice.ledger.minor_units import from_minor
from cardservice.network.codec import Message
from cardservice.network.fields import (
    ATM_MCC,
    CURRENCIES,
    NUMERIC_CURRENCIES,
    PURCHASE,
    WITHDRAWAL,
)
from cardservice.tokens import WALLET_OF_NAME

MTI = {
    "authorization": "0100", "stand-in": "0120", "capture": "0220", "reversal": "0400",
    "refund": "0220",
}  # fmt: skip
STAND_IN_REVERSAL = "0420"  # a stand-in's reversal is an advice too


def _original(text: str) -> tuple[str, str]:
    """`STAN/MMDDhhmmss`, as `send` prints an authorization's key."""
    stan, _, sent = text.partition("/")
    if not (stan.isdigit() and len(stan) <= 6 and sent.isdigit() and len(sent) == 10):
        raise ValueError("the original's key: STAN/MMDDhhmmss, as send prints it")
    return stan.rjust(6, "0"), sent


def _faults(text: str) -> set[str]:
    chosen = set(simulator.FAULTS) if text == "all" else {f for f in text.split(",") if f}
    unknown = chosen - set(simulator.FAULTS)
    if unknown:
        raise ValueError(f"unknown faults {sorted(unknown)}; choose of {simulator.FAULTS} or all")
    return chosen


def _port(port: int | None, settings: Settings) -> int:
    port = port or settings.iso8583_port
    if port is None:
        raise CommandError("give --port (or set CARDSERVICE_ISO8583_PORT)")
    return int(port)


async def _card(settings: Settings, card_uuid: uuid.UUID) -> tuple[str, str]:
    """A card's number and expiry, read from the service's database (a demo on one machine)."""
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher
    try:
        row = await card_to_send(db.reader, card_uuid)
    finally:
        await parts.aclose()
    if row is None:
        raise CommandError(f"no card {card_uuid}")
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    return cipher.decrypt(bytes(row["pan_ciphertext"])), expiry


async def _token_expiry(settings: Settings, dpan: str) -> str:
    """A wallet token's expiry, read from the service's vault by the DPAN's fingerprint."""
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher
    try:
        expiry = await token_expiry_to_send(db.reader, cipher.fingerprint(dpan))
    finally:
        await parts.aclose()
    if expiry is None:
        raise CommandError("no wallet token has this DPAN (give --expiry to send it anyway)")
    return expiry


def _pin_block(settings: Settings, pin: str, pan: str) -> str:
    """Field 52 as the acquirer's PIN pad makes it, under the zone PIN key the network shares
    with the issuer (docs/cards.md#pin-in-iso-8583)."""
    if not settings.iso8583_zpk:
        raise CommandError("--pin needs the zone PIN key: set CARDSERVICE_ISO8583_ZPK")
    if not (pin.isascii() and pin.isdigit() and 4 <= len(pin) <= 12):
        raise CommandError("--pin is 4 to 12 digits")
    return messages.pin_block(pin, pan, settings.iso8583_zpk)


@dataclass(frozen=True, slots=True)
class Send:
    """What `network send` was asked to send."""

    type: str
    amount: int
    currency: str
    merchant: str
    cvv2: str | None
    original: tuple[str, str] | None
    more: bool
    stays: int | None
    original_mti: str = "0100"
    entry_mode: str | None = None
    pin_block: str | None = field(default=None, repr=False)
    atm: bool = False


def request_fields(args: Send, pan: str, expiry: str, stan: str, sent: str) -> dict[int, str]:
    """The fields of the message `args` asks for (a follow-up's original rebuilt from its key:
    with `atm`, a withdrawal's, whose processing code the follow-up carries)."""
    original = None
    original_mti = args.original_mti
    if args.type not in ("authorization", "stand-in"):
        if args.original is None and not (args.type == "refund"):
            raise CommandError(f"a {args.type} names its original: --original STAN/TIME")
        if args.original is not None:
            original = messages.authorization(
                pan, expiry, args.amount, *args.original, currency=args.currency,
                processing=WITHDRAWAL if args.atm else PURCHASE,
            )  # fmt: skip
    if args.type == "stand-in":
        return messages.stand_in(pan, expiry, args.amount, stan, sent, currency=args.currency)
    if args.type == "authorization" and args.atm:
        return messages.authorization(
            pan, expiry, args.amount, stan, sent, currency=args.currency, merchant=args.merchant,
            mcc=ATM_MCC, entry_mode=args.entry_mode or "chip", pin_block=args.pin_block,
            processing=WITHDRAWAL,
        )  # fmt: skip
    if args.type == "authorization":
        return messages.authorization(
            pan, expiry, args.amount, stan, sent, currency=args.currency, merchant=args.merchant,
            cvv2=args.cvv2, entry_mode=args.entry_mode, pin_block=args.pin_block,
        )  # fmt: skip
    if args.type == "capture":
        assert original is not None
        return messages.capture_advice(
            original, args.amount, stan, sent, more=args.more, original_mti=original_mti
        )
    if args.type == "reversal":
        assert original is not None
        return messages.reversal_request(
            original, stan, sent, stays=args.stays, original_mti=original_mti
        )
    return messages.refund_advice(
        pan, args.amount, stan, sent, original=original, currency=args.currency,
        original_mti=original_mti,
    )  # fmt: skip


def mti_of(args: Send) -> str:
    """The request's MTI: a reversal of a stand-in (`--original-mti 0120`) is an 0420."""
    if args.type == "reversal" and args.original_mti == "0120":
        return STAND_IN_REVERSAL
    return MTI[args.type]


def describe(answer: Message, stan: str, sent: str) -> str:
    """One line: MTI, response code, authorization code, available balance, the key."""
    parts = [answer.mti, answer.fields.get(39, "--")]
    if 38 in answer.fields:
        parts.append(f"auth {answer.fields[38]}")
    balance = answer.fields.get(54)
    if balance and len(balance) == 20:
        currency = CURRENCIES.get(balance[4:7], balance[4:7])
        sign = "-" if balance[7] == "D" else ""
        parts.append(f"available {sign}{from_minor(int(balance[8:]))} {currency}")
    parts.append(f"key {stan}/{sent}")
    return " ".join(parts)


def _endpoint(command: Callable[..., None]) -> Callable[..., None]:
    """The listener's `--host` and `--port` options, for send and run."""
    host = click.option("--host", help="The listener's host (default CARDSERVICE_ISO8583_HOST).")
    port = click.option(
        "--port", type=click.INT, help="The listener's port (default CARDSERVICE_ISO8583_PORT)."
    )
    return host(port(command))


@click.group(name="network")
def network() -> None:
    """An ISO 8583 network simulator (the acquirer's side).

    docs/network.md#the-network-interface-iso-8583."""


@network.command(name="send")
@click.option(
    "--type",
    "type_",
    type=click.Choice(tuple(MTI)),
    default="authorization",
    show_default=True,
    help="The message to send.",
)
@click.option(
    "--card-uuid",
    type=click.UUID,
    help="A card of this service's database (its number and expiry are read there).",
)
@click.option("--pan", help="A card number (instead of --card-uuid).")
# a wallet token's DPAN: docs/network.md#wallet-tokens (a help text is wrapped at hyphens, so
# the options cite their headings here)
@click.option(
    "--token-pan",
    help="A wallet token's DPAN (printed by `network tokenize`), instead of a card.",
)
@click.option(
    "--expiry",
    help="The card's expiry, YYMM, with --pan; with --token-pan the token's (default: read "
    "from the service's database).",
)
@click.option("--amount", type=AMOUNT, required=True, help="e.g. 12.50")
@click.option(
    "--currency",
    type=CURRENCY,
    default="USD",
    show_default=True,
    help="The amount's currency, an ISO 4217 code the network's field 49 knows (any case).",
)
@click.option("--merchant", default="Netflix", show_default=True, help="The merchant's name.")
@click.option("--cvv2", help="The card's CVV2, checked when given.")
@click.option(
    "--original",
    type=Parsed("key", _original),
    help="The original's key STAN/MMDDhhmmss, as send prints it (captures, reversals, refunds).",
)
@click.option(
    "--original-mti",
    type=click.Choice(("0100", "0120")),
    default="0100",
    show_default=True,
    help="The original's MTI: 0120 for a stand-in advice's follow-ups (a reversal goes as 0420).",
)
@click.option(
    "--pin",
    help="The PIN the holder types (field 52: a format-0 block under CARDSERVICE_ISO8583_ZPK).",
)
@click.option(
    "--entry-mode",
    type=click.Choice(tuple(messages.ENTRY_MODE_CODES)),
    help="How the terminal read the card (field 22; default none, with --atm chip).",
)
@click.option(
    "--atm",
    is_flag=True,
    help="An ATM withdrawal (processing code 010000, MCC 6011); with a capture or reversal, "
    "the original was one (the follow-up carries its 010000).",
)
@click.option("--more", is_flag=True, help="A capture with more to follow (field 48.60).")
@click.option("--stays", type=AMOUNT, help="A partial reversal: what stays authorized.")
@_endpoint
@runs
async def send(
    settings: Settings, type_: str, card_uuid: uuid.UUID | None, pan: str | None,
    token_pan: str | None, expiry: str | None, amount: int, currency: str, merchant: str,
    cvv2: str | None, pin: str | None, entry_mode: str | None, atm: bool,
    original: tuple[str, str] | None, original_mti: str, more: bool, stays: int | None,
    host: str | None, port: int | None,
) -> str:  # fmt: skip
    """Send one message and print the answer.

    An authorization, stand-in advice (0120), capture, reversal or refund; the answer's
    MTI, response code, authorization code and available balance, and the message's key
    (for --original)."""
    if currency not in NUMERIC_CURRENCIES:
        raise CommandError(f"the network has no code for currency {currency}")
    if card_uuid is not None:
        pan, expiry = await _card(settings, card_uuid)
    elif token_pan is not None:
        pan, expiry = token_pan, expiry or await _token_expiry(settings, token_pan)
    elif not (pan and expiry):
        raise CommandError("give --card-uuid, or --pan and --expiry, or --token-pan")
    stan, sent = f"{uuid.uuid4().int % 999_999 + 1:06d}", transmitted_now()
    block = _pin_block(settings, pin, pan) if pin is not None else None
    asked = Send(
        type_, amount, currency, merchant, cvv2, original, more, stays, original_mti,
        entry_mode, block, atm,
    )  # fmt: skip
    fields = request_fields(asked, pan, expiry, stan, sent)
    client = await NetworkClient.connect(host or settings.iso8583_host, _port(port, settings))
    try:
        answer = await client.request(mti_of(asked), fields)
    finally:
        await client.close()
    return describe(answer, stan, sent)


@network.command(name="tokenize")
@click.option(
    "--card-uuid",
    type=click.UUID,
    required=True,
    help="A card of this service's database (its number and expiry are read there).",
)
@click.option(
    "--wallet",
    type=click.Choice(tuple(WALLET_OF_NAME)),
    default="apple_pay",
    show_default=True,
    help="The wallet the card goes into.",
)
@click.option(
    "--risk",
    type=click.IntRange(1, 5),
    default=1,
    show_default=True,
    help="The wallet's risk score: 1 low … 5 high (4 and 5 ask the holder to confirm).",
)
@click.option("--device", default="Simulated phone", show_default=True, help="The device's name.")
@_endpoint
@runs
async def tokenize(
    settings: Settings, card_uuid: uuid.UUID, wallet: str, risk: int, device: str,
    host: str | None, port: int | None,
) -> str:  # fmt: skip
    """Put a card in a digital wallet, as the network's token service does.

    Sends the provisioning request (0100, processing code 900000) and, unless declined, the
    token-created notice (0620); prints the decision, the token reference, the DPAN and its
    expiry (pay with them: network send --token-pan DPAN). docs/network.md#wallet-tokens."""
    pan, expiry = await _card(settings, card_uuid)
    client = await NetworkClient.connect(host or settings.iso8583_host, _port(port, settings))
    try:
        made = await wallets.tokenize(
            client, pan, expiry, _fresh_key, wallet=wallet, risk=risk, device_name=device
        )
    finally:
        await client.close()
    return wallets.describe_token(made)


@network.command(name="activate")
@click.option("--reference", required=True, help="The token reference `tokenize` printed.")
@click.option("--code", required=True, help="The activation code the holder read.")
@_endpoint
@runs
async def activate(
    settings: Settings, reference: str, code: str, host: str | None, port: int | None
) -> str:
    """Send the activation code the holder typed in the wallet (0620 with 48.77)."""
    client = await NetworkClient.connect(host or settings.iso8583_host, _port(port, settings))
    try:
        answer = await wallets.activate(client, reference, code, _fresh_key)
    finally:
        await client.close()
    return f"0630 {answer}"


def _fresh_key() -> tuple[str, str]:
    """A random STAN and the transmission time now: one-off messages of the CLI."""
    return f"{uuid.uuid4().int % 999_999 + 1:06d}", transmitted_now()


@network.command(name="run")
@click.option(
    "--seed",
    type=click.INT,
    default=1,
    show_default=True,
    help="The traffic's random seed (the same seed, the same traffic).",
)
@click.option(
    "--seconds", type=click.FLOAT, default=10.0, show_default=True, help="How long to send traffic."
)
@click.option(
    "--faults",
    type=Parsed("faults", _faults),
    help=f"Faults to inject, comma-separated, of: {', '.join(simulator.FAULTS)}; or all "
    "(default: none).",
)
@click.option(
    "--connections",
    type=click.INT,
    default=4,
    show_default=True,
    help="Connections to the listener, each with its own traffic.",
)
# the clearing file: docs/network.md#clearing-files
@click.option(
    "--clearing-file",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    help="Write the run's IPM clearing file here at the end (the `clearing` fault adds amount"
    " differences, reversed authorizations and unknown cards).",
)
@_endpoint
@runs
async def run(
    settings: Settings, seed: int, seconds: float, faults: set[str] | None, connections: int,
    clearing_file: Path | None, host: str | None, port: int | None,
) -> str:  # fmt: skip
    """Seeded traffic with faults; checks the bookkeeping.

    Prints its findings as JSON; when a check fails, prints them on stderr and exits 2.
    With --clearing-file, ends by writing the run's clearing file (ingest it with
    `cardservice clearing ingest FILE`). Runs only where the sandbox is on: it makes its own
    user, account, funding and cards, which a production database must never hold."""
    if not settings.sandbox_enabled:
        raise CommandError(
            "network run writes a user, funding and cards of its own: it runs only where the "
            "sandbox is on (CARDSERVICE_SANDBOX=1), and this one is off; nothing was written"
        )
    parts = runtime.build(settings)
    db, cipher = parts.db, parts.cipher
    try:
        found = await simulator.run(
            db, cipher, host or settings.iso8583_host, _port(port, settings), seed=seed,
            seconds=seconds, faults=faults or set(), connections=connections,
            clearing_file=clearing_file,
        )  # fmt: skip
    finally:
        await parts.aclose()
    if not found["ok"]:
        raise SimulationFailed(orjson.dumps(found).decode())
    return orjson.dumps(found, option=orjson.OPT_INDENT_2).decode()


class SimulationFailed(Exception):
    pass


@network.command(name="represent")
@click.argument(
    "outgoing",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="OUTGOING_FILE",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    required=True,
    help="Where to write the incoming IPM file of second presentments.",
)
@click.option(
    "--share",
    type=click.FloatRange(0, 1),
    default=0.5,
    show_default=True,
    help="The share of the chargebacks the merchants answer.",
)
@click.option(
    "--seed", type=click.INT, default=1, show_default=True, help="The draw's random seed."
)
@click.option(
    "--pre-arbitration",
    type=click.Choice(["accept", "decline"]),
    default=None,
    help="Answer each pre-arbitration (451) of the file so (default: leave them unanswered).",
)
def represent_command(
    outgoing: Path, out: Path, share: float, seed: int, pre_arbitration: str | None
) -> None:
    """Answer the issuer's outgoing file OUTGOING_FILE as an acquirer would: an IPM file of
    second presentments for SHARE of its chargebacks, and with --pre-arbitration the answer
    to each 451 (ingest it with `cardservice clearing ingest`); prints how many messages it
    holds (docs/disputes.md)."""
    click.echo(representments.represent(outgoing, out, share, seed, pre_arbitration))

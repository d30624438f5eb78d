"""`cardservice network send|run`: the network simulator on the command line (API.md §14)."""

from __future__ import annotations

import argparse
import uuid
from typing import Any

import orjson

from cardservice import cli_types
from cardservice.config import Settings
from cardservice.db import Database
from cardservice.ledger.money import from_minor
from cardservice.network import messages, simulator
from cardservice.network.client import NetworkClient, transmitted_now
from cardservice.network.codec import Message
from cardservice.network.fields import CURRENCIES
from cardservice.network.repository import SEND_CARD
from cardservice.security import CardCipher

MTI = {
    "authorization": "0100", "stand-in": "0120", "capture": "0220", "reversal": "0400",
    "refund": "0220",
}  # fmt: skip
STAND_IN_REVERSAL = "0420"  # a stand-in's reversal is an advice too


def _original(text: str) -> tuple[str, str]:
    """`STAN/MMDDhhmmss`, as `send` prints an authorization's key."""
    stan, _, sent = text.partition("/")
    if not (stan.isdigit() and len(stan) <= 6 and sent.isdigit() and len(sent) == 10):
        raise argparse.ArgumentTypeError("the original's key: STAN/MMDDhhmmss, as send prints it")
    return stan.rjust(6, "0"), sent


def _faults(text: str) -> set[str]:
    chosen = set(simulator.FAULTS) if text == "all" else {f for f in text.split(",") if f}
    unknown = chosen - set(simulator.FAULTS)
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown faults {sorted(unknown)}; choose of {simulator.FAULTS} or all"
        )
    return chosen


def _port(args: argparse.Namespace, settings: Settings) -> int:
    port = args.port or settings.iso8583_port
    if port is None:
        raise argparse.ArgumentTypeError("give --port (or set CARDSERVICE_ISO8583_PORT)")
    return int(port)


async def _card(settings: Settings, card_uuid: uuid.UUID) -> tuple[str, str]:
    """A card's number and expiry, read from the service's database (a demo on one machine)."""
    db, cipher = Database(settings), CardCipher.from_settings(settings)
    try:
        row = await db.reader.row(SEND_CARD, card_uuid)
    finally:
        await db.dispose()
    if row is None:
        raise argparse.ArgumentTypeError(f"no card {card_uuid}")
    expiry = f"{row['expiry_year'] % 100:02d}{row['expiry_month']:02d}"
    return cipher.decrypt(bytes(row["pan_ciphertext"])), expiry


def _fields(
    args: argparse.Namespace, pan: str, expiry: str, stan: str, sent: str
) -> dict[int, str]:
    original = None
    original_mti = getattr(args, "original_mti", None) or "0100"
    if args.type not in ("authorization", "stand-in"):
        if args.original is None and not (args.type == "refund"):
            raise argparse.ArgumentTypeError(
                f"a {args.type} names its original: --original STAN/TIME"
            )
        if args.original is not None:
            original = messages.authorization(
                pan, expiry, args.amount, *args.original, currency=args.currency
            )
    if args.type == "stand-in":
        return messages.stand_in(pan, expiry, args.amount, stan, sent, currency=args.currency)
    if args.type == "authorization":
        return messages.authorization(pan, expiry, args.amount, stan, sent, currency=args.currency,
                                      merchant=args.merchant, cvv2=args.cvv2)  # fmt: skip
    if args.type == "capture":
        assert original is not None
        return messages.capture(
            original, args.amount, stan, sent, more=args.more, original_mti=original_mti
        )
    if args.type == "reversal":
        assert original is not None
        return messages.reversal(original, stan, sent, stays=args.stays, original_mti=original_mti)
    return messages.refund(
        pan, args.amount, stan, sent, original=original, currency=args.currency,
        original_mti=original_mti,
    )  # fmt: skip


def mti_of(args: argparse.Namespace) -> str:
    """The request's MTI: a reversal of a stand-in (`--original-mti 0120`) is an 0420."""
    if args.type == "reversal" and getattr(args, "original_mti", None) == "0120":
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


async def _send(args: argparse.Namespace, settings: Settings) -> str:
    """Send one message and print the answer."""
    if args.card_uuid is not None:
        pan, expiry = await _card(settings, args.card_uuid)
    elif args.pan and args.expiry:
        pan, expiry = args.pan, args.expiry
    else:
        raise argparse.ArgumentTypeError("give --card-uuid, or --pan and --expiry")
    stan, sent = f"{uuid.uuid4().int % 999_999 + 1:06d}", transmitted_now()
    fields = _fields(args, pan, expiry, stan, sent)
    client = await NetworkClient.connect(args.host or settings.iso8583_host, _port(args, settings))
    try:
        answer = await client.request(mti_of(args), fields)
    finally:
        await client.close()
    return describe(answer, stan, sent)


async def _run(args: argparse.Namespace, settings: Settings) -> str:
    """Seeded traffic with faults; prints its findings as JSON, exits 1 when a check fails."""
    db, cipher = Database(settings), CardCipher.from_settings(settings)
    try:
        found = await simulator.run(
            db, cipher, args.host or settings.iso8583_host, _port(args, settings), seed=args.seed,
            seconds=args.seconds, faults=args.faults, connections=args.connections,
        )  # fmt: skip
    finally:
        await db.dispose()
    if not found["ok"]:
        raise SimulationFailed(orjson.dumps(found).decode())
    return orjson.dumps(found, option=orjson.OPT_INDENT_2).decode()


class SimulationFailed(Exception):
    pass


def register(sub: Any) -> None:
    """Add `network send|run` to the CLI."""
    network = sub.add_parser("network", help="an ISO 8583 network simulator (acquirer side)")
    commands = network.add_subparsers(dest="network", required=True)
    send = commands.add_parser(
        "send", help="one authorization, stand-in advice, capture, reversal or refund"
    )
    send.add_argument("--type", choices=tuple(MTI), default="authorization")
    send.add_argument("--card-uuid", type=uuid.UUID, help="a card of this service's database")
    send.add_argument("--pan", help="a card number (instead of --card-uuid)")
    send.add_argument("--expiry", help="YYMM, with --pan")
    send.add_argument("--amount", type=cli_types.amount, required=True, help="e.g. 12.50")
    send.add_argument("--currency", default="USD")
    send.add_argument("--merchant", default="Netflix")
    send.add_argument("--cvv2")
    send.add_argument("--original", type=_original, help="the original's key STAN/MMDDhhmmss")
    send.add_argument(
        "--original-mti", choices=("0100", "0120"), default="0100",
        help="the original's MTI: 0120 for a stand-in advice's follow-ups",
    )  # fmt: skip
    send.add_argument("--more", action="store_true", help="a capture with more to follow (48.60)")
    send.add_argument(
        "--stays", type=cli_types.amount, help="a partial reversal: what stays authorized"
    )
    send.set_defaults(handler=_send)
    run = commands.add_parser("run", help="seeded traffic with faults; checks the bookkeeping")
    run.add_argument("--seed", type=int, default=1)
    run.add_argument("--seconds", type=float, default=10.0)
    run.add_argument(
        "--faults", type=_faults, default=set(), help=f"{','.join(simulator.FAULTS)} or all"
    )
    run.add_argument("--connections", type=int, default=4)
    run.set_defaults(handler=_run)
    for parser in (send, run):
        parser.add_argument("--host", help="default CARDSERVICE_ISO8583_HOST")
        parser.add_argument("--port", type=int, help="default CARDSERVICE_ISO8583_PORT")

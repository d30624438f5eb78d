"""`cardservice mail in-doubt` and `cardservice mail settle UUID --taken|--not-taken`: the
mails whose SMTP `DATA` went out without an answer, which the loop never sends again
(docs/mail.md#delivery); the operator reads the SMTP server's log for their `Message-ID`
and settles each."""

from __future__ import annotations

import uuid

import click

from cardservice import runtime
from cardservice.cli.arguments import runs
from cardservice.config import Settings
from cardservice.mail.service import mails_in_doubt, settle_in_doubt
from cardservice.models.base import utcnow


@click.group(name="mail")
def mail() -> None:
    """Mail to people (docs/mail.md)."""


@mail.command(name="in-doubt")
@runs
async def in_doubt(settings: Settings) -> str:
    """One line per mail in doubt: uuid, kind, recipient (user uuid), attempts, queued at,
    `held` when an attempt may still get its answer, and the last error; then `N in doubt`."""
    db = runtime.database(settings)
    try:
        mails = await mails_in_doubt(db.reader)
    finally:
        await db.dispose()
    lines = [
        f"{m['uuid']} {m['kind']} {m['user_uuid']} attempts={m['attempts']}"
        f" queued={m['created_at']:%Y-%m-%dT%H:%M:%SZ}{' held' if m['held'] else ''}"
        f" {m['last_error'] or ''}".rstrip()
        for m in mails
    ]
    return "\n".join([*lines, f"{len(mails)} in doubt"])


@mail.command(name="settle")
@click.argument("mail_uuid", type=click.UUID)
@click.option(
    "--taken/--not-taken",
    required=True,
    help="the SMTP server's log shows the Message-ID taken (sent) or not (send it again)",
)
@runs
async def settle(settings: Settings, mail_uuid: uuid.UUID, taken: bool) -> str:
    """Settle the mail in doubt MAIL_UUID (from `cardservice mail in-doubt`): `--taken` marks
    it sent; `--not-taken` sends it again (once, the same Message-ID)."""
    db = runtime.database(settings)
    try:
        await settle_in_doubt(db, mail_uuid, taken, utcnow())
    finally:
        await db.dispose()
    return f"{mail_uuid} {'sent' if taken else 'pending'}"

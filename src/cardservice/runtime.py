"""The composition root: the one place a process's runtime is built.

`build(settings)` makes what every process that serves or writes needs — the `Database`
with its commit hooks, the background loop's jobs, the card-number cipher, the outbound
HTTP client — and `create_app` (app.py), the CLI (cli/) and the network's processes
(network/process.py) call it; a command that needs only the database calls `database`,
the same database `build` makes. Nothing registers itself at import time: the hooks and the
jobs are listed here, and given to the `Database` and to the background loop
(`webhooks.worker.running_worker`) as arguments (docs/architecture.md#the-composition-root).
"""

from __future__ import annotations

from dataclasses import dataclass

from cardservice.config import Settings
from cardservice.db.database import CommitHook, Database, NumberedHook
from cardservice.dictionaries import TAG_COUNT_JOB
from cardservice.disputes import DISPUTE_SWEEP_JOB
from cardservice.events import complete_events
from cardservice.infra.background import Job
from cardservice.infra.outbound import Outbound
from cardservice.ledger.sealer import SEAL_JOB
from cardservice.mail.queue import queue_for_events as queue_mails
from cardservice.mail.service import MAIL_PRUNE_JOB
from cardservice.security import CardCipher
from cardservice.teams import RECEIPT_POLICY_JOB
from cardservice.topups import TOPUP_SWEEP_JOB
from cardservice.transactions import HOLD_SWEEP_JOB

COMMIT_HOOKS: tuple[CommitHook, ...] = (
    # the outbox: a unit's pending events filled with their objects' records (docs/events.md)
    complete_events,
)
JOBS: tuple[Job, ...] = (
    SEAL_JOB,  # the ledger's sealer (docs/ledger.md, "The hash chain")
    TAG_COUNT_JOB,  # the tags' counter (docs/ledger.md, "Counters kept after commit")
    HOLD_SWEEP_JOB,  # the expired holds' release
    TOPUP_SWEEP_JOB,  # the unpaid top-ups' sweep (docs/operations.md#running-a-program)
    # the teams' receipt policies (docs/teams.md#teams-budgets-requests-receipts)
    RECEIPT_POLICY_JOB,
    DISPUTE_SWEEP_JOB,  # unanswered chargebacks won at their deadline (docs/disputes.md)
    MAIL_PRUNE_JOB,  # the mails kept past their retention (docs/mail.md#delivery)
)


@dataclass(frozen=True, slots=True)
class Runtime:
    """One process's parts; `aclose` releases the database's connections and the client's."""

    settings: Settings
    db: Database
    cipher: CardCipher
    outbound: Outbound
    jobs: tuple[Job, ...]

    async def aclose(self) -> None:
        try:
            await self.db.dispose()
        finally:
            await self.outbound.aclose()


def database(settings: Settings) -> Database:
    """The database of `settings`, with every commit hook of the service, and the mail
    queue's hook on the unit that numbers events when mail is set up (docs/mail.md)."""
    numbered: tuple[NumberedHook, ...] = (queue_mails,) if settings.smtp_url else ()
    return Database(settings, commit_hooks=COMMIT_HOOKS, numbered_hooks=numbered)


def build(settings: Settings) -> Runtime:
    """The runtime of one process: its database (with its commit hooks), card cipher,
    outbound client and background jobs."""
    cipher = CardCipher.from_settings(settings)
    return Runtime(settings, database(settings), cipher, Outbound(), JOBS)

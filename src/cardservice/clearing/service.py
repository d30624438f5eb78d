"""Ingesting a clearing file (docs/network.md#clearing-files), whichever channel hands it in (`POST
/operator/clearing-files`, `cardservice clearing ingest FILE`).

1. The file's id (PDS 0105 of its header) and SHA-256 are looked up: an id booked already
   with the same bytes answers its first report and moves nothing; with other bytes the file
   is refused. A file whose booking stopped half-way (a crash) is booked on from where it
   stopped. All of it under the file id's lock (`Database.held`): a second ingest of the
   same file waits for the first, then answers its report.
2. Staging: the file is read record by record (`clearing.ipm`, in a worker thread, a batch at
   a time) and every presentment is written to `clearing_records`, without its card number
   (its fingerprint only). Header, trailer and count are checked as it goes; a file found
   bad is refused whole and its staged rows deleted: no money moved.
3. Booking, in units of records (`clearing.booking`): the records of one account are booked
   in file order by one worker, the accounts spread over a few workers (one on SQLite, whose
   writer is one); each worker's records are cut into units of `UNIT_RECORDS` as they are
   read. A unit reads what its records name together, decides each record once through its
   money entry, writes the outcomes together and commits once; a record an entry refuses
   is booked as an exception of the report in the unit's next run, its neighbours as before.
4. The report is built from the records' outcomes and kept with the file, in the unit that
   also writes the ingest's audit row and its `clearing_file.ingested` event.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from cardservice.clearing import ipm, repository, seconds
from cardservice.clearing.booking import RecordRefused, Refused, SetRefused, book_records
from cardservice.clearing.report import report_of, stored_report
from cardservice.db.database import Database
from cardservice.db.sql import Row, Tx
from cardservice.errors import RuleViolation
from cardservice.events import record_operator_event
from cardservice.models.base import utcnow
from cardservice.network.fields import CURRENCIES
from cardservice.operator import Acting
from cardservice.security import CardCipher

MAX_BYTES = 50 * 1024 * 1024  # the largest file taken (docs/network.md#clearing-files)
STAGE_BATCH = 500  # presentments read and written per unit while staging
BOOK_BATCH = 1000  # records read per query while booking
WORKERS = 4  # booking units side by side (PostgreSQL)
QUEUED_UNITS = 4  # units waiting per worker
UNIT_RECORDS = 50  # records booked in one unit at most
FILE_ID_LENGTH = 64  # the longest file id kept (clearing_files.file_id)
LOCK_PREFIX = "clearing file "  # + the file id: the name of an ingest's lock (Database.held)


class ClearingFileInvalid(RuleViolation):
    code, message = "clearing_file_invalid", "The clearing file cannot be booked."


@dataclass(frozen=True, slots=True)
class Clearing:
    """What ingesting needs: the database and the cipher (card fingerprints)."""

    db: Database
    cipher: CardCipher


@dataclass(frozen=True, slots=True)
class Ingested:
    report: dict[str, Any]
    created: bool  # False: the same file again, answered with its first report


def sha256_of(file: IO[bytes]) -> str:
    """The SHA-256 of a file's bytes (read in blocks; the file is rewound)."""
    digest = hashlib.sha256()
    file.seek(0)
    while block := file.read(1 << 20):
        digest.update(block)
    file.seek(0)
    return digest.hexdigest()


def _file_id(file: IO[bytes]) -> str:
    """PDS 0105 of the header, the file's first message."""
    try:
        first = next(ipm.messages(file), None)
    except ipm.Unreadable as error:
        raise ClearingFileInvalid(f"The file is not an IPM file: {error}.") from None
    finally:
        file.seek(0)
    if first is None or not ipm.is_header(first) or not first.get(ipm.FILE_ID):
        raise ClearingFileInvalid("The file has no header (1644, DE 24 697, PDS 0105).")
    file_id = str(first[ipm.FILE_ID]).strip()
    if len(file_id) > FILE_ID_LENGTH:
        raise ClearingFileInvalid(
            f"The file id (PDS 0105) has {len(file_id)} characters, at most {FILE_ID_LENGTH}."
        )
    return file_id


async def ingest(clearing: Clearing, file: IO[bytes], by: Acting) -> Ingested:
    """Book a clearing file once (the module's steps); its report. `ClearingFileInvalid`
    when it is refused (nothing moved). One ingest of a file id at a time, across processes
    (`Database.held`): a second one waits for the first to end, then answers as the same
    file sent again does; a file found `staging` or `booking` under the lock is one whose
    ingest died, and is staged again or booked on."""
    sha256 = sha256_of(file)
    file_id = _file_id(file)
    db = clearing.db
    async with db.held(f"{LOCK_PREFIX}{file_id}"):  # read from the primary, never a standby
        found = await db.transact(lambda tx: repository.file_by_id(tx, file_id))
        if found is None:
            file_uuid = uuid.uuid4()
            await db.transact(lambda tx: repository.claim(tx, file_uuid, file_id, sha256, utcnow()))
        else:
            if found["sha256"] != sha256:
                raise ClearingFileInvalid(
                    f"File id {file_id} was ingested before with other bytes."
                )
            if found["status"] == "booked":
                return Ingested(stored_report(found), created=False)
            file_uuid = uuid.UUID(str(found["uuid"]))
        if found is None or found["status"] == "staging":
            await _stage(clearing, file, file_uuid, keep_file=found is not None)
        await _book(clearing, file_uuid)
        return Ingested(await _finish(db, file_uuid, by), created=True)


@dataclass
class _Reading:
    """The file read so far: messages, presentments, what they must still satisfy."""

    file_uuid: uuid.UUID
    messages: int = 0
    ignored: int = 0
    last_number: int = 0
    trailer: dict[str, Any] | None = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    texts: dict[int, str] = field(default_factory=dict)  # DE 72 of the dispute's records

    def take(self, message: dict[str, Any], cipher: CardCipher) -> None:
        """One message, in file order (`Unreadable` when it breaks the file's shape)."""
        self.messages += 1
        if self.trailer is not None:
            raise ipm.Unreadable("messages follow the trailer")
        if self.messages == 1:
            return  # the header, read before
        if ipm.is_header(message):
            raise ipm.Unreadable(f"message {self.messages} is a second header")
        if ipm.is_trailer(message):
            self.trailer = message
        elif ipm.is_presentment(message):
            self.rows.append(self._row(ipm.presentment(message), cipher))
        elif ipm.is_second_presentment(message):
            self.rows.append(self._second(ipm.second_presentment(message), cipher))
        elif ipm.is_pre_arbitration_answer(message):
            self.rows.append(self._second(ipm.pre_arbitration_answer(message), cipher))
        else:
            self.ignored += 1

    def _in_order(self, number: int) -> None:
        if number <= self.last_number:
            raise ipm.Unreadable(f"message number {number} out of order")
        self.last_number = number

    def _second(
        self, item: ipm.SecondPresentment | ipm.PreArbitrationAnswer, cipher: CardCipher
    ) -> dict[str, Any]:
        self._in_order(item.message_number)
        if item.text:
            self.texts[item.message_number] = item.text
        return seconds.staged_row(self.file_uuid, item, cipher)

    def _row(self, item: ipm.Presentment, cipher: CardCipher) -> dict[str, Any]:
        self._in_order(item.message_number)
        return {
            "file_uuid": self.file_uuid, "message_number": item.message_number,
            "kind": "refund" if item.refund else "atm" if item.atm else "purchase",
            "fingerprint": cipher.fingerprint(item.pan), "amount": item.amount,
            "currency": CURRENCIES.get(item.currency, item.currency),
            "approval_code": item.approval_code, "arn": item.arn,
            "merchant_name": (item.merchant_name or "")[:255] or None,
            "merchant_city": (item.merchant_city or "")[:255] or None,
            "merchant_country": item.merchant_country, "merchant_id": item.merchant_id,
            "mcc": item.mcc,
        }  # fmt: skip

    def check_end(self) -> None:
        if self.trailer is None:
            raise ipm.Unreadable("the file has no trailer (1644, DE 24 695)")
        count = str(self.trailer.get(ipm.MESSAGE_COUNT, "")).strip()
        if not count.isdigit() or int(count) != self.messages:
            raise ipm.Unreadable(
                f"the trailer counts {count or 'no'} messages (PDS 0306), the file has "
                f"{self.messages}"
            )


def _read_batch(messages: Iterator[dict[str, Any]], reading: _Reading, cipher: CardCipher) -> bool:
    """Read up to `STAGE_BATCH` presentments into `reading.rows`; False at the file's end."""
    for message in messages:
        reading.take(message, cipher)
        if len(reading.rows) >= STAGE_BATCH:
            return True
    return False


async def _stage(
    clearing: Clearing, file: IO[bytes], file_uuid: uuid.UUID, keep_file: bool
) -> None:
    """Read and check the whole file, writing its presentments; refused whole when bad."""
    db, reading = clearing.db, _Reading(file_uuid)
    if keep_file:  # staging that stopped half-way: start again
        await db.transact(lambda tx: repository.forget_staged(tx, file_uuid, keep_file=True))
    messages = ipm.messages(file)
    try:
        more = True
        while more:
            more = await asyncio.to_thread(_read_batch, messages, reading, clearing.cipher)
            rows, reading.rows = reading.rows, []
            texts, reading.texts = reading.texts, {}
            if rows:
                await db.transact(
                    lambda tx, rows=rows, texts=texts: _stage_rows(tx, file_uuid, rows, texts)  # type: ignore[misc]
                )
        reading.check_end()
    except ipm.Unreadable as error:
        await db.transact(lambda tx: repository.forget_staged(tx, file_uuid, keep_file=False))
        raise ClearingFileInvalid(f"The clearing file is refused: {error}.") from None
    await db.transact(
        lambda tx: repository.staged(tx, file_uuid, reading.messages, reading.ignored)
    )


async def _stage_rows(
    tx: Tx, file_uuid: uuid.UUID, rows: list[dict[str, Any]], texts: dict[int, str]
) -> None:
    await repository.stage(tx, rows)
    await repository.keep_texts(tx, file_uuid, texts)


async def _book_unit(clearing: Clearing, file_uuid: uuid.UUID, records: Sequence[Row]) -> None:
    """A unit of records booked in one unit of work, one COMMIT. A record an entry refuses
    rolls the unit back, and it is booked again with that record as an exception (its
    neighbours as before: a refusal never undoes them); force posts refused as a set roll it
    back too, and it is booked again one force post at a time, which names the record."""
    refused: dict[int, Refused] = {}
    one_at_a_time = False
    while True:
        try:
            await clearing.db.transact(
                functools.partial(
                    book_records,
                    file_uuid=file_uuid,
                    records=records,
                    refused=refused,
                    one_at_a_time=one_at_a_time,
                )
            )
            return
        except RecordRefused as refusal:
            refused[refusal.record_id] = refusal.refusal
        except SetRefused:  # a set written together: again one at a time
            one_at_a_time = True


async def _worker(
    clearing: Clearing, file_uuid: uuid.UUID, queue: asyncio.Queue[list[Row] | None]
) -> None:
    """Book the queue's units in their order until None."""
    while (records := await queue.get()) is not None:
        await _book_unit(clearing, file_uuid, records)


async def _book(clearing: Clearing, file_uuid: uuid.UUID) -> None:
    """Every record not booked yet, in units of `UNIT_RECORDS`. A card's records go to one
    worker, in file order, and so do all the cards of one account (their units lock it: two
    workers never wait on one another's account); accounts are given to the workers in turn
    as they first appear. Each worker's records are cut into units as they are read, a few
    units queued ahead (memory stays flat whatever the file's size)."""
    db = clearing.db
    count = 1 if db.is_sqlite else WORKERS
    queues: list[asyncio.Queue[list[Row] | None]] = [
        asyncio.Queue(QUEUED_UNITS) for _ in range(count)
    ]
    workers = [asyncio.create_task(_worker(clearing, file_uuid, q)) for q in queues]
    pending: list[list[Row]] = [[] for _ in range(count)]
    accounts: dict[str, str] = {}  # by fingerprint
    lanes: dict[str, int] = {}  # by account: in turn as they first appear
    try:
        after = 0
        while rows := await repository.records_to_book(db.reader, file_uuid, after, BOOK_BATCH):
            new = {str(record["fingerprint"]) for record in rows} - accounts.keys()
            accounts.update(await repository.accounts_of(db.reader, new))
            for record in rows:
                lane = lanes.setdefault(accounts[str(record["fingerprint"])], len(lanes) % count)
                pending[lane].append(record)
                if len(pending[lane]) >= UNIT_RECORDS:
                    await queues[lane].put(pending[lane])
                    pending[lane] = []
            after = int(rows[-1]["id"])
        for queue, rest in zip(queues, pending, strict=True):
            if rest:
                await queue.put(rest)
            await queue.put(None)
        await asyncio.gather(*workers)
    finally:
        for worker in workers:
            worker.cancel()


async def _finish(db: Database, file_uuid: uuid.UUID, by: Acting) -> dict[str, Any]:
    """The report, kept with the file, the audit row of the ingest and its
    `clearing_file.ingested` event (the report: counts, totals, exceptions, never a card
    number; docs/events.md#the-operators-own-events) — once, by the ingest that books it."""
    file = await repository.file_row(db.reader, file_uuid)
    assert file is not None
    report = await report_of(db.reader, file)

    async def unit(tx: Tx) -> None:
        if not await repository.booked(tx, file_uuid, report.stored):
            return  # booked by another ingest of the same file, which told it
        await by.record(
            tx, "clearing_file.ingest", "clearing_file", file_uuid,
            {"file_id": file["file_id"], "sha256": file["sha256"]},
        )  # fmt: skip
        await record_operator_event(
            tx, "clearing_file.ingested", "clearing_file", file_uuid, report.data, utcnow()
        )

    await db.transact(unit)
    return report.data


async def clearing_file(db: Database, file_uuid: uuid.UUID) -> dict[str, Any] | None:
    """A booked file's report, or None."""
    row = await repository.file_row(db.reader, file_uuid)
    return None if row is None or row["status"] != "booked" else stored_report(row)


async def clearing_files(db: Database, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
    """A page of the booked files' reports, newest first, and how many there are."""
    rows, total = await repository.page(db.reader, limit, offset)
    return [stored_report(row) for row in rows], total

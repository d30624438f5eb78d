"""Authorizations waiting at the same moment in a network process are booked together, in
one unit — those of one account and those of different accounts of one lane
(docs/performance.md#lanes-requests-of-several-accounts-in-one-unit).

Every unit of an account holds the account's row lock from its first statement to the end
of its COMMIT, and every unit waits for its COMMIT's WAL flush. Here the requests queue in
the process instead, in `LANES` lanes: a group (the account, once this process has seen the
number's card; the number itself before) takes the next lane in turn when the process first
sees it and keeps it, so no two lanes of a process ever want the same account. A lane's
first request runs alone at once, and what arrives in the lane meanwhile — of any of its
accounts — runs as one unit when it ends: one statement reads what every request's first
step reads (`repository.locked_cards_and_keys`: all their accounts locked, then all their
cards, in uuid order, docs/ledger.md#lock-order; the keys, the guard's rows), then each
request's own work one after the other in that order (the numbers of no card last), one
COMMIT flushed for all of them — while the next arrivals queue for the unit after. Their
entries and keys are written in the COMMIT's round trip, one statement each for all of them
(docs/ledger.md, "Entries written together"), so a unit of N requests of N accounts is
`BEGIN`, that statement and the `COMMIT`, whatever N; and a lane's units run on one
connection (`Database.chained`) whose COMMIT begins the next unit's transaction when
requests queued meanwhile or the unit booked several (a lane under load: the next requests
arrive while it commits, and would otherwise pay a `BEGIN` of their own; a lone unit's
connection is left out of any transaction when it ends; such a transaction may begin before
its requests arrive, which nothing reads: every row's time is the clock's, never `now()`):
two round trips a unit under load.
Measured with `bench.iso --scaling --seconds 8 --rounds 3 --against` a checkout that began
the next unit only for requests already queued (2026-11-28, load 3.9–5.9): 8 connections
441.5 against 381.6 a second, 0.66 + 0.685 against 0.734 + 0.799 ms of CPU an approval
(server + database); a trace of the lane without it had half its units (257 of 500) send
their own `BEGIN`. A later request of an
account already in the unit reads its own first statement, after the earlier ones moved
its balances (their entries written just before it).
Nothing waits for a batch to fill: a request alone runs as soon as its lane is free — but
after a unit of several, which waits a share of that unit for those it answered to come back
while they do (`Batches._drain`); and a unit closes early, leaving the rest to the next, when
one more request at its pace so far would end its COMMIT after the earliest deadline in it.

`LANES` trades the database's parallelism (a process has at most `LANES` units open, each
request's work one after the other in its lane's unit) against what a unit shares (fewer
lanes: larger units, their round trips, statements and flush shared by more requests);
`serve --workers N` runs N network processes, so N × `LANES` units at most. With a unit's
writes in its COMMIT's round trip, one lane costs the fewest CPU an approval and answers the
most: `CARDSERVICE_BENCH_PG=… python -m bench.iso --scaling --seconds 8 --rounds 2 --against
<a checkout with LANES = 2>` (16 accounts, one request in flight on each of 8 connections,
the two servers' loads interleaved; 2026-11-28, quiet) gave 893.8 against 818.6 a second and
1.20 against 1.57 ms of CPU an approval (server and database); at load 2.7–3.8 788 against
556; 4 lanes cost more still (docs/performance.md#lanes-requests-of-several-accounts-in-one-unit).
A unit that waits (a row lock another process holds) holds its lane's other requests: units
are a few milliseconds, and the answer deadline still bounds each request.

Units of two processes lock their accounts in one order, so they never wait on each other
in a cycle there; what a request may take after its account and card (a team member's budget
row, the card-testing guard's merchant row: docs/ledger.md#lock-order) can still meet another
process's unit in a cycle: PostgreSQL aborts one unit and `db.transact` runs it again whole,
as any deadlocked unit (tests/network/test_lanes.py).

Each request keeps its own answer, its own message key (exactly once: its row is written
with the unit's COMMIT, as alone) and its own deadline:
- a request whose deadline passed while it queued is not run (answered `91`: nothing
  recorded, as alone);
- the card-testing guard's block of a merchant and lock of a BIN are read as of the unit's
  first statement, as units side by side read them (the guard's counts, and the answers
  they decide, are taken under their rows' locks, request by request);
- the unit runs outside any one request's deadline (it books the others), so a request whose
  deadline passes during it is recorded and then released as an approval committed late is
  (`authorizations._release_late`);
- a refusal is recorded, never raised, so it undoes no neighbour; when any request's work
  raises (another unit took its key, the database went away, a deadlock met again and again)
  the unit rolls back whole and every request of it runs again alone, in its own unit under
  its own deadline: the unit did nothing outside the database, as every unit
  (docs/ledger.md, "One path for every write").
"""

from __future__ import annotations

import asyncio
import contextvars
import uuid
from collections.abc import Awaitable, Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardservice.db import deadlines
from cardservice.db.database import Database
from cardservice.db.deadlines import AnsweredAlready, Deadline
from cardservice.db.sql import Tx
from cardservice.network import repository
from cardservice.network.repository import Opening

LARGEST = 32  # requests a unit at most: the lock is held for their work one after the other
GROUPS_KEPT = 100_000  # groups whose lane is remembered (then forgotten, all at once)
LANES = 1  # units a process has open at most (measured: the docstring)
# how long a lane's drain keeps its connection (and its task) once nothing is queued, for the
# next request: docs/performance.md#a-units-fixed-python
LINGER_SECONDS = 0.05
# how long, as a share of the unit that just ended, a lane waits for the requests it answered
# to come back before it runs what queued, and never longer than a lone unit (`_gathering`):
# half, measured against a quarter and the whole (docs/performance.md#a-lane-gathers-its-requests)
GATHER = 0.5
RETURNING = 0.5  # the share of answered requests coming back below which a lane does not wait

T = TypeVar("T")
Work = Callable[[Tx], Awaitable[Any]]


@dataclass(slots=True)
class _Request:
    work: Work
    order: tuple[int, str]  # its group's place in the lock order (`_order`)
    deadline: Deadline | None
    done: asyncio.Future[Any]
    opening: Opening | None  # what its first statement reads, read with its neighbours'
    arrived: float  # the loop's time when it queued

    def answered(self) -> bool:
        """Its channel has answered for it (`91`): run nothing more of it."""
        return self.deadline is not None and self.deadline.missed


@dataclass(slots=True)
class Batches:
    """The queue of each lane in this process, and the task draining it."""

    _queued: dict[int, list[_Request]] = field(default_factory=dict)
    _lanes: dict[tuple[int, str], int] = field(default_factory=dict)  # each group's, in turn
    _draining: set[asyncio.Task[None]] = field(default_factory=set)
    # drains waiting for requests: each wakes once its lane's queue holds that many
    _waiting: dict[int, tuple[asyncio.Future[None], int]] = field(default_factory=dict)
    _lone: dict[int, float] = field(default_factory=dict)  # a lone unit's seconds, each lane's
    # the last unit of several of each lane: when it ended, how many it answered, the window
    _ended: dict[int, tuple[float, int, float]] = field(default_factory=dict)
    _returning: dict[int, float] = field(default_factory=dict)  # the share that came back

    async def transact(
        self,
        db: Database,
        group: Hashable,
        work: Callable[[Tx], Awaitable[T]],
        opening: Opening | None = None,
    ) -> T:
        """`work` in a unit of `group`'s lane, alone or with what queued beside it; its
        result once that unit committed (or its error). `opening`: what `work`'s first
        statement reads, which a unit of several reads for all of them in one statement."""
        loop = asyncio.get_running_loop()
        order = _order(group)
        request = _Request(
            work, order, deadlines.current(), loop.create_future(), opening, loop.time()
        )
        lane = self._lane(order)
        queue = self._queued.get(lane)
        if queue is not None:
            queue.append(request)
            waiting = self._waiting.get(lane)
            if waiting is not None and len(queue) >= waiting[1]:
                del self._waiting[lane]  # the lane's drain waits for these: wake it
                if not waiting[0].done():
                    waiting[0].set_result(None)
        else:
            self._queued[lane] = [request]
            # its own context: the drain books other requests too, under no one's deadline
            drain = loop.create_task(self._drain(db, lane), context=contextvars.Context())
            self._draining.add(drain)
            drain.add_done_callback(self._draining.discard)
        done: T = await asyncio.shield(request.done)  # the unit goes on whatever befalls a caller
        return done

    def _lane(self, order: tuple[int, str]) -> int:
        """A group's lane: the next in turn when first seen (an even spread), the same after."""
        if (lane := self._lanes.get(order)) is None:
            if len(self._lanes) >= GROUPS_KEPT:
                self._lanes.clear()  # a group queued meanwhile may meet itself in two lanes:
            lane = self._lanes[order] = len(self._lanes) % LANES  # both lock in one order
        return lane

    async def _drain(self, db: Database, lane: int) -> None:
        """Unit after unit of what queued, on one connection: a unit's COMMIT begins the next
        unit's transaction when requests queued meanwhile or the unit booked several
        (`Database.chained`; the module's docstring says why).

        A unit that answered several requests is followed by a short wait until what queued
        meanwhile and as many again as it answered are queued (`_wanted`: no more than the
        accounts among them), for at most `GATHER` of the unit's own time and no longer than
        a lone unit of the lane takes (`_gathering`): under load those answered come back
        (connections answered together send again together), and without the wait the lane's
        requests settled into cohorts that took turns, each a unit of its own paying a unit's
        fixed part (its round trips, its statements' start-up, its COMMIT): at 8 connections
        with one request in flight each, units of 7 and 1 on a fast machine, of 4 and 4 on a
        slow one; with the wait, units of 8. The bounds are measured: a wait of a quarter of
        the unit ended before the answered connections' next requests were all back (units of
        5.6 and lone ones in turn at 8 connections), half of it gathers 7.8 of 8 (the whole
        unit 8.0, at more latency when requests arrive in an open loop, which do not come
        back); a wait of a quarter of a unit of 32, before the lone unit's bound, idled the
        lane longer than the unit it saved; a unit of more requests than accounts paid round
        trips for each repeat. A unit that answered one request does not wait (at one
        connection nothing else comes): its time is the lane's `_lone`. Nor does a lane whose
        answered requests stopped coming back within the wait (`_returned`: an open loop,
        each request sent at its own time, where the wait only added latency).
        docs/performance.md#a-lane-gathers-its-requests has the runs.

        Once nothing is queued the drain keeps its connection and waits `LINGER_SECONDS` for
        the next request before it lets them go (a lone request a unit would otherwise pay a
        task, the connection's checkout and return and the chain's set-up each time)."""
        loop = asyncio.get_running_loop()
        several = False  # the running unit books several requests: more come while it commits

        def more() -> bool:
            return several or bool(self._queued[lane])

        try:
            while self._queued[lane]:
                async with db.chained(more) as chained:
                    while True:
                        while queued := self._queued[lane]:
                            self._queued[lane] = queued[LARGEST:]
                            # in the lock order: accounts by uuid (first come first within one)
                            ordered = sorted(queued[:LARGEST], key=lambda r: r.order)
                            several = len(ordered) > 1
                            started = loop.time()
                            left = await _run(chained, ordered)
                            self._queued[lane] = left + self._queued[lane]  # first in, first run
                            await self._gathered(lane, ordered, left, loop.time() - started)
                        if not await self._arrivals(lane, 1, LINGER_SECONDS):
                            break
        finally:
            self._waiting.pop(lane, None)
            self._ended.pop(lane, None)
            del self._queued[lane]  # no await since the last look: nothing queued meanwhile

    async def _gathered(
        self, lane: int, ran: list[_Request], left: list[_Request], took: float
    ) -> None:
        """After a unit of `ran` that took `took` seconds and left `left` to the next: a lone
        unit's time kept, or the wait for the requests it answered (`_drain`)."""
        answered, queued = len(ran) - len(left), self._queued[lane]
        now = asyncio.get_running_loop().time()
        returning = self._returned(lane, ran, queued, now)
        if answered == 1:  # a lone unit: what a unit costs whatever its size
            self._lone[lane] = _averaged(self._lone.get(lane, took), took)
        elif lane in self._lone:
            wanted = _wanted(ran, queued, answered)
            within = _gathering(queued, took, self._lone[lane])
            self._ended[lane] = (now, answered, within)
            if len(queued) < wanted and within > 0 and returning >= RETURNING:
                await self._arrivals(lane, wanted, within)

    def _returned(
        self, lane: int, ran: list[_Request], queued: list[_Request], now: float
    ) -> float:
        """The share of the requests a lane's units of several answered that came back within
        the wait's bound after, whether or not it waited (each request's arrival, counted once
        the unit after it ended); the last look's, averaged."""
        ended = self._ended.pop(lane, None)
        returning = self._returning.get(lane, 1.0)
        if ended is not None and now >= ended[0] + ended[2]:
            at, answered, window = ended
            seen = {id(r): r for r in (*ran, *queued)}.values()
            came = sum(1 for r in seen if at < r.arrived <= at + window)
            returning = self._returning[lane] = _averaged(returning, min(1.0, came / answered))
        return returning

    async def _arrivals(self, lane: int, wanted: int, within: float) -> bool:
        """Wait until the lane's queue holds `wanted` requests or `within` seconds passed;
        whether any is queued."""
        loop = asyncio.get_running_loop()
        woken: asyncio.Future[None] = loop.create_future()
        self._waiting[lane] = (woken, wanted)
        timer = loop.call_later(within, _woken, woken)
        try:
            await woken
        finally:
            timer.cancel()
            if (waiting := self._waiting.get(lane)) is not None and waiting[0] is woken:
                del self._waiting[lane]
        return bool(self._queued[lane])


def _averaged(before: float, seen: float) -> float:
    """A lane's running figure (its lone unit's time, its answered requests' return): the
    last look a quarter of it."""
    return (before * 3 + seen) / 4


def _woken(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


async def _run(db: Database, requests: list[_Request]) -> list[_Request]:
    """One unit of the requests (in order), or each alone when the unit raised; the requests
    left for the next unit (the unit closed before them to answer its first in time)."""
    waiting = [request for request in requests if not _answered_already(request)]
    if len(waiting) > 1:
        left: list[_Request] = []

        async def unit(tx: Tx) -> list[tuple[_Request, Any]]:
            booked: list[tuple[_Request, Any]] = []
            started = asyncio.get_running_loop().time()
            left.clear()
            await _open(tx, waiting)
            for index, request in enumerate(waiting):
                if booked and _closing(booked, request, started):
                    left.extend(waiting[index:])
                    break
                if not _answered_already(request):
                    booked.append((request, await request.work(tx)))
            return booked

        try:
            with deadlines.outside():
                booked = await db.transact(unit)
        except Exception:  # noqa: S110 - rolled back whole: each runs alone below
            pass
        else:
            for request, result in booked:
                _settle(request, result=result)
            return left
    for request in waiting:
        if request.done.done() or _answered_already(request):
            continue
        try:
            with deadlines.within(request.deadline):
                result = await db.transact(request.work)
        except Exception as error:  # the caller's own error, raised there
            _settle(request, error=error)
        else:
            _settle(request, result=result)
    return []


async def _open(tx: Tx, requests: list[_Request]) -> None:
    """The first statements of the unit's requests as one (`repository.locked_cards_and_keys`:
    every account locked, then every card, in uuid order), each kept for its request's own
    first step — but only the first request of an account: a later one of the same account
    reads its own, after the earlier ones moved its balances. A merchant's block and a BIN's
    lock are read as of this statement, as units side by side read them."""
    openings = [r.opening for r in requests if r.opening is not None and not r.answered()]
    if len(openings) < 2:
        return
    accounts: set[object] = set()
    for opening, opened in zip(
        openings, await repository.locked_cards_and_keys(tx, openings), strict=True
    ):
        account = None if opened.locked is None else opened.locked.account["uuid"]
        if account is None or account not in accounts:
            opening.keep(tx, opened)
        accounts.add(account)


def _order(group: Hashable) -> tuple[int, str]:
    """A group's place in a unit: accounts by uuid (docs/ledger.md#lock-order: the text of a
    uuid sorts as PostgreSQL sorts the uuid), then the numbers of no card (they lock only the
    card-testing guard's rows, which come last in the order)."""
    if isinstance(group, uuid.UUID):
        return (0, str(group))
    try:
        return (0, str(uuid.UUID(str(group))))
    except ValueError:
        return (1, str(group))


def _closing(booked: list[tuple[_Request, Any]], following: _Request, started: float) -> bool:
    """Whether the unit commits before `following`: at the pace of its requests so far, one
    more and the COMMIT would end after the earliest deadline among them and it (a unit
    too long would answer all of them `91` where the first few could have been `00`)."""
    now = asyncio.get_running_loop().time()
    pace = (now - started) / len(booked)
    earliest = _earliest((following, *(b[0] for b in booked)))
    return earliest is not None and earliest - now < 2 * pace


def _earliest(requests: Iterable[_Request]) -> float | None:
    """The earliest deadline (the loop's time) among `requests`; None when none has one."""
    return min((r.deadline.at for r in requests if r.deadline is not None), default=None)


def _wanted(ran: list[_Request], queued: list[_Request], answered: int) -> int:
    """How many requests a lane waits for after a unit that `answered` of `ran`: what queued
    meanwhile and as many again, but no more than the accounts among them all — a request of
    an account already in a unit reads its own first statement after the earlier ones'
    writes, round trips of its own (the module's docstring), so a unit gains from more
    requests only while they are of other accounts — nor more than a unit takes."""
    accounts = {r.order for r in ran} | {r.order for r in queued}
    return min(len(queued) + answered, len(accounts), LARGEST)


def _gathering(queued: list[_Request], took: float, lone: float) -> float:
    """How long a lane waits for more requests after a unit that took `took` seconds:
    `GATHER` of it, and no longer than a lone unit takes (`lone`: the wait saves at most
    one unit's fixed part; a share of a large unit is longer, and the lane idled through
    it: `_drain`), nor so long that a unit as long would end after the earliest deadline of
    what queued (as `_closing` closes a unit)."""
    within = min(GATHER * took, lone)
    if (earliest := _earliest(queued)) is None:
        return within
    return min(within, earliest - asyncio.get_running_loop().time() - 2 * took)


def _answered_already(request: _Request) -> bool:
    """A request answered `91` while it queued gets `AnsweredAlready`, as its own unit would."""
    if request.answered() and not request.done.done():
        request.done.set_exception(AnsweredAlready())
    return request.done.done()


def _settle(request: _Request, *, result: Any = None, error: BaseException | None = None) -> None:
    if request.done.done():
        return
    if error is not None:
        request.done.set_exception(error)
    else:
        request.done.set_result(result)

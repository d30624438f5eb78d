"""Authorizations of different accounts waiting at the same moment are booked in one unit
(network/batches.py, docs/performance.md#lanes-requests-of-several-accounts-in-one-unit):
real concurrent TCP clients on a real listener, several accounts in one lane — each request
keeps its own answer and its own key (exactly once), a refusal (insufficient funds) beside
approvals in one unit undoes none of them, and the books add up. On PostgreSQL a deadlock
of a lane's unit with another unit is run again, and every request of it still gets its own
answer once."""

from __future__ import annotations

import asyncio
import itertools
import random
import uuid
from collections import defaultdict

import asyncpg
import httpx
import pytest
from fastapi import FastAPI

from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient
from cardservice.db.sql import Tx
from cardservice.ledger.verify import verify
from cardservice.network import batches, repository
from cardservice.network.batches import Batches
from cardservice.transactions.card_testing import Merchant
from tests.factories import assert_ledger_consistent, make_account, make_user, set_fee_override
from tests.network.conftest import IssuedCard, Network, issue_card, unknown_numbers

CONNECTIONS = 6
EACH = 6  # requests a card in one burst
RICH, POOR = 100, 1000  # cents asked: 1.00 of a card of 100.00 (approved), 10.00 of 5.00 (51)
BURSTS = 5  # at most, until one unit on PostgreSQL held a refusal and approvals of 2 accounts


async def _burst(network: Network, rich: list[IssuedCard], poor: IssuedCard) -> list[
    tuple[dict[int, str], str]
]:  # fmt: skip
    """`EACH` authorizations a card, shuffled, sent at once over `CONNECTIONS` connections;
    each message with the code it must be answered."""
    wanted = [(card, RICH, "00") for card in rich for _ in range(EACH)]
    wanted += [(poor, POOR, "51") for _ in range(EACH)]
    random.Random(len(wanted)).shuffle(wanted)
    return [
        (messages.authorization(card.pan, card.expiry, amount, *network.key()), code)
        for card, amount, code in wanted
    ]


async def _send(connections: list[NetworkClient], sent: list[tuple[dict[int, str], str]]) -> list[
    dict[int, str]
]:  # fmt: skip
    answers = await asyncio.gather(*(
        connections[index % len(connections)].request("0100", fields)
        for index, (fields, _code) in enumerate(sent)
    ))  # fmt: skip
    return [answer.fields for answer in answers]


async def _mixed_unit(app: FastAPI) -> bool:
    """PostgreSQL: whether one unit (the rows' `xmin`, its transaction id) wrote a declined
    authorization and approvals of two accounts or more."""
    units: dict[str, list[tuple[str, uuid.UUID]]] = defaultdict(list)
    for row in await app.state.db.reader.rows(
        "SELECT xmin::text AS unit, status, account_uuid FROM transactions"
        " WHERE type = 'card_purchase'"
    ):
        units[row["unit"]].append((row["status"], row["account_uuid"]))
    return any(
        "declined" in {status for status, _ in rows}
        and len({account for status, account in rows if status == "pending"}) >= 2
        for rows in units.values()
    )


async def test_a_units_first_statement_reads_each_request_as_alone(
    app: FastAPI, client: httpx.AsyncClient
) -> None:
    """A lane's unit reads its requests' cards, accounts, keys and guard rows in one statement
    (`repository.locked_cards_and_keys`): each request finds what it would alone — a card
    with two fee overrides (a row each) twice under two keys and two tags, another user's
    card, a number of no card."""
    db, cipher = app.state.db, app.state.cipher
    owner, card = await issue_card(app, client)
    await set_fee_override(app, owner, "card_transaction", "fixed", 25)
    await set_fee_override(app, owner, "card_decline", "fixed", 75)
    _other, other_card = await issue_card(app, client)
    merchant = Merchant("00000123456", "MERCHANT0000001")

    def opening(pan: str, stan: str, tag: str | None) -> repository.Opening:
        key = repository.Key("00000123456", stan, "1128060000", "010")
        return repository.Opening(cipher.fingerprint(pan), key, merchant, pan[:6], tag)

    openings = [
        opening(other_card.pan, "000001", "netflix"),
        opening(card.pan, "000002", None),
        opening(unknown_numbers(card, 1)[0], "000003", None),
        opening(card.pan, "000004", "binance"),
    ]

    def seen(opened: repository.Opened) -> tuple[object, ...]:
        locked = opened.locked
        account = None if locked is None else (locked.account["uuid"], locked.account["balance"])
        rows = None if locked is None else sorted(locked.card, key=lambda row: str(row["fee_slug"]))
        return opened.card, account, rows, opened.found, opened.blocked_until

    together = await db.transact(lambda tx: repository.locked_cards_and_keys(tx, openings))
    alone = [
        await db.transact(lambda tx, o=o: repository.locked_card_and_key(tx, o)) for o in openings
    ]
    assert [seen(o) for o in together] == [seen(o) for o in alone]
    assert [len(o.locked.card) if o.locked else 0 for o in together] == [1, 2, 0, 2]
    assert together[3].locked is not None and together[3].locked.card[0]["tag_slug"] == "binance"


async def test_accounts_in_one_lane_keep_their_own_answers_and_keys(
    app: FastAPI, client: httpx.AsyncClient, network: Network, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batches, "LANES", 1)  # every account of the test in the one lane
    read_together: list[int] = []  # the requests of each unit's first statement
    locked_cards_and_keys = repository.locked_cards_and_keys

    async def counted(tx: Tx, openings: list[repository.Opening]) -> list[repository.Opened]:
        read_together.append(len(openings))
        return await locked_cards_and_keys(tx, openings)

    monkeypatch.setattr(repository, "locked_cards_and_keys", counted)
    rich = [(await issue_card(app, client))[1] for _ in range(3)]
    _user, poor = await issue_card(app, client, start_balance="5")
    connections = [await network.connect() for _ in range(CONNECTIONS)]
    postgres = app.state.settings.database_url.startswith("postgresql")
    sent: list[tuple[dict[int, str], str]] = []
    try:
        for _ in range(BURSTS):
            burst = await _burst(network, rich, poor)
            answers = await _send(connections, burst)
            for (fields, code), answer in zip(burst, answers, strict=True):
                assert (answer[11], answer[39]) == (fields[11], code)  # its own answer
            sent += burst
            if not postgres or await _mixed_unit(app):
                break
        else:
            pytest.fail(f"{BURSTS} bursts, no unit of a refusal and two accounts' approvals")
        if postgres:  # that unit read its requests in its first statement, as one
            assert max(read_together) >= 3
        # every message again: the first answer, nothing booked twice
        again = await _send(connections, sent)
    finally:
        for connection in connections:
            await connection.close()
    for (fields, code), answer in zip(sent, again, strict=True):
        assert (answer[11], answer[39]) == (fields[11], code)
    reader = app.state.db.reader
    keys = await reader.rows("SELECT stan, count(*) AS n FROM network_messages GROUP BY stan")
    assert sorted(row["stan"] for row in keys) == sorted(fields[11] for fields, _ in sent)
    assert {row["n"] for row in keys} == {1}  # each key once
    booked = await reader.rows(
        "SELECT card_uuid, status, count(*) AS n FROM transactions WHERE type = 'card_purchase'"
        " GROUP BY card_uuid, status"
    )
    bursts = len(sent) // (EACH * 4)
    assert {(uuid.UUID(str(row["card_uuid"])), row["status"], row["n"]) for row in booked} == {
        *((uuid.UUID(card.uuid), "pending", EACH * bursts) for card in rich),
        (uuid.UUID(poor.uuid), "declined", EACH * bursts),
    }
    await assert_ledger_consistent(app)
    verdict = await verify(app.state.db)
    assert verdict.ok, verdict


async def test_a_deadlocked_unit_of_a_lane_runs_again_and_answers_each_once(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A lane's unit of two accounts locks the first and then waits for the second, which
    another unit holds while it waits for the first: PostgreSQL finds the deadlock (the
    lane's backend, whose `deadlock_timeout` ends first) and aborts the lane's unit, which
    runs again; each request is answered once, with its own result."""
    db = app.state.db
    if not app.state.settings.database_url.startswith("postgresql"):
        pytest.skip("row locks: PostgreSQL (SQLite's units take the database in turn)")
    monkeypatch.setattr(batches, "LANES", 1)
    user = await make_user(app)
    first, second = sorted([await make_account(app, user) for _ in range(2)], key=str)
    first_locked, second_held = asyncio.Event(), asyncio.Event()
    ran: list[uuid.UUID] = []

    def locking(account: uuid.UUID, signal: asyncio.Event | None) -> batches.Work:
        async def work(tx: Tx) -> uuid.UUID:
            ran.append(account)
            await tx.value("SELECT 1 FROM accounts WHERE uuid = $1 FOR NO KEY UPDATE", account)
            if signal is not None:
                signal.set()
                await second_held.wait()  # the other unit holds the second account
            return account

        return work

    other = await asyncpg.connect(app.state.settings.database_url)
    try:
        await other.execute("SET deadlock_timeout = '10s'")  # the lane's unit is the victim

        async def other_unit() -> None:
            async with other.transaction():
                await other.execute(
                    "SELECT 1 FROM accounts WHERE uuid = $1 FOR NO KEY UPDATE", second
                )
                second_held.set()
                await first_locked.wait()
                await other.execute(
                    "SELECT 1 FROM accounts WHERE uuid = $1 FOR NO KEY UPDATE", first
                )

        lane = Batches()
        results = await asyncio.gather(
            lane.transact(db, first, locking(first, first_locked)),
            lane.transact(db, second, locking(second, None)),
            other_unit(),
        )
    finally:
        await other.close()
    assert results[:2] == [first, second]  # each its own result, once
    assert ran[:2] == [first, second]  # one unit, in the accounts' order: it deadlocked,
    assert len(ran) > 2 and ran[-2:] == [first, second]  # and ran again whole
    retried = [r for r in caplog.records if r.getMessage() == "write unit retried"]
    assert [getattr(r, "error", None) for r in retried] == ["DeadlockDetectedError"]


async def test_a_lane_under_load_goes_on_after_the_database_drops_its_connection(
    app: FastAPI, client: httpx.AsyncClient, network: Network, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lane's held connection ended by the database (a restart, a failover, an operator's
    `pg_terminate_backend`) while requests keep coming, so that the lane never idles: the
    unit it broke runs again on a new connection, and what follows is approved — the lane
    does not go on failing on the lost one until a lull lets it go."""
    if not app.state.settings.database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL: a lane's units hold one connection (SQLite has its writer)")
    monkeypatch.setattr(batches, "LANES", 1)
    # each approval 1 cent and the fees: ~1,000 a second here, for 2 s
    cards = [(await issue_card(app, client, start_balance="600"))[1] for _ in range(2)]
    connections = [await network.connect() for _ in range(4)]
    answers: list[tuple[float, str]] = []  # (when sent, field 39)
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()

    async def keep_sending(connection: NetworkClient, card: IssuedCard) -> None:
        while not stop.is_set():
            fields = messages.authorization(card.pan, card.expiry, 1, *network.key())
            sent = loop.time()
            answer = await connection.request("0100", fields)
            answers.append((sent, answer.fields[39]))

    senders = [
        asyncio.create_task(keep_sending(connection, cards[index % 2]))
        for index, connection in enumerate(connections)
    ]
    try:
        await asyncio.sleep(0.5)
        ended = await app.state.db.reader.rows(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )  # the lane's among them, as a restart would
        dropped_at = loop.time()
        await asyncio.sleep(1.5)
    finally:
        stop.set()
        await asyncio.gather(*senders, return_exceptions=True)
        for connection in connections:
            await connection.close()
    assert ended, "no connection found to end"
    later = [code for sent, code in answers if sent > dropped_at + 0.5]
    assert len(later) >= 20  # the lane kept answering
    assert set(later) == {"00"}
    await assert_ledger_consistent(app)


@pytest.mark.parametrize("gather", [batches.GATHER, 0.0])
async def test_a_lane_waits_for_as_many_requests_as_its_unit_answered(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, gather: float
) -> None:
    """Four senders of four accounts that send again once answered, a few milliseconds apart
    (connections answered together come back one after the other): the lane waits a share of
    its unit (and no longer than a lone unit, which it times first) until what queued
    meanwhile and as many as that unit answered are queued, so after the first units each
    unit books all four. Without the wait (`GATHER` 0) the one that came back first ran
    alone, and the other three after it, in turn."""
    monkeypatch.setattr(batches, "LANES", 1)
    monkeypatch.setattr(batches, "GATHER", gather)
    lane = Batches()
    units: list[Tx] = []  # each request's unit, in the order they ran (kept: ids stay unique)

    async def work(tx: Tx) -> None:
        units.append(tx)
        await asyncio.sleep(0.05)  # a lone unit 50 ms: the wait's bound; the senders' gaps 6

    async def sender(index: int) -> None:
        account = uuid.UUID(int=index + 1)
        for _ in range(6):
            await lane.transact(app.state.db, account, work)
            await asyncio.sleep(0.002 * index)

    await asyncio.gather(*(sender(index) for index in range(4)))
    sizes = [len(list(run)) for _tx, run in itertools.groupby(units, key=id)]
    assert sum(sizes) == 24
    if gather:
        assert set(sizes[3:]) == {4}, sizes  # once the lane has timed a lone unit
    else:
        assert sizes.count(1) >= 3 and len(sizes) >= 9, sizes


@pytest.mark.parametrize("returning", [batches.RETURNING, 0.0])
async def test_a_lane_stops_waiting_for_requests_that_do_not_come_back(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch, returning: float
) -> None:
    """Requests of an open loop (each of its own account, sent at their own pace a little
    faster than the lane books them, none sent again once answered): the lane sees that what
    its units answered does not come back within its wait, and after the first few units of
    several it runs what queued at once. With the share it asks for at 0 (the wait as it was
    before) it waited after every unit of several."""
    monkeypatch.setattr(batches, "LANES", 1)
    monkeypatch.setattr(batches, "RETURNING", returning)
    waits: list[int] = []
    arrivals = Batches._arrivals

    async def counted(self: Batches, lane_: int, wanted: int, within: float) -> bool:
        if wanted > 1:  # the wait after a unit of several (the drain's linger waits for one)
            waits.append(wanted)
        return await arrivals(self, lane_, wanted, within)

    monkeypatch.setattr(Batches, "_arrivals", counted)
    lane = Batches()
    units: list[Tx] = []

    async def work(tx: Tx) -> None:
        first = not units or units[-1] is not tx
        units.append(tx)
        await asyncio.sleep(0.01 if first else 0.001)  # a unit's fixed part, then each one's

    sent = []
    for index in range(80):
        account = uuid.UUID(int=index + 1)
        sent.append(asyncio.create_task(lane.transact(app.state.db, account, work)))
        await asyncio.sleep(0.008)
    await asyncio.gather(*sent)
    sizes = [len(list(run)) for _tx, run in itertools.groupby(units, key=id)]
    several = sum(1 for size in sizes if size > 1)
    assert sum(sizes) == 80 and several >= 8, sizes
    if returning:
        assert len(waits) <= several // 2, (waits, sizes)
    else:
        assert len(waits) >= several - 1, (waits, sizes)


async def test_a_lane_waits_for_no_more_requests_than_accounts() -> None:
    """A unit gains from more requests only while they are of other accounts (a repeat reads
    its own first statement, round trips of its own): after four requests of two accounts
    with nothing queued the lane waits for two, not four; with another account queued, for
    three; never for more than a unit takes."""

    def request(account: int) -> batches._Request:
        done = asyncio.get_running_loop().create_future()
        return batches._Request(_nothing, (0, str(uuid.UUID(int=account))), None, done, None, 0)

    ran = [request(1), request(1), request(2), request(2)]
    assert batches._wanted(ran, [], 4) == 2
    assert batches._wanted(ran, [request(3)], 4) == 3
    many = [request(n) for n in range(100)]
    assert batches._wanted(many, [], 100) == batches.LARGEST


async def _nothing(tx: Tx) -> None:
    return None

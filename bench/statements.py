"""Statements per unit, counted by PostgreSQL itself: a count, not a time, so it is the same
on every machine (docs/network.md#the-network-interface-iso-8583's authorization,
docs/transactions.md#holds-captures-increments-expiry's sandbox authorization, `POST /card/buy`).

A PostgreSQL cluster of the run's own (`scripts/fleet/clusters.py`, a temporary directory,
a free port) with `pg_stat_statements` preloaded (`track = top`: the statements a client
sends, each a round trip; what triggers run inside them is not counted), the schema
migrated, 16 funded cards. `cardservice serve --iso8583-port` runs on it without its
delivery loop (`EMBEDDED_WORKER=0`, whose polls are no unit's). Each path is warmed up, the
counters are reset, `--units` units are sent one after another, and every statement the
database executed meanwhile is listed with its calls per unit (`BEGIN` and `COMMIT`
included: each is a round trip too). `iso_bare_peer` is `bench.iso`'s bare peer, counted the
same way: it must send what the service sends (a peer that does less work is no peer).
`iso_lane_waves` sends the ISO authorizations in waves of `WAVE` at once, each on a card of
its own account (16 accounts): a unit per request alone, and the lanes' units of several
(network/batches.py), whose first statement reads all their requests at once.

    python -m bench.statements                 # make bench
    python -m bench.statements --units 200 --list
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import orjson

from bench.iso import KEY, _free_port, _setup, _spawn, _wait_port
from cardservice.acquirer import messages
from cardservice.acquirer.client import NetworkClient, stans, transmitted_now
from cardservice.config import Settings
from cardservice.migrations import upgrade_database
from scripts.fleet import clusters

DATABASE = "bench"
# pg_stat_statements counts every statement executed, those of triggers and functions too
# (`track = all`); the log names each statement a client sent (`log_statement = all`, one
# line per simple query or Execute message): those are the round trips
CONF = """
shared_preload_libraries = 'pg_stat_statements'
pg_stat_statements.track = all
pg_stat_statements.track_planning = on
log_statement = 'all'
log_line_prefix = '%d '
"""
OWN = "pg_stat_statements"  # the bench's own statements (reset and read) are left out
WAVE = 8  # `iso_lane_waves`: requests sent at once, on the cards of as many accounts


async def _counted(url: str) -> list[tuple[str, int, bool, float]]:
    """The statements executed since the last reset (ours left out): each with its calls,
    whether a client sent it (`toplevel`; a trigger's are not) and its milliseconds in all,
    planning and execution (a top-level statement's execution includes its triggers')."""
    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT query, calls, toplevel, total_plan_time + total_exec_time AS ms"
            " FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid"
            " WHERE d.datname = $1 ORDER BY calls DESC, query",
            DATABASE,
        )
    finally:
        await connection.close()
    return [
        (row["query"], row["calls"], row["toplevel"], row["ms"])
        for row in rows if OWN not in row["query"]
    ]  # fmt: skip


def _sent(log: Path, start: int) -> list[str]:
    """The statements clients sent to the bench's database since byte `start` of the log
    (an entry's SQL goes on over the lines that begin with a tab)."""
    with log.open("rb") as file:
        file.seek(start)
        lines = file.read().decode(errors="replace").splitlines()
    entries: list[str] = []
    for line in lines:
        if line.startswith("\t") and entries:
            entries[-1] += " " + line.strip()
        else:
            entries.append(line)
    prefix = f"{DATABASE} LOG:  "
    sent = [entry[len(prefix) :] for entry in entries if entry.startswith(prefix)]
    return [
        line for line in sent
        if line.startswith(("statement: ", "execute ")) and OWN not in line
    ]  # fmt: skip


async def _settled(log: Path) -> None:
    """Until the server's log stops growing (its last lines written)."""
    sizes = [-1, (await asyncio.to_thread(log.stat)).st_size]
    while sizes[-2] != sizes[-1]:
        await asyncio.sleep(0.3)
        sizes.append((await asyncio.to_thread(log.stat)).st_size)


async def _reset(url: str) -> None:
    connection = await asyncpg.connect(url)
    try:
        await connection.execute("SELECT pg_stat_statements_reset()")
    finally:
        await connection.close()


async def _iso(port: int, cards: list[Any], units: int, numbers: Iterator[str]) -> int:
    """`units` ISO 8583 authorizations, one at a time on one connection; how many approved
    (`numbers`: the run's STANs, never one twice: a repeat is answered from its first)."""
    client = await NetworkClient.connect("127.0.0.1", port)
    approved = 0
    try:
        for turn in range(units):
            card = cards[turn % len(cards)]
            fields = messages.authorization(
                card.pan, card.expiry, 100, next(numbers), transmitted_now()
            )
            answer = await client.request("0100", fields, wait=30)
            approved += answer.fields.get(39) == "00"
    finally:
        await client.close()
    return approved


async def _iso_waves(port: int, cards: list[Any], units: int, numbers: Iterator[str]) -> int:
    """`units` ISO 8583 authorizations in waves of `WAVE` sent at once on one connection, each
    wave on as many cards of different accounts, the next once all are answered: what a
    lane's units do (network/batches.py; a wave's first requests run alone, the rest queue
    for their lane's next unit); how many approved."""
    client = await NetworkClient.connect("127.0.0.1", port)
    approved = 0
    try:
        for start in range(0, units, WAVE):
            wave = [
                messages.authorization(card.pan, card.expiry, 100, next(numbers), transmitted_now())
                for card in cards[start % len(cards) :][: min(WAVE, units - start)]
            ]
            answers = await asyncio.gather(
                *(client.request("0100", fields, wait=30) for fields in wave)
            )
            approved += sum(answer.fields.get(39) == "00" for answer in answers)
    finally:
        await client.close()
    return approved


async def _buy_body(url: str, card: Any) -> dict[str, Any]:
    """A purchase of one card with a start balance, on the account and range of `card`."""
    connection = await asyncpg.connect(url)
    try:
        row = await connection.fetchrow(
            "SELECT account_uuid, bin_uuid FROM cards WHERE uuid = $1", uuid.UUID(card.uuid)
        )
    finally:
        await connection.close()
    assert row is not None
    return {"account_uuid": str(row["account_uuid"]), "bin_uuid": str(row["bin_uuid"]),
            "start_balance": 1}  # fmt: skip


async def _http(
    base: str, tokens: dict[str, str], cards: list[Any], path: str, units: int,
    buy: dict[str, Any],
) -> int:  # fmt: skip
    """`units` sandbox authorizations or card purchases, one at a time; how many succeeded."""
    done = 0
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        for turn in range(units):
            card = cards[turn % len(cards)]
            headers = {"Authorization": f"Bearer {tokens[card.uuid]}"}
            if path == "/sandbox/authorizations":
                body: dict[str, Any] = {"card_uuid": card.uuid, "amount": 1, "currency": "USD",
                                        "merchant_name": "Netflix"}  # fmt: skip
            else:
                body = buy
            posted = await client.post(path, json=body, headers=headers)
            done += posted.status_code == 201
    return done


# the values a statement sent without parameters writes in (the outbox's data, sent with the
# COMMIT: events/repository.py), folded so that one statement is listed once
_WRITTEN_IN = (
    (re.compile(r"\$(q\d*)\$.*?\$\1\$", re.S), "$q$…$q$"),
    (re.compile(r"\(\d+, "), "(n, "),
)


def _text(line: str) -> str:
    """A logged statement's text: `statement: SQL` or `execute NAME: SQL` (values written in
    folded)."""
    text = line.split(": ", 1)[1]
    for pattern, folded in _WRITTEN_IN:
        text = pattern.sub(folded, text)
    return " ".join(text.split())[:160]


def _figures(
    name: str, units: int, done: int, counted: list[tuple[str, int, bool, float]], sent: list[str]
) -> dict[str, Any]:
    by_text: dict[str, int] = {}
    for line in sent:
        by_text[_text(line)] = by_text.get(_text(line), 0) + 1
    return {
        "unit": name,
        "units": units,
        "succeeded": done,
        "round_trips_per_unit": round(len(sent) / units, 2),
        "statements_per_unit": round(sum(calls for _query, calls, *_ in counted) / units, 2),
        # the database's own time a unit, one unit at a time on an idle cluster: the
        # client's statements (their triggers' inside) planned and executed
        "database_ms_per_unit": round(sum(ms for *_, top, ms in counted if top) / units, 3),
        "round_trips": [
            {"per_unit": round(calls / units, 2), "query": text}
            for text, calls in sorted(by_text.items(), key=lambda item: (-item[1], item[0]))
        ],
        "statements": [
            {
                "per_unit": round(calls / units, 2),
                "ms_per_unit": round(ms / units, 4),
                "query": " ".join(query.split())[:160],
            }
            for query, calls, _top, ms in sorted(counted, key=lambda row: -row[3])
        ],
    }


async def measure(url: str, log: Path, units: int) -> list[dict[str, Any]]:
    await upgrade_database(Settings(database_url=url).resolved_database_url)
    by_card, cards = await _setup(url, 1)
    _tokens, spread = await _setup(url, 16)  # a card an account, in turn
    http_port, iso_port, peer_port = _free_port(), _free_port(), _free_port()
    with tempfile.TemporaryDirectory(prefix="cs-bench-statements-") as var:
        env = {**os.environ, "CARDSERVICE_DATABASE_URL": url, "CARDSERVICE_ENCRYPTION_KEY": KEY,
               "CARDSERVICE_SANDBOX": "1", "CARDSERVICE_VAR_DIR": var,
               "CARDSERVICE_EMBEDDED_WORKER": "0",
               "CARDSERVICE_RATE_LIMIT_PER_MINUTE": "10000000", "CARDSERVICE_LOG_LEVEL": "WARNING"}  # fmt: skip
        server = _spawn([sys.executable, "-m", "cardservice", "serve", "--port", str(http_port),
                         "--iso8583-port", str(iso_port), "--no-migrate"], env)  # fmt: skip
        peer = _spawn([sys.executable, "-m", "bench.iso", "--peer", str(peer_port), "--url", url],
                      env)  # fmt: skip
        try:
            await _wait_port(iso_port)
            await _wait_port(peer_port)
            await _wait_port(http_port)
            base, buy = f"http://127.0.0.1:{http_port}", await _buy_body(url, cards[0])
            figures, numbers = [], stans(int(time.time()) % 900_000 + 1)
            paths = {"http_authorization": "/sandbox/authorizations", "http_purchase": "/card/buy"}
            ports = {"iso_authorization": iso_port, "iso_bare_peer": peer_port}
            for name in (*ports, "iso_lane_waves", *paths):
                for phase_units in (5, units):  # the warm-up, then the counted units
                    await _reset(url)
                    await _settled(log)
                    start = (await asyncio.to_thread(log.stat)).st_size
                    if name in ports:
                        done = await _iso(ports[name], cards, phase_units, numbers)
                    elif name == "iso_lane_waves":
                        done = await _iso_waves(iso_port, spread, phase_units, numbers)
                    else:
                        done = await _http(base, by_card, cards, paths[name], phase_units, buy)
                await _settled(log)
                counted = await _counted(url)
                figures.append(_figures(name, units, done, counted, _sent(log, start)))
            return figures
        finally:
            for process in (server, peer):
                process.kill()
                process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=100)
    parser.add_argument("--list", action="store_true", help="every statement with its calls")
    arguments = parser.parse_args()
    if not clusters.available():
        print("bench.statements: initdb or pg_ctl missing", file=sys.stderr)
        return 1
    with clusters.own_primary("bench-statements", CONF) as cluster:
        cluster.psql(f'CREATE DATABASE "{DATABASE}"')
        cluster.psql("CREATE EXTENSION pg_stat_statements", DATABASE)
        figures = asyncio.run(measure(cluster.dsn(DATABASE), cluster.log, arguments.units))
    for figure in figures:
        if not arguments.list:
            figure.pop("statements")
            figure.pop("round_trips")
        print(orjson.dumps(figure, option=orjson.OPT_INDENT_2).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())

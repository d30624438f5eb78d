"""What the hash chain costs the authorization path: an in-process loop of sandbox
authorizations through the app (ASGI, no network) on a fresh PostgreSQL database, with the
chain's seal as shipped (the database chains each entry at COMMIT, `ledger_seal`) and with
its trigger disabled (entries left unchained), sequential and 8 at a time.

    CARDSERVICE_TEST_PG=postgresql://postgres@127.0.0.1:5432/test python -m bench.chain_cost

Results are printed; docs/ledger.md ("The hash chain") keeps the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import httpx

from cardservice.accounts.service import create_account
from cardservice.app import create_app
from cardservice.auth.credentials import issue_token
from cardservice.config import Settings
from cardservice.db.sql import Tx
from cardservice.migrations import upgrade_database
from cardservice.transactions.deposits import deposit
from cardservice.users.service import create_user

ADMIN = os.environ.get("CARDSERVICE_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")


async def _loop(client: httpx.AsyncClient, card: str, count: int, width: int) -> float:
    """Seconds per authorization, `width` at a time."""

    async def one() -> None:
        response = await client.post(
            "/sandbox/authorizations",
            json={"card_uuid": card, "amount": 1, "currency": "USD", "merchant_name": "Bench"},
        )
        assert response.status_code == 201, response.text

    started = time.perf_counter()
    for _ in range(count // width):
        await asyncio.gather(*(one() for _ in range(width)))
    return (time.perf_counter() - started) / count


async def main(count: int, rounds: int) -> None:
    name = f"cs_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(ADMIN)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = ADMIN.rsplit("/", 1)[0] + "/" + name
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                database_url=url, var_dir=Path(tmp), sandbox=True, log_level="WARNING",
                rate_limit_per_minute=10**7, encryption_key=os.environ.get(
                    "CARDSERVICE_ENCRYPTION_KEY", "hXo9m1GJZ0PgtDk0eJ1rV9yB0g3o4Zb8u0eHqXqvP1s="),
            )  # fmt: skip
            await upgrade_database(settings.resolved_database_url)
            app = create_app(settings)

            async def setup(tx: Tx) -> tuple[str, uuid.UUID]:
                user = await create_user(tx, "bench@example.com", "Bench", None, None)
                account = await create_account(tx, user, "Main", "USD", "main")
                await deposit(tx, user, account, 10**10)
                _row, token = await issue_token(tx, user, "bench", None)
                return token, account

            token, account = await app.state.db.transact(setup)
            transport = httpx.ASGITransport(app=app)
            headers = {"Authorization": f"Bearer {token}"}
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", headers=headers
            ) as client:
                bins = (await client.get("/dictionary/bins")).json()["data"]
                bin_uuid = next(
                    b["uuid"] for b in bins if b["currency"] == "USD" and b["status"] == "available"
                )
                bought = await client.post(
                    "/card/buy",
                    json={"account_uuid": str(account), "bin_uuid": bin_uuid,
                          "start_balance": 10**6},
                )  # fmt: skip
                assert bought.status_code == 201, bought.text
                card = bought.json()["data"]["cards"][0]["uuid"]
                await _loop(client, card, 50, 1)  # warm up
                figures: dict[str, list[float]] = {}
                own = await asyncpg.connect(url)
                for _ in range(rounds):
                    for label, switch in (("chained", "ENABLE"), ("unchained", "DISABLE")):
                        await own.execute(
                            f"ALTER TABLE journal_entries {switch} TRIGGER journal_entries_seal"
                        )
                        for width in (1, 8):
                            key = f"{label} ×{width}"
                            figures.setdefault(key, []).append(
                                await _loop(client, card, count, width)
                            )
                await own.close()
            await app.state.db.dispose()
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()
    for key, values in figures.items():
        print(f"{key}: {statistics.median(values) * 1000:.2f} ms per authorization"
              f" (median of {rounds} rounds of {count})")  # fmt: skip


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.count, args.rounds))

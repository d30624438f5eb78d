"""A Hypothesis state machine drives the real app through every money path and checks the
ledger invariants after every step: postings sum to zero per currency, each balance equals
its postings and is never negative, and the user summary equals the sum of accounts and cards.
Holds (docs/transactions.md#holds-captures-increments-expiry: increments, partial, multiple and
over-captures, the expiry sweep): the `holds` book equals what pending purchases still hold
(released + captured = held), no purchase captured more than its authorization plus 20 %, and
nothing is captured after a release or an expiry (the machine keeps what each purchase captured and
compares). Foreign currency: purchases in EUR or GBP on the USD cards, captured in parts in the
merchant's currency at the authorization's rate or another one; their merchant amounts keep
the same rules (tests/factories.py) and their merchant captured amount is what was answered.
The program operator (docs/operations.md#running-a-program), through the operator API: credits and
debits idempotent by external_id (a repeat answers the same transaction, another request 409),
top-ups asked in the seed's payment currencies, confirmed (also twice at once: one credit),
cancelled and expired by the sweep, and card replacements (also between a purchase and its capture,
reversal, refund or won dispute: the money goes to the new card, none is left on the old one); after
every step each top-up is as the machine expects (a completed one with its one deposit) and
the books (`/operator/balances`) sum to zero per currency, their cardholder classes equal to
the accounts' and cards' balances.

`make test` runs 30 examples per database; `make stress` sets CARDSERVICE_STATEFUL_EXAMPLES=1000.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any, TypeVar

import httpx
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    consumes,
    invariant,
    rule,
    run_state_machine_as_test,
)

from cardservice.app import create_app
from cardservice.config import Settings
from cardservice.db.sql import as_uuid
from cardservice.http.router import dumps
from cardservice.topups.service import sweep_expired_topups
from cardservice.transactions.expiry import sweep_expired_holds
from tests.conftest import empty_tables
from tests.factories import assert_ledger_consistent, bin_uuid, make_account, make_user
from tests.operator.helpers import as_operator, operator_key

EXAMPLES = int(os.environ.get("CARDSERVICE_STATEFUL_EXAMPLES", "30"))
TALLY = Counter[str]()  # what a run did, printed at its end (make stress shows it: -rP)
T = TypeVar("T")
amounts = st.integers(min_value=1, max_value=20_000).map(lambda cents: Decimal(cents).scaleb(-2))
TAGS = st.sampled_from([None, "amazon", "netflix", "binance", "bet365"])
FOREIGN = st.sampled_from(["EUR", "GBP"])
RATES = st.none() | st.sampled_from(
    [Decimal("0.9"), Decimal("1.085"), Decimal("1.1"), Decimal("1.3")]
)


# --- Disputes (issue 20): open and resolve, and "a dispute credit at most once, never more
# than the purchase has left to give back". Its own block, mixed into the machine below.


small_amounts = st.integers(min_value=1, max_value=500).map(lambda c: Decimal(c).scaleb(-2))
DISPUTE_REASONS = st.sampled_from(["fraudulent", "not_received", "duplicate", "other"])
_DISPUTE_CREDITS = """
SELECT p.amount, p.refunded_amount, COUNT(c.uuid), COALESCE(SUM(c.amount), 0),
       (SELECT COUNT(*) FROM disputes d WHERE d.transaction_uuid = p.uuid AND d.status = 'open')
FROM transactions p LEFT JOIN transactions c
  ON c.parent_uuid = p.uuid AND c.type = 'dispute_credit'
WHERE p.type = 'card_purchase' GROUP BY p.uuid, p.amount, p.refunded_amount"""


class DisputeRules(RuleBasedStateMachine):
    """Rules on the completed purchases of `LedgerMachine` (same bundle by name)."""

    completed = Bundle("completed")
    disputes = Bundle("disputes")
    app: Any

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        raise NotImplementedError  # LedgerMachine's

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        raise NotImplementedError  # LedgerMachine's

    def _captured(self, response: httpx.Response, txn: str) -> None:
        raise NotImplementedError  # LedgerMachine's

    @rule(target=disputes, txn=completed, reason=DISPUTE_REASONS, amount=st.none() | amounts)
    def open_dispute(self, txn: str, reason: str, amount: Decimal | None) -> str:
        body: dict[str, Any] = {"transaction_uuid": txn, "reason": reason}
        response = self.post("/disputes", body | ({"amount": amount} if amount else {}))
        assert response.status_code in (201, 404, 422), response.text
        return str(response.json().get("data", {}).get("uuid", txn))

    @rule(target=disputes, card=Bundle("cards"), amount=small_amounts, reason=DISPUTE_REASONS)
    def buy_and_dispute(self, card: str, amount: Decimal, reason: str) -> str:
        """A purchase authorized, settled and disputed at once (reaches the dispute rules
        more often than waiting for `open_dispute` to draw a settled purchase)."""
        body = {"card_uuid": card, "amount": amount, "currency": "USD", "merchant_name": "M"}
        txn = str(self.post("/sandbox/authorizations", body).json().get("data", {}).get("uuid"))
        self._captured(self.post(f"/sandbox/transactions/{txn}/settle"), txn)
        return self.open_dispute(txn, reason, None)

    @rule(dispute=disputes, outcome=st.sampled_from(["won", "lost"]))
    def resolve_dispute(self, dispute: str, outcome: str) -> None:
        response = self.post(f"/sandbox/disputes/{dispute}/resolve", {"outcome": outcome})
        assert response.status_code in (201, 404, 422), response.text

    @invariant()
    def a_dispute_credit_at_most_once_within_the_amount(self) -> None:
        # the app's own pool: a fresh connection per step would cost more than the query
        for amount, refunded, credits, credited, open_ in self.run(
            self.app.state.db.reader.rows(_DISPUTE_CREDITS)
        ):
            assert credits <= 1 and open_ <= 1
            assert refunded + credited <= amount


# --- The program operator (docs/operations.md#running-a-program): credits and debits idempotent by
# external_id, top-ups asked, confirmed (also twice at once), cancelled and expired, card
# replacements; after every step the books (`/operator/balances`) sum to zero per currency. Its own
# block, mixed into the machine below, through the operator API as an operator calls it.


EXTERNAL_IDS = st.integers(min_value=0, max_value=5).map(lambda n: f"ext-{n}")
# (method, currency) pairs of the seed's payment currencies: USD as the accounts, and others
# converted at the rate table
TOPUP_TERMS = st.sampled_from(
    [("bank-transfer", "USD"), ("bank-transfer", "GBP"), ("card", "EUR"), ("sepa", "EUR")]
)
topup_amounts = st.integers(min_value=1_000, max_value=50_000).map(lambda c: Decimal(c).scaleb(-2))
REPLACE_REASONS = st.sampled_from(["lost", "stolen", "damaged", "expiring"])
_TOPUP_DEPOSITS = """
SELECT t.uuid, t.status, COUNT(d.uuid) FROM topups t
LEFT JOIN transactions d ON d.uuid = t.transaction_uuid AND d.type = 'deposit'
WHERE t.user_uuid = $1 GROUP BY t.uuid, t.status"""
_UNPAID = "SELECT COUNT(*) FROM topups WHERE status = 'awaiting_payment'"
_HELD = "SELECT (SELECT SUM(balance) FROM accounts) + (SELECT COALESCE(SUM(balance), 0) FROM cards)"


class OperatorRules(RuleBasedStateMachine):
    """Rules on the accounts and cards of `LedgerMachine` (same bundles by name)."""

    accounts = Bundle("accounts")
    cards = Bundle("cards")
    topups = Bundle("topups")
    app: Any
    client: httpx.AsyncClient
    operator: dict[str, str]  # an operator key's headers (funding, reports)
    funding: dict[str, tuple[str, str, Decimal, str]]  # external_id → its first request's
    topup_status: dict[str, str]  # top-up → the status the machine expects

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        raise NotImplementedError  # LedgerMachine's

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        raise NotImplementedError  # LedgerMachine's

    def operate(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        content = dumps(body) if body is not None else None
        response = self.run(self.client.post(path, content=content, headers=self.operator))
        assert response.status_code < 500, response.text
        return response

    @rule(
        account=accounts,
        direction=st.sampled_from(["credit", "debit"]),
        amount=amounts,
        external_id=EXTERNAL_IDS,
    )
    def move_money(self, account: str, direction: str, amount: Decimal, external_id: str) -> None:
        """A credit or debit; an external_id seen before answers its transaction again (same
        request) or 409 (another)."""
        # one namespace for the operator: SQLite's examples share the database
        body = {"amount": amount, "external_id": f"{self.user.uuid}-{external_id}"}
        response = self.operate(f"/operator/accounts/{account}/{direction}s", body)
        earlier = self.funding.get(external_id)
        if earlier is None:
            if response.status_code == 422:  # not remembered: may be sent again
                assert direction == "debit", response.text
                assert response.json()["code"] == "insufficient_funds", response.text
                return
            assert response.status_code == 201, response.text
            txn = response.json()["data"]
            assert txn["type"] == ("deposit" if direction == "credit" else "withdrawal")
            self.funding[external_id] = (direction, account, amount, txn["uuid"])
            TALLY[f"operator {direction}s"] += 1
        elif earlier[:3] == (direction, account, amount):
            assert response.status_code == 200, response.text
            assert response.json()["data"]["uuid"] == earlier[3]
            TALLY["operator repeats answered once"] += 1
        else:
            assert response.status_code == 409, response.text
            assert response.json()["code"] == "idempotency_conflict"

    @rule(target=topups, account=accounts, terms=TOPUP_TERMS, amount=topup_amounts)
    def request_topup(self, account: str, terms: tuple[str, str], amount: Decimal) -> str:
        method, currency = terms
        body = {"account_uuid": account, "method": method, "currency": currency, "amount": amount}
        response = self.post("/topups", body)
        assert response.status_code in (201, 404), response.text  # 404: the machine's dummy
        if response.status_code == 404:
            return account
        topup = response.json()["data"]
        assert topup["status"] == "awaiting_payment" and topup["reference"].startswith("TU-")
        self.topup_status[topup["uuid"]] = "awaiting_payment"
        return str(topup["uuid"])

    @rule(topup=topups, received=topup_amounts, twice=st.booleans())
    def confirm_topup(self, topup: str, received: Decimal, twice: bool) -> None:
        """The operator confirms what arrived; `twice`: two confirms at once, one credit."""
        path, body = f"/operator/topups/{topup}/confirm", {"received_amount": received}
        content, send = dumps(body), self.client.post

        async def confirms() -> list[httpx.Response]:
            sent = [send(path, content=content, headers=self.operator) for _ in range(1 + twice)]
            return list(await asyncio.gather(*sent))

        answers = sorted(r.status_code for r in self.run(confirms()))
        if topup not in self.topup_status:
            assert answers == [404] * len(answers)
        elif self.topup_status[topup] == "awaiting_payment":
            assert answers == [200, 409][: len(answers)], answers
            self.topup_status[topup] = "completed"
            TALLY["top-ups confirmed" + (" twice at once" if twice else "")] += 1
        else:
            assert answers == [409] * len(answers), answers

    @rule(topup=topups)
    def cancel_topup(self, topup: str) -> None:
        response = self.operate(f"/operator/topups/{topup}/cancel")
        if topup not in self.topup_status:
            assert response.status_code == 404, response.text
        elif self.topup_status[topup] == "awaiting_payment":
            assert response.status_code == 200, response.text
            self.topup_status[topup] = "cancelled"
            TALLY["top-ups cancelled"] += 1
        else:
            assert response.status_code == 409, response.text

    @rule()
    def expire_topups(self) -> None:
        """The sweep 73 hours from now: every unpaid top-up expires, once."""
        later = datetime.now(UTC) + timedelta(hours=73)
        waiting = [t for t, status in self.topup_status.items() if status == "awaiting_payment"]
        unpaid = self.run(self.app.state.db.reader.value(_UNPAID))  # SQLite's earlier examples'
        assert self.run(sweep_expired_topups(self.app.state.db, later)) == unpaid
        self.topup_status.update(dict.fromkeys(waiting, "expired"))
        TALLY["top-ups expired"] += len(waiting)

    @rule(target=cards, card=cards, reason=REPLACE_REASONS)
    def replace_card(self, card: str, reason: str) -> str:
        """A replacement takes the card's place; the old one stays drawn (closed: declines)."""
        response = self.post(f"/card/{card}/replace", {"reason": reason})
        assert response.status_code in (201, 404, 422), response.text
        if response.status_code != 201:
            assert response.status_code == 404 or response.json()["code"] == "card_closed"
            return card
        TALLY["replacements"] += 1
        return str(response.json()["data"]["uuid"])

    @rule(
        target=cards,
        card=cards,
        amount=small_amounts,
        then=st.sampled_from(["settle", "reverse", "refund", "dispute"]),
    )
    def replace_with_a_purchase(self, card: str, amount: Decimal, then: str) -> str:
        """A purchase on the card, the card replaced, then the purchase captured or reversed
        (its hold still on the old card: what it releases goes to the new one), or captured
        and then refunded or disputed and won (the money back to the new card)."""
        body = {"card_uuid": card, "amount": amount, "currency": "USD", "merchant_name": "R"}
        txn = str(self.post("/sandbox/authorizations", body).json().get("data", {}).get("uuid"))
        if then in ("refund", "dispute"):
            self._captured(self.post(f"/sandbox/transactions/{txn}/settle"), txn)
        new = self.replace_card(card, "lost")
        if then in ("settle", "reverse"):
            response = self.post(f"/sandbox/transactions/{txn}/{then}")
            if then == "settle":
                self._captured(response, txn)
            elif response.status_code == 201:
                self.released.add(txn)
        elif then == "refund":
            self.post(f"/sandbox/transactions/{txn}/refund")
        else:
            opened = self.post("/disputes", {"transaction_uuid": txn, "reason": "fraudulent"})
            if opened.status_code == 201:
                dispute = opened.json()["data"]["uuid"]
                won = self.post(f"/sandbox/disputes/{dispute}/resolve", {"outcome": "won"})
                credit = won.json()["data"]["credit_transaction_uuid"]
                if new != card and credit is not None:
                    path = f"/transaction/{credit}"
                    got = self.run(self.client.get(path, headers=self.user.headers)).json()
                    assert got["data"]["card_uuid"] == new, "a dispute credit on the old card"
        if new != card:
            TALLY[f"replacements then {then}"] += 1
            old = self.run(self.client.get(f"/card/{card}", headers=self.user.headers)).json()
            assert Decimal(str(old["data"]["balance"])) == 0, "money left on the replaced card"
        return new

    @invariant()
    def topups_and_books_are_true(self) -> None:
        """Each top-up is as the machine expects, a completed one with its one deposit; the
        books (`/operator/balances`) sum to zero per currency, and the cardholders' classes
        hold what the accounts and cards hold."""
        reader = self.app.state.db.reader
        rows = self.run(reader.rows(_TOPUP_DEPOSITS, self.user.uuid))
        assert {str(as_uuid(row[0])): row[1] for row in rows} == self.topup_status
        assert all(row[2] == (row[1] == "completed") for row in rows), rows
        response = self.run(self.client.get("/operator/balances", headers=self.operator))
        assert response.status_code == 200, response.text
        books = {
            item["currency"]: {b["class"]: Decimal(str(b["balance"])) for b in item["balances"]}
            for item in response.json()["data"]
        }
        assert all(sum(classes.values()) == 0 for classes in books.values()), books
        usd = books.get("USD", {})
        holders = usd.get("cardholder_accounts", 0) + usd.get("cards", 0)
        assert holders * 100 == (self.run(reader.value(_HELD)) or 0), books


class LedgerMachine(DisputeRules, OperatorRules, RuleBasedStateMachine):
    service_settings: Settings  # set by the test: which database to drive
    accounts = Bundle("accounts")
    cards = Bundle("cards")
    pending = Bundle("pending")
    completed = Bundle("completed")

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.app = create_app(self.service_settings)
        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app), base_url="http://testserver"
        )
        self.run(empty_tables(self.app))
        TALLY["examples"] += 1
        self.user = self.run(make_user(self.app))
        self.operator = as_operator(self.run(operator_key(self.app, "funding", "reports")))
        self.funding, self.topup_status = {}, {}
        self.bin = self.run(bin_uuid(self.app))
        self.captured: dict[str, Decimal] = {}  # purchase → what its captures took
        self.released: set[str] = set()  # purchases whose hold was released or expired
        self.foreign: set[str] = set()  # purchases in another currency than the card's
        self.merchant_captured: dict[str, Decimal] = {}  # foreign purchase → in its currency
        self.rates: dict[str, object] = {}  # foreign purchase → its authorization's rate

    def run(self, work: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(work)

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        content = dumps(body) if body is not None else None
        response = self.run(
            self.client.post(
                path,
                content=content,
                headers={**self.user.headers, "Content-Type": "application/json"},
            )
        )
        assert response.status_code < 500, response.text
        return response

    def teardown(self) -> None:
        self.run(self.client.aclose())
        self.run(self.app.state.db.dispose())
        self.run(self.app.state.rate_limiter.close())
        self.loop.close()

    @rule(target=accounts, funds=amounts)
    def open_account(self, funds: Decimal) -> str:
        return str(self.run(make_account(self.app, self.user, funds=str(funds))))

    @rule(account=accounts, amount=amounts)
    def deposit(self, account: str, amount: Decimal) -> None:
        assert (
            self.post("/sandbox/deposits", {"account_uuid": account, "amount": amount}).status_code
            == 201
        )

    @rule(target=cards, account=accounts, start=amounts, replenish=st.booleans())
    def buy(self, account: str, start: Decimal, replenish: bool) -> str:
        body: dict[str, Any] = {
            "account_uuid": account,
            "bin_uuid": self.bin,
            "start_balance": start,
        }
        if replenish:
            body |= {
                "auto_replenish_amount": Decimal(25),
                "auto_replenish_min_balance": Decimal(10),
            }
        response = self.post("/card/buy", body)
        assert response.status_code in (201, 422), response.text
        if response.status_code == 422:
            assert response.json()["code"] == "insufficient_funds"
            return self.run(self._any_card())
        return str(response.json()["data"]["cards"][0]["uuid"])

    async def _any_card(self) -> str:
        cards = (await self.client.get("/card", headers=self.user.headers)).json()["data"]["cards"]
        return str(cards[0]["uuid"]) if cards else "00000000-0000-4000-8000-000000000000"

    @rule(target=pending, card=cards, amount=amounts, tag=TAGS)
    def authorize(self, card: str, amount: Decimal, tag: str | None) -> str:
        response = self.post(
            "/sandbox/authorizations",
            {
                "card_uuid": card,
                "amount": amount,
                "currency": "USD",
                "merchant_name": "M",
                **({"tag": tag} if tag else {}),
            },
        )
        assert response.status_code in (201, 404)
        return str(response.json().get("data", {}).get("uuid", card))

    @rule(target=pending, card=cards, amount=amounts, currency=FOREIGN)
    def authorize_foreign(self, card: str, amount: Decimal, currency: str) -> str:
        body = {"card_uuid": card, "amount": amount, "currency": currency, "merchant_name": "F"}
        response = self.post("/sandbox/authorizations", body)
        assert response.status_code in (201, 404)
        txn = str(response.json().get("data", {}).get("uuid", card))
        if response.status_code == 201:
            self.foreign.add(txn)
            self.merchant_captured[txn] = Decimal(0)
            self.rates[txn] = response.json()["data"]["rate"]
        return txn

    @rule(target=pending, card=cards, amount=amounts, currency=FOREIGN, rate=RATES)
    def foreign_in_parts(
        self, card: str, amount: Decimal, currency: str, rate: Decimal | None
    ) -> str:
        """A foreign authorization and at once a third of it captured, the rest kept held
        (at `rate` if drawn); later rules capture, raise, reverse or expire the rest."""
        txn = self.authorize_foreign(card, amount, currency)
        if txn in self.foreign:
            body: dict[str, Any] = {
                "amount": max(Decimal("0.01"), amount / 3).quantize(Decimal("0.01")),
                "final": False,
            }
            if rate is not None:
                body["rate"] = rate
            self._captured(self.post(f"/sandbox/transactions/{txn}/settle", body), txn)
        return txn

    def _captured(self, response: httpx.Response, txn: str) -> None:
        if response.status_code == 201:
            assert txn not in self.released, "captured after a release or an expiry"
            data = response.json()["data"]
            self.captured[txn] = Decimal(str(data["captured_amount"]))
            TALLY["captures"] += 1
            if txn in self.foreign:
                TALLY["foreign captures"] += 1
                TALLY["foreign captures at another rate"] += data["rate"] != self.rates[txn]
                TALLY["foreign captures keeping the rest held"] += data["status"] == "pending"
                self.merchant_captured[txn] = Decimal(str(data["merchant_captured_amount"]))

    @rule(target=completed, txn=consumes(pending))
    def settle(self, txn: str) -> str:
        self._captured(self.post(f"/sandbox/transactions/{txn}/settle"), txn)
        return txn

    @rule(txn=pending, amount=amounts, final=st.booleans(), rate=RATES)
    def capture_part(self, txn: str, amount: Decimal, final: bool, rate: Decimal | None) -> None:
        """A foreign purchase's `amount` is in the merchant's currency, at `rate` if drawn."""
        body: dict[str, Any] = {"amount": amount, "final": final}
        if txn in self.foreign and rate is not None:
            body["rate"] = rate
        response = self.post(f"/sandbox/transactions/{txn}/settle", body)
        self._captured(response, txn)
        if response.status_code == 422:
            assert response.json()["code"] in (
                "invalid_transition",
                "insufficient_funds",
                "capture_exceeds_authorization",
                "not_found",
            )

    @rule(txn=pending, amount=amounts)
    def increment(self, txn: str, amount: Decimal) -> None:
        response = self.post(f"/sandbox/transactions/{txn}/increment", {"amount": amount})
        assert response.status_code in (201, 404, 422), response.text

    @rule(txn=consumes(pending))
    def reverse(self, txn: str) -> None:
        response = self.post(f"/sandbox/transactions/{txn}/reverse")
        if response.status_code == 201:
            self.released.add(txn)

    @rule(days=st.sampled_from([1, 8, 40]))
    def expire_holds(self, days: int) -> None:
        """The sweep, `days` from now: 8 expires the untagged holds, 40 every hold."""
        later = datetime.now(UTC) + timedelta(days=days)
        before = self._purchases()
        self.run(sweep_expired_holds(self.app.state.db, later))
        for txn, (status, _captured) in self._purchases().items():
            if before[txn][0] == "pending" and status != "pending":
                self.released.add(txn)

    def _report(self) -> list[dict[str, Any]]:
        """Every purchase's record, as the API reports them."""
        rows: list[dict[str, Any]] = self.run(
            self.client.get(
                "/transaction/report",
                params={"per_page": 100, "filters[type]": "card_purchase"},
                headers=self.user.headers,
            )
        ).json()["data"]
        return rows

    def _purchases(self) -> dict[str, tuple[str, Decimal]]:
        """Every purchase's (status, captured amount), as the API reports them."""
        return {
            row["uuid"]: (row["status"], Decimal(str(row["captured_amount"])))
            for row in self._report()
        }

    @invariant()
    def captures_are_what_was_answered(self) -> None:
        for txn, (status, captured) in self._purchases().items():
            assert captured == self.captured.get(txn, Decimal(0)), txn
            if txn in self.released:
                assert status in ("reversed", "completed", "refunded")

    @invariant()
    def foreign_captures_are_what_was_answered(self) -> None:
        for row in self._report():
            if row["uuid"] in self.foreign:
                merchant = Decimal(str(row["merchant_captured_amount"]))
                assert merchant == self.merchant_captured[row["uuid"]], row["uuid"]

    @rule(txn=completed, amount=st.one_of(st.none(), amounts))
    def refund(self, txn: str, amount: Decimal | None) -> None:
        self.post(
            f"/sandbox/transactions/{txn}/refund", {} if amount is None else {"amount": amount}
        )

    @rule(card=cards, favorite=st.booleans())
    def favorite(self, card: str, favorite: bool) -> None:
        self.post("/card/favorite", {"card_uuids": [card], "is_favorite": favorite})

    @rule(card=cards)
    def sort(self, card: str) -> None:
        self.post("/card/sort", {"card_uuids": [card]})

    @invariant()
    def ledger_is_true(self) -> None:
        TALLY["invariant rounds"] += 1  # at the start of each example and after every step
        self.run(assert_ledger_consistent(self.app))

    @invariant()
    def summary_equals_accounts_and_cards(self) -> None:
        get = self.client.get
        summary = self.run(get("/user/summary", headers=self.user.headers)).json()["data"]
        accounts = self.run(get("/accounts", params={"per_page": 100}, headers=self.user.headers))
        cards = self.run(get("/card", params={"per_page": 500}, headers=self.user.headers))
        account_total = sum(Decimal(str(a["balance"])) for a in accounts.json()["data"]["items"])
        card_total = sum(Decimal(str(c["balance"])) for c in cards.json()["data"]["cards"])
        usd = [b for b in summary["balances"] if b["currency"] == "USD"]
        expected = [(account_total, card_total)] if usd or account_total or card_total else []
        assert [
            (Decimal(str(b["accounts_total"])), Decimal(str(b["cards_total"]))) for b in usd
        ] == expected


def test_ledger_state_machine(settings: Settings) -> None:
    LedgerMachine.service_settings = settings
    TALLY.clear()
    run_state_machine_as_test(
        LedgerMachine,
        settings=hypothesis_settings(
            max_examples=EXAMPLES,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    steps = TALLY["invariant rounds"] - TALLY["examples"]
    print(
        f"{settings.database_url.split(':')[0]}: {TALLY['examples']} examples, {steps} steps, "
        + ", ".join(
            f"{TALLY[k]} {k}" for k in sorted(TALLY) if k not in ("examples", "invariant rounds")
        )
    )

"""The generated client as a user meets it (clients/python): the README's quick start and a
60-line script pass `mypy --strict` and run against a live server; ids chain from answers into
requests; errors raise with their body (or come back, with the option off); pages and keyset
pages visit every row once; filters reach the server; fields keep the API's names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest
from cardservice_client import AuthenticatedClient, pages
from cardservice_client.api.cards import buy_cards, get_card, list_cards
from cardservice_client.api.dictionaries import list_bins
from cardservice_client.api.transactions import list_transactions
from cardservice_client.client import Raising
from cardservice_client.errors import ApiError
from cardservice_client.models import (
    BuyCardsRequest,
    ErrorBody,
    ListCardsFilters,
    ListCardsFiltersStatus,
    ListTransactionsFilters,
)

from tests.live_server import LiveServer, demo_server

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "clients" / "python" / "README.md"
EXAMPLE = ROOT / "clients" / "examples" / "spend_on_a_new_card.py"


@pytest.fixture(scope="module")
def live(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with demo_server(database_url, tmp_path_factory.mktemp("client-usage-var")) as server:
        yield server


@pytest.fixture
def client(live: LiveServer) -> Iterator[Raising]:
    with AuthenticatedClient(base_url=live.base, token=live.demo_token) as made:
        yield made


def quick_start(tmp_path: Path) -> Path:
    """The README's quick start, the one python block under its heading, as a file."""
    section = README.read_text().split("## Quick start", 1)[1].split("\n## ", 1)[0]
    [code] = re.findall(r"```python\n(.*?)```", section, re.DOTALL)
    script = tmp_path / "quickstart.py"
    script.write_text(code)
    return script


def run(script: Path, live: LiveServer) -> str:
    env = {**os.environ, "CARDSERVICE_URL": live.base, "CARDSERVICE_TOKEN": live.demo_token}
    done = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_readme_quick_start_and_the_example_pass_mypy_strict(tmp_path: Path) -> None:
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            str(quick_start(tmp_path)),
            str(EXAMPLE),
        ],
        env={**os.environ, "MYPYPATH": str(ROOT / "clients" / "python")},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert checked.returncode == 0, checked.stdout
    assert len(EXAMPLE.read_text().splitlines()) >= 60


def test_the_readme_quick_start_runs_as_written(live: LiveServer, tmp_path: Path) -> None:
    out = run(quick_start(tmp_path), live)
    assert re.search(r"^card \d{6}\*{6}\d{4}: 25\.00 USD, charged ", out, re.MULTILINE), out
    assert len(re.findall(r"^\d{4}-\d\d-\d\d", out, re.MULTILINE)) == 5, out
    assert "refused: 422 insufficient_funds: " in out


def test_the_example_script_runs(live: LiveServer) -> None:
    out = run(EXAMPLE, live)
    assert "statuses: pending declined" in out
    assert re.search(
        r"^card \d{6}\*{6}\d{4} on BIN \d{6,8}: 16\.\d\d USD, favorite True$", out, re.MULTILINE
    ), out
    assert "card_purchase pending 3.25 USD" in out and "card_purchase declined 1000.00 USD" in out
    assert "refused: 404 not_found" in out


def test_ids_from_answers_chain_into_requests(client: Raising) -> None:
    account = next(
        a for a in pages.accounts(client) if a.currency == "USD" and a.status == "active"
    )
    usd_bin = next(
        b
        for b in list_bins.sync(client=client).data
        if b.currency == "USD" and b.status == "available"
    )
    body = BuyCardsRequest(account_uuid=account.uuid, bin_uuid=usd_bin.uuid, cards_count=2)
    bought = buy_cards.sync(client=client, body=body)
    by_string = get_card.sync(str(bought.data.cards[0].uuid), client=client)
    by_uuid = get_card.sync(bought.data.cards[1].uuid, client=client)
    assert {by_string.data.uuid, by_uuid.data.uuid} == {c.uuid for c in bought.data.cards}
    assert by_uuid.data.bin == usd_bin.bin and by_uuid.data.account_uuid == account.uuid


def test_an_error_raises_with_its_body(client: Raising) -> None:
    with pytest.raises(ApiError) as raised:
        buy_cards.sync(
            client=client, body=BuyCardsRequest(account_uuid="not-an-id", bin_uuid="nor-this")
        )
    assert raised.value.status_code == 422 and raised.value.code == "validation_error"
    assert set(raised.value.errors) == {"account_uuid", "bin_uuid"}
    assert raised.value.body.success is False and raised.value.message


def test_with_the_option_off_the_error_body_is_returned(live: LiveServer) -> None:
    with AuthenticatedClient(live.base, live.demo_token, raise_on_error=False) as quiet:
        answer = get_card.sync("0b9f3c2e-5d7a-4e21-9c4f-2a6b8d1e7f30", client=quiet)
    assert isinstance(answer, ErrorBody) and answer.code == "not_found"


def test_keyset_pages_visit_every_transaction_once(client: Raising) -> None:
    numbered = [
        row.uuid
        for page in pages.numbered_pages(
            lambda n: list_transactions.sync(client=client, page=n, per_page=7)
        )
        for row in page.data
    ]
    keyset = [row.uuid for row in pages.transactions(client, per_page=7)]
    assert len(numbered) > 7 * 3
    assert keyset == numbered and len(set(keyset)) == len(keyset)


def test_filters_reach_the_server(client: Raising) -> None:
    card = next(pages.cards(client))
    rows = list(
        pages.transactions(client, per_page=3, filters=ListTransactionsFilters(card_uuid=card.uuid))
    )
    assert rows and {row.card_uuid for row in rows} == {card.uuid}
    frozen = ListCardsFilters(status=ListCardsFiltersStatus.FROZEN)
    listed = list_cards.sync(client=client, filters=frozen).data.cards
    assert all(c.status == "frozen" for c in listed)
    assert sum(1 for _ in pages.cards(client)) > len(listed)


def test_amounts_stay_exact(client: Raising) -> None:
    for account in pages.accounts(client, per_page=2):
        assert type(account.balance) is Decimal


def test_cardservice_demo_prints_the_same_token_while_it_is_valid(live: LiveServer) -> None:
    again = live.cli("demo").splitlines()[-1]
    assert again == live.demo_token
    token_file = Path(live.env["CARDSERVICE_VAR_DIR"]) / "demo-token"
    assert token_file.read_text().strip() == live.demo_token

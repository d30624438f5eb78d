"""The generated client (`clients/python`, `make client`) against a live server holding the
demo data: typed calls by operation id, money as Decimal both ways, a receipt's bytes."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from decimal import Decimal

import pytest
from cardservice_client import AuthenticatedClient
from cardservice_client.api.accounts import list_accounts
from cardservice_client.api.cards import buy_cards, get_card
from cardservice_client.api.dictionaries import list_bins
from cardservice_client.api.transactions import get_receipt, list_transactions
from cardservice_client.models import (
    BuyCardsRequest,
    EnvelopeBuyCardsResult,
    EnvelopeCardRecord,
    PagedEnvelopeAccountsPage,
    ReportPage,
)

from tests.live_server import LiveServer, demo_server


@pytest.fixture(scope="module")
def live(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with demo_server(database_url, tmp_path_factory.mktemp("client-var")) as server:
        yield server


@pytest.fixture
def client(live: LiveServer) -> Iterator[AuthenticatedClient]:
    with AuthenticatedClient(base_url=live.base, token=live.demo_token) as made:
        yield made


def test_accounts_arrive_with_decimal_balances(client: AuthenticatedClient) -> None:
    page = list_accounts.sync(client=client, per_page=5)
    assert isinstance(page, PagedEnvelopeAccountsPage)
    assert page.meta.total >= 1 and page.data.items
    for account in page.data.items:
        assert type(account.balance) is Decimal
        assert account.balance == account.balance.quantize(Decimal("0.01"))


def test_buying_a_card_charges_exactly_and_the_card_reads_back(
    client: AuthenticatedClient,
) -> None:
    accounts = list_accounts.sync(client=client, per_page=20)
    assert isinstance(accounts, PagedEnvelopeAccountsPage)
    account = next(a for a in accounts.data.items if a.currency == "USD" and a.status == "active")
    bins = list_bins.sync(client=client)
    assert bins is not None and not isinstance(bins, list)
    usd_bin = next(b for b in bins.data if b.currency == "USD" and b.status == "available")
    body = BuyCardsRequest(
        account_uuid=str(account.uuid),
        bin_uuid=str(usd_bin.uuid),
        start_balance=Decimal("10.10"),
        external_id=f"client-{uuid.uuid4()}",
    )
    bought = buy_cards.sync(client=client, body=body)
    assert isinstance(bought, EnvelopeBuyCardsResult), bought
    [card] = bought.data.cards
    assert card.balance == Decimal("10.10") and type(card.balance) is Decimal
    charge = bought.data.charge
    assert charge.total == charge.fees + charge.start_balance_total
    assert bought.data.account.balance == account.balance - charge.total
    read = get_card.sync(client=client, card_uuid=str(card.uuid))
    assert isinstance(read, EnvelopeCardRecord) and read.data.mask == card.mask


def test_a_receipt_is_read_as_a_jpeg(client: AuthenticatedClient) -> None:
    report = list_transactions.sync(client=client, per_page=1)
    assert isinstance(report, ReportPage)
    [transaction] = report.data
    assert type(transaction.amount) is Decimal
    receipt = get_receipt.sync_detailed(client=client, transaction_uuid=str(transaction.uuid))
    assert receipt.status_code == 200
    assert receipt.headers["content-type"] == "image/jpeg"
    assert receipt.content[:3] == b"\xff\xd8\xff"

"""Fund an account, buy a card, spend on it and read the card's report back: the client's
calls chained, typed end to end (tests/clients/test_python_client_usage.py runs it under `mypy --strict`
and against a live server).

Usage: CARDSERVICE_URL=http://127.0.0.1:8000 CARDSERVICE_TOKEN=cs_... python spend_on_a_new_card.py
"""

from __future__ import annotations

import os
from decimal import Decimal

from cardservice_client import AuthenticatedClient, pages
from cardservice_client.client import Raising
from cardservice_client.api.cards import buy_cards, favorite_cards, get_card
from cardservice_client.api.dictionaries import list_bins
from cardservice_client.api.sandbox import create_sandbox_authorization, create_sandbox_deposit
from cardservice_client.errors import ApiError
from cardservice_client.models import (
    AuthorizationRequest,
    BuyCardsRequest,
    CardRecord,
    DepositRequest,
    FavoriteRequest,
    ListTransactionsFilters,
)


def buy_a_card(client: Raising, currency: str) -> CardRecord:
    account = next(a for a in pages.accounts(client) if a.currency == currency and a.status == "active")
    create_sandbox_deposit.sync(client=client, body=DepositRequest(account_uuid=account.uuid, amount=Decimal("50")))
    bin_ = next(b for b in list_bins.sync(client=client).data if b.currency == currency and b.status == "available")
    order = BuyCardsRequest(account_uuid=account.uuid, bin_uuid=bin_.uuid, start_balance=Decimal("20.00"))
    return buy_cards.sync(client=client, body=order).data.cards[0]


def spend(client: Raising, card: CardRecord, amounts: list[Decimal]) -> list[str]:
    statuses = []
    for amount in amounts:
        purchase = AuthorizationRequest(
            card_uuid=card.uuid, amount=amount, currency=card.currency, merchant_name="Corner Shop"
        )
        statuses.append(create_sandbox_authorization.sync(client=client, body=purchase).data.status.value)
    return statuses


def main() -> None:
    with AuthenticatedClient(os.environ["CARDSERVICE_URL"], os.environ["CARDSERVICE_TOKEN"]) as client:
        card = buy_a_card(client, "USD")
        print("statuses:", *spend(client, card, [Decimal("3.25"), Decimal("1000")]))
        favorite_cards.sync(client=client, body=FavoriteRequest(card_uuids=[card.uuid], is_favorite=True))
        read = get_card.sync(card.uuid, client=client).data
        print(f"card {read.mask} on BIN {read.bin}: {read.balance} {read.currency}, favorite {read.is_favorite}")
        for row in pages.transactions(client, per_page=2, filters=ListTransactionsFilters(card_uuid=card.uuid)):
            print(f"{row.type} {row.status} {row.amount} {row.currency} fee {row.fee}")
        try:
            get_card.sync(read.account_uuid, client=client)
        except ApiError as error:
            print(f"refused: {error.status_code} {error.code}")


if __name__ == "__main__":
    main()

"""Page iterators (hand-written; `make client` copies this file from clients/extras).

`numbered_pages(fetch)` walks a page-numbered list (`/accounts`, `/card`, `/disputes`, ...):
it calls `fetch(1)`, `fetch(2)`, ... up to `meta.last_page`. `keyset_pages(fetch)` walks a
keyset list (`/transaction/report`): `fetch(None)` first, then `fetch(after)` with the
`meta.next_starting_after` of the page before, until it is null; a keyset page costs the
same at any depth. `accounts`, `cards` and `transactions` yield the records themselves.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, Literal, Protocol, TypeVar
from uuid import UUID

from .api.accounts import list_accounts
from .api.cards import list_cards
from .api.transactions import list_transactions
from .client import AuthenticatedClient
from .models.account_record import AccountRecord
from .models.card_record import CardRecord
from .models.list_accounts_filters import ListAccountsFilters
from .models.list_cards_filters import ListCardsFilters
from .models.list_transactions_filters import ListTransactionsFilters
from .models.report_page import ReportPage
from .models.transaction_record import TransactionRecord
from .types import UNSET, Unset


class _NumberedMeta(Protocol):
    @property
    def last_page(self) -> int: ...


class _NumberedPage(Protocol):
    @property
    def meta(self) -> _NumberedMeta: ...


class _KeysetMeta(Protocol):
    @property
    def next_starting_after(self) -> UUID | None: ...


class _KeysetPage(Protocol):
    @property
    def meta(self) -> Any: ...


NumberedPage = TypeVar("NumberedPage", bound=_NumberedPage)
KeysetPage = TypeVar("KeysetPage", bound=_KeysetPage)


def numbered_pages(fetch: Callable[[int], NumberedPage]) -> Iterator[NumberedPage]:
    """Every page of a page-numbered list, from page 1 to `meta.last_page`."""
    number = 1
    while True:
        page = fetch(number)
        yield page
        if number >= page.meta.last_page:
            return
        number += 1


def _following(page: _KeysetPage) -> UUID | None:
    meta: _KeysetMeta = page.meta
    return meta.next_starting_after


def keyset_pages(fetch: Callable[[UUID | None], KeysetPage]) -> Iterator[KeysetPage]:
    """Every page of a keyset list: `fetch(None)`, then `fetch(meta.next_starting_after)`."""
    after: UUID | None = None
    while True:
        page = fetch(after)
        yield page
        after = _following(page)
        if after is None:
            return


async def keyset_pages_async(
    fetch: Callable[[UUID | None], Awaitable[KeysetPage]],
) -> AsyncIterator[KeysetPage]:
    """`keyset_pages` for the `asyncio` functions."""
    after: UUID | None = None
    while True:
        page = await fetch(after)
        yield page
        after = _following(page)
        if after is None:
            return


def accounts(
    client: AuthenticatedClient[Literal[True]],
    *,
    per_page: int = 100,
    filters: ListAccountsFilters | Unset = UNSET,
) -> Iterator[AccountRecord]:
    """Every account of the caller (`GET /accounts` `items`, oldest first), page by page."""
    for page in numbered_pages(
        lambda number: list_accounts.sync(client=client, page=number, per_page=per_page, filters=filters)
    ):
        yield from page.data.items


def cards(
    client: AuthenticatedClient[Literal[True]],
    *,
    per_page: int = 500,
    filters: ListCardsFilters | Unset = UNSET,
) -> Iterator[CardRecord]:
    """Every card of the caller, in the caller's card order, page by page."""
    for page in numbered_pages(
        lambda number: list_cards.sync(client=client, page=number, per_page=per_page, filters=filters)
    ):
        yield from page.data.cards


def transactions(
    client: AuthenticatedClient[Literal[True]],
    *,
    per_page: int = 100,
    filters: ListTransactionsFilters | Unset = UNSET,
) -> Iterator[TransactionRecord]:
    """Every transaction of the caller, newest first, by keyset pages (`starting_after`)."""

    def fetch(after: UUID | None) -> ReportPage:
        if after is None:
            return list_transactions.sync(client=client, per_page=per_page, filters=filters)
        return list_transactions.sync(  # a keyset page leaves `page` out
            client=client, starting_after=after, page=UNSET, per_page=per_page, filters=filters
        )

    for page in keyset_pages(fetch):
        yield from page.data


__all__ = ["accounts", "cards", "keyset_pages", "keyset_pages_async", "numbered_pages", "transactions"]

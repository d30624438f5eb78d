"""A transaction's event data is its record's JSON, its amounts written as JSON text straight
from minor units (`encoding.minor_json`): byte for byte what the record's Decimals give."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from cardservice.encoding import dumps, minor_json
from cardservice.ledger.minor_units import from_minor
from cardservice.transactions.records import transaction_record_of
from cardservice.transactions.repository import transaction_row

_BIGINT = st.integers(-(2**63), 2**63 - 1)


@given(st.one_of(_BIGINT, st.integers(-1000, 1000)))
def test_minor_units_as_json_text_are_their_decimal(minor: int) -> None:
    assert dumps([minor_json(minor)]) == dumps([from_minor(minor)])


@given(
    st.integers(0, 10**12), st.integers(0, 10**6), st.integers(0, 10**12),
    st.one_of(st.none(), st.integers(0, 10**12)), st.one_of(st.none(), st.text(max_size=5)),
)  # fmt: skip
def test_a_records_json_is_the_same_whatever_makes_its_amounts(
    amount: int, fee: int, shortfall: int, merchant_amount: int | None, rate: str | None
) -> None:
    now = datetime.now(UTC)
    row = transaction_row(
        uuid=uuid.uuid4(), user_uuid=uuid.uuid4(), account_uuid=uuid.uuid4(),
        card_uuid=uuid.uuid4(), type="card_purchase", status="pending", direction="debit",
        amount=amount, authorized_amount=amount, fee=fee, shortfall=shortfall,
        merchant_amount=merchant_amount, merchant_captured_amount=merchant_amount,
        merchant_currency=None if merchant_amount is None else "EUR",
        rate=None if merchant_amount is None else "1.0825", currency="USD",
        merchant_name=rate, hold_expires_at=now, created_at=now, updated_at=now,
        channel="iso8583", network='{"stan":"000001","auth_code":"ABC123"}',
    )  # fmt: skip
    assert dumps(transaction_record_of(row, money=minor_json)) == dumps(transaction_record_of(row))

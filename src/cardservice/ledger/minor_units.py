"""Exact money: integer minor units inside, `Decimal` at the JSON edge, never float."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

MINOR_PER_MAJOR = 100
HUNDREDTHS_OF_PERCENT = 10_000  # a percent fee of 1.5 % is stored as 150


def to_minor(amount: Decimal) -> int:
    """Decimal major units with at most 2 decimals → integer minor units (exact)."""
    scaled = amount * MINOR_PER_MAJOR
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{amount} has more than 2 decimals")
    return int(scaled)


def from_minor(minor: int) -> Decimal:
    """Integer minor units → Decimal major units with 2 decimals (12.50)."""
    return Decimal(minor).scaleb(-2)


def converted(minor: int, rate: Decimal) -> int:
    """`minor × rate` in the other currency's minor units, rounded half-up (both ≥ 0)."""
    return int((Decimal(minor) * rate).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def percent_of(minor: int, hundredths_percent: int) -> int:
    """`minor × percent`, rounded half-up to a whole minor unit (both non-negative)."""
    if minor < 0 or hundredths_percent < 0:
        raise ValueError("percent_of takes non-negative operands")
    return (minor * hundredths_percent * 2 + HUNDREDTHS_OF_PERCENT) // (2 * HUNDREDTHS_OF_PERCENT)

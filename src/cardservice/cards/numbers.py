"""Card numbers: BIN prefix, random body, Luhn check digit; only masks leave the service."""

from __future__ import annotations

import secrets

from cardservice.security import PAN_LENGTH


def luhn_check_digit(partial: str) -> str:
    """The digit that makes `partial + digit` pass the Luhn check."""
    total = 0
    for index, char in enumerate(reversed(partial)):
        digit = int(char)
        if index % 2 == 0:  # these positions are doubled once the check digit is appended
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return str((10 - total % 10) % 10)


def luhn_valid(number: str) -> bool:
    return number.isdigit() and luhn_check_digit(number[:-1]) == number[-1]


def generate_pan(bin_prefix: str, length: int = PAN_LENGTH) -> str:
    """A random card number in the BIN's range with a valid Luhn digit."""
    body = "".join(str(secrets.randbelow(10)) for _ in range(length - len(bin_prefix) - 1))
    partial = bin_prefix + body
    return partial + luhn_check_digit(partial)

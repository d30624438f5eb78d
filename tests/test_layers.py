"""The layers, checked on the source (docs/architecture.md, "The layers, checked").

SQL statements — string literals that start with SELECT, INSERT, UPDATE, DELETE or WITH —
live only in a domain's `repository.py`, in `transactions/locks.py` (the lock order's
statements), in `ledger/`, in the migrations and in `db.py`/`sql.py`. The import contracts
are checked by `make lint` (import-linter, `[tool.importlinter]` in pyproject.toml).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "cardservice"
STATEMENT = re.compile(
    r"^\s*\(?\s*(SELECT\b|INSERT INTO\b|UPDATE \w+ SET\b|DELETE FROM\b|WITH \w+)"
)


def _allowed(path: Path) -> bool:
    relative = path.relative_to(SRC)
    top = relative.parts[0]
    return (
        top in ("ledger", "migrations")
        or relative.name == "repository.py"
        or str(relative) in ("db.py", "sql.py", "transactions/locks.py")
    )


def _literals(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string literal's text (an f-string's literal start) with its line."""
    found: list[tuple[int, str]] = []
    in_fstring: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            parts = node.values
            for part in parts:
                in_fstring.add(id(part))
            if parts and isinstance(parts[0], ast.Constant) and isinstance(parts[0].value, str):
                found.append((node.lineno, parts[0].value))
    for node in ast.walk(tree):
        is_text = isinstance(node, ast.Constant) and isinstance(node.value, str)
        if is_text and id(node) not in in_fstring:
            found.append((node.lineno, node.value))
    return found


def sql_outside_repositories() -> list[str]:
    """`path:line` of every SQL literal outside the places allowed to hold one."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if _allowed(path):
            continue
        tree = ast.parse(path.read_text(), str(path))
        for line, text in _literals(tree):
            if STATEMENT.match(text):
                offenders.append(f"{path.relative_to(SRC)}:{line}")
    return offenders


def test_sql_statements_live_in_repositories() -> None:
    assert sql_outside_repositories() == []


@pytest.mark.parametrize(
    ("text", "is_sql"),
    [
        ("SELECT 1", True),
        ("\n  SELECT uuid FROM cards", True),
        ("UPDATE cards SET status = $2", True),
        ("DELETE FROM events WHERE id IN ", True),
        ("DELETE", False),  # an HTTP method
        ("WITH due AS (SELECT 1) SELECT * FROM due", True),
        ("Selected cards", False),
        ("Update your card", False),
        ("Delete the endpoint", False),
    ],
)
def test_the_check_knows_a_statement(text: str, is_sql: bool) -> None:
    assert bool(STATEMENT.match(text)) is is_sql

"""The money path cannot be bypassed (docs/architecture.md#the-use-cases-and-their-single-entries):
the engine, the purchase's state machine, the lock order's module and the holds are imported
only by modules of their own package; every other package calls the entries that
`cardservice.transactions` names. import-linter's `protected` contract (pyproject.toml) says
the same; this test lists the importers, so a failure names them."""

from __future__ import annotations

import ast
from pathlib import Path

import cardservice
import cardservice.transactions

SRC = Path(cardservice.__file__).parent
PACKAGE = "cardservice.transactions"
PROTECTED = {f"{PACKAGE}.{name}" for name in ("engine", "lifecycle", "locks", "holds")}


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(tree: ast.AST) -> set[str]:
    """Every module a module imports: `import a.b`, `from a.b import c` (a.b, and a.b.c in
    case c is a module)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def importers() -> dict[str, set[str]]:
    """Protected module → the modules of `src/cardservice` that import it."""
    found: dict[str, set[str]] = {name: set() for name in PROTECTED}
    for path in SRC.rglob("*.py"):
        module = _module_name(path)
        for name in _imported(ast.parse(path.read_text(), str(path))) & PROTECTED:
            found[name].add(module)
    return found


def test_the_money_paths_insides_are_imported_only_inside_their_package() -> None:
    found = importers()
    outside = {
        f"{importer} imports {name}"
        for name, modules in found.items()
        for importer in modules
        if importer != PACKAGE and not importer.startswith(f"{PACKAGE}.")
    }
    assert not outside, "call the entries cardservice.transactions names instead:\n" + "\n".join(
        sorted(outside)
    )
    # the walk sees the package's own importers: the check is not vacuous
    assert f"{PACKAGE}.service" in found[f"{PACKAGE}.lifecycle"]
    assert f"{PACKAGE}.lifecycle" in found[f"{PACKAGE}.holds"]


def test_the_package_names_one_entry_per_money_use_case() -> None:
    entries = {
        "authorize_card", "authorize_opened", "rules_first", "capture", "capture_purchase",
        "reverse", "reverse_purchase", "refund", "refund_purchase", "force_post",
        "credit_card", "recapture", "expire_due_holds", "sweep_expired_holds",
    }  # fmt: skip
    assert entries <= set(cardservice.transactions.__all__)
    assert all(callable(getattr(cardservice.transactions, name)) for name in entries)

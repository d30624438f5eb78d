"""The layers, checked on the source (docs/architecture.md, "The layers, checked").

SQL statements — string literals that start with SELECT, INSERT, UPDATE, DELETE or WITH —
live only in a domain's `repository.py`, in `transactions/locks.py` (the lock order's
statements), in `ledger/`, in the migrations and in `db/`; and only those places
*execute* a statement (`.execute`, `.rows`, `.row`, `.value`, `.scan` on a connection) or
import a repository's SQL text. The import contracts are checked by `make lint`
(import-linter, `[tool.importlinter]` in pyproject.toml).
"""

from __future__ import annotations

import ast
import importlib
import re
import tomllib
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
        top in ("ledger", "migrations", "db")
        or relative.name == "repository.py"
        or str(relative) == "transactions/locks.py"
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


EXECUTING = frozenset({"execute", "rows", "row", "value", "scan"})
# Outside the places that hold statements, only these modules may run one:
EXECUTES_ANYWAY = {
    "catalogue/loader.py": "the SQLAlchemy Core sync loader of shipped reference data (migrations)",
}


def statements_run_outside_repositories() -> list[str]:
    """`path:line` of every call of `.execute/.rows/.row/.value/.scan` outside the places
    allowed to run a statement (on anything: a service hands its work to a repository)."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        relative = str(path.relative_to(SRC))
        if _allowed(path) or relative in EXECUTES_ANYWAY:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            if node.func.attr in EXECUTING:
                offenders.append(f"{relative}:{node.lineno}")
    return offenders


def test_statements_run_only_in_repositories() -> None:
    assert statements_run_outside_repositories() == []


def _holds_statements(module: str) -> bool:
    return module.endswith(".repository") or module == "cardservice.transactions.locks"


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_from(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _is_sql_text(module: str, name: str) -> bool:
    value = getattr(importlib.import_module(module), name, None)
    return name.isupper() and isinstance(value, str)


def sql_text_imported_outside_repositories() -> list[str]:
    """`path:line name` of every upper-case string (a statement's text) taken from a
    repository or `transactions/locks.py` by a module that does not hold statements:
    `from ….repository import SQL` or `repository.SQL` on an imported repository module."""
    offenders = []
    for path in sorted(SRC.rglob("*.py")):
        if _allowed(path):
            continue
        relative = path.relative_to(SRC)
        tree = ast.parse(path.read_text(), str(path))
        aliases: dict[str, str] = {}  # a repository module imported whole, by its local name
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = _imported_from(node, path)
                for alias in node.names:
                    whole = f"{source}.{alias.name}"
                    if _holds_statements(whole):
                        aliases[alias.asname or alias.name] = whole
                    elif _holds_statements(source) and _is_sql_text(source, alias.name):
                        offenders.append(f"{relative}:{node.lineno} {alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname and _holds_statements(alias.name):
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and _is_sql_text(aliases[node.value.id], node.attr)
            ):
                offenders.append(f"{relative}:{node.lineno} {node.attr}")
    return offenders


def test_statements_text_stays_in_repositories() -> None:
    assert sql_text_imported_outside_repositories() == []


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


def _layers_contract() -> list[str]:
    config = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers" and "containers" not in c)
    return [name.strip() for layer in layers["layers"] for name in re.split(r"[|:]", layer)]


def test_every_package_and_root_module_has_a_layer() -> None:
    """The layers contract names every package and root module of cardservice, so a new
    package cannot sit outside the contracts that `make lint` checks."""
    top = {
        f"cardservice.{path.stem if path.is_file() else path.name}"
        for path in SRC.iterdir()
        if (path.suffix == ".py" and path.name != "__init__.py")
        or (path.is_dir() and (path / "__init__.py").exists())
    }
    assert top - set(_layers_contract()) == set()


def test_the_root_stays_small() -> None:
    """The root holds only what the whole app shares (docs/architecture.md)."""
    assert len([path for path in SRC.glob("*.py") if path.name != "__init__.py"]) <= 8


# What a package exports (docs/architecture.md#what-a-package-exports): these modules are
# imported only by modules of their own top-level package; others use what its `__init__`
# names. Every `repository` module is one, wherever it sits.
PRIVATE_INSIDES = frozenset(
    {
        "cardservice.ledger.entries",
        "cardservice.transactions.engine",
        "cardservice.transactions.lifecycle",
        "cardservice.transactions.locks",
        "cardservice.transactions.holds",
    }
)


def _package_of(module: str) -> str:
    return ".".join(module.split(".")[:2])


def private_modules() -> set[str]:
    """Every module only its own package may import: the repositories and PRIVATE_INSIDES."""
    found = {
        _module_of(path) for path in SRC.rglob("repository.py") if "migrations" not in path.parts
    }
    return found | PRIVATE_INSIDES


def _imports(tree: ast.AST, path: Path) -> set[str]:
    """Every module a module's source imports (`import a.b`, `from a.b import c`: a.b and
    a.b.c, c may be a module), function-level and TYPE_CHECKING imports too."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _imported_from(node, path)
            names.update({source, *(f"{source}.{alias.name}" for alias in node.names)})
    return names


def outside_importers(private: set[str], sources: dict[Path, str]) -> list[str]:
    """`importer imports module` for each import of a private module by a module of another
    top-level package, among `sources` (path → its text)."""
    return sorted(
        f"{_module_of(path)} imports {name}"
        for path, text in sources.items()
        for name in _imports(ast.parse(text, str(path)), path) & private
        if _package_of(_module_of(path)) != _package_of(name)
    )


def test_a_packages_insides_are_imported_only_inside_it() -> None:
    sources = {path: path.read_text() for path in sorted(SRC.rglob("*.py"))}
    outside = outside_importers(private_modules(), sources)
    assert outside == [], "use what the package's __init__ names instead:\n" + "\n".join(outside)


def test_the_check_finds_each_spelling_of_an_import_from_outside() -> None:
    private = private_modules()
    probe = SRC / "demo" / "probe.py"  # where such a module would sit (never written)
    spellings = [
        "import cardservice.cards.repository\n",
        "from cardservice.cards import repository as cards_repository\n",
        "def later() -> None:\n    from cardservice.cards.repository import holder_of\n",
        "from cardservice.ledger.entries import post_entry\n",
        "from cardservice.transactions.card_testing import repository\n",
    ]
    for text in spellings:
        assert outside_importers(private, {probe: text}) != [], text
    # inside its own package, or through the package's names, it is no offence
    inside = {SRC / "cards" / "probe.py": "from cardservice.cards import repository\n"}
    assert outside_importers(private, inside) == []
    assert outside_importers(private, {probe: "from cardservice.cards import holder_of\n"}) == []


def _protected_contracts() -> dict[str, set[str]]:
    """Protected module → its contract's allowed importers, from `[tool.importlinter]`."""
    config = tomllib.loads((SRC.parents[1] / "pyproject.toml").read_text())
    found: dict[str, set[str]] = {}
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "protected":
            for module in contract["protected_modules"]:
                found.setdefault(module, set()).update(contract["allowed_importers"])
    return found


def test_every_packages_insides_have_their_contract() -> None:
    """`make lint` holds the same rule: each private module has a `protected` contract that
    allows its own package only, so a new package's repository cannot be left out."""
    contracts = _protected_contracts()
    wrong = sorted(
        f"{name}: allowed {sorted(contracts.get(name, set()))}"
        for name in private_modules()
        if contracts.get(name) != {_package_of(name)}
    )
    assert wrong == []

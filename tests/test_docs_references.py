"""The project explains itself with what it holds (docs/api.md#the-api): every Python file, package
directory and module (`cardservice.…`, or `pkg.module.name` in backticks) that a docstring or
comment of `src/`, or a page of `docs/` or the README, names exists; every
`docs/<page>.md#<anchor>` cited anywhere is a heading of that page; nothing cites a contract
kept outside the repository; `src/` cites no dated run log of `docs/results/`
(docs/performance.md holds the figures it rests on)."""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGE_ROOT = ROOT / "src" / "cardservice"
SCANNED = ("src", "tests", "bench", "scripts", "docs", "clients")
TEXT_SUFFIXES = {".py", ".md", ".toml", ".jinja", ".html", ".txt", ".json", ".yml", ".yaml"}
OUTSIDE = "API" + ".md"  # the contract's outside copy (spelled so this file does not cite it)

# a Python file, bare or with its directories: `transactions/control_checks.py`, `main.py`; after
# `…`, the end of a file's name (`…_03_balanced_entries.py`)
PY_FILE = re.compile(r"(?<![\w./*-])((?:[\w.-]+/)*…?[A-Za-z_]\w*\.py)(?![\w.]*\w)")
# a package directory: `transactions/card_testing/`, `network/` (not a URL, not an API path)
PACKAGE = re.compile(r"(?<![\w./~:@$<{\\%-])((?:[a-z_][a-z0-9_]*/)+)(?![\w{.*<-])")
MODULE = re.compile(r"(?<![\w.@/])cardservice(?:\.[A-Za-z_]\w*)+")
# a module's name without `cardservice.` in backticks: `ledger.minor_units.from_minor`
DOTTED = re.compile(r"`([a-z_][a-z0-9_]*(?:\.[A-Za-z_]\w*)+)")
# first segments that prose uses for something else than the package: `db.reader`, `db.transact`
# (a `Database` named db), OpenTelemetry's attribute names (`http.response.status_code`)
NOT_MODULES = re.compile(r"db\.|http\.(request|response|route)\b")
CITATION = re.compile(r"docs/([\w-]+)\.md#([\w-]+)")
MARKDOWN_LINK = re.compile(r"\]\((?:\.\./)?([\w-]+\.md)?#([\w-]+)\)")
RUNTIME = "var/"  # the working directory's run-time files (CARDSERVICE_VAR_DIR)


def _repository_files(suffixes: set[str]) -> Iterator[Path]:
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and path.suffix in suffixes and "__pycache__" not in path.parts:
                yield path
    for name in ("README.md", "Makefile", "pyproject.toml"):
        yield ROOT / name


@cache
def _python_names() -> frozenset[str]:
    return frozenset(path.name for path in _repository_files({".py"}))


@cache
def _directory_names() -> frozenset[str]:
    return frozenset(
        path.name + "/"
        for top in SCANNED
        for path in (ROOT / top).rglob("*")
        if path.is_dir() and "__pycache__" not in path.parts
    )


def _prose_of_python(path: Path) -> Iterator[tuple[int, str]]:
    """The docstrings (triple-quoted strings) and comments of a Python file, with their first
    line: what it says, not its values (a logger's or a host's dotted name)."""
    source = path.read_text(encoding="utf-8")
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT or (
            token.type == tokenize.STRING and re.match(r"[rRbBuUfF]*(\"\"\"|\'\'\')", token.string)
        ):
            yield token.start[0], token.string


def _prose_of_markdown(path: Path) -> Iterator[tuple[int, str]]:
    yield from enumerate(path.read_text(encoding="utf-8").splitlines(), 1)


def _named_texts() -> Iterator[tuple[Path, int, str]]:
    """Where the project names its own files: src's prose, docs/*.md, the README."""
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        for number, text in _prose_of_python(path):
            yield path, number, text
    for path in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        for number, text in _prose_of_markdown(path):
            yield path, number, text


def _bases(citing: Path) -> list[Path]:
    """Where a relative name may start: the repository, `src/`, the package, and the citing
    file's directory and each directory above it."""
    return [ROOT, ROOT / "src", PACKAGE_ROOT, *citing.parents]


def _file_exists(name: str, citing: Path) -> bool:
    if "…" in name:
        return any(other.endswith(name.split("…")[1]) for other in _python_names())
    if "/" not in name:
        return name in _python_names()
    return any((base / name).is_file() for base in _bases(citing))


def _package_exists(name: str, citing: Path) -> bool:
    if name.startswith(RUNTIME) or (name.count("/") == 1 and name in _directory_names()):
        return True
    return any((base / name).is_dir() for base in _bases(citing))


def _module_exists(dotted: str) -> bool:
    """`cardservice.a.b.name`: packages, then a module, then a name it defines or imports."""
    here = PACKAGE_ROOT
    for index, part in enumerate(dotted.split(".")[1:]):
        if (here / part).is_dir():
            here = here / part
            continue
        module = here / f"{part}.py"
        if module.is_file():
            rest = dotted.split(".")[index + 2 :]
            return not rest or re.search(rf"\b{rest[0]}\b", module.read_text()) is not None
        init = here / "__init__.py"
        return init.is_file() and re.search(rf"\b{part}\b", init.read_text()) is not None
    return True


def _dotted_module(name: str) -> bool:
    """Whether `name` (no `cardservice.`) is meant as a module path: its first segment is a
    package of cardservice and it names a module of it or a name inside one (`pkg.mod`,
    `pkg.mod.name`), not a table's column (`cards.pan_fingerprint`)."""
    parts = name.split(".")
    if NOT_MODULES.match(name) or not (PACKAGE_ROOT / parts[0]).is_dir():
        return False
    return len(parts) >= 3 or (PACKAGE_ROOT / parts[0] / f"{parts[1]}.py").is_file()


def _where(path: Path, number: int) -> str:
    return f"{path.relative_to(ROOT)}:{number}"


def test_every_file_package_and_module_named_exists() -> None:
    missing = []
    for path, number, text in _named_texts():
        for name in PY_FILE.findall(text):
            if not _file_exists(name, path):
                missing.append(f"{_where(path, number)}: {name}")
        for name in PACKAGE.findall(text):
            if not _package_exists(name, path):
                missing.append(f"{_where(path, number)}: {name}")
        for dotted in MODULE.findall(text):
            if not _module_exists(dotted):
                missing.append(f"{_where(path, number)}: {dotted}")
        for dotted in DOTTED.findall(text):
            if _dotted_module(dotted) and not _module_exists(f"cardservice.{dotted}"):
                missing.append(f"{_where(path, number)}: {dotted}")
    assert missing == [], "named but not in the repository:\n" + "\n".join(missing)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation gone, spaces as `-`."""
    text = heading.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


@cache
def anchors(page: str) -> frozenset[str]:
    """The anchors of docs/<page>: one per heading outside code blocks (a repeated heading
    gets `-1`, `-2`, … as GitHub numbers them)."""
    seen: dict[str, int] = {}
    found: set[str] = set()
    fenced = False
    for line in (ROOT / "docs" / page).read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            base = slug(line.lstrip("#"))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def test_slug_is_githubs() -> None:
    assert slug("Lifecycle: `PATCH /card/{cardUuid}`") == "lifecycle-patch-cardcarduuid"
    assert slug("The HTTP edge's share") == "the-http-edges-share"
    assert slug("Balances at any instant (`ledger/books.py`)") == (
        "balances-at-any-instant-ledgerbookspy"
    )


def test_every_cited_anchor_is_a_heading() -> None:
    broken = []
    for path in _repository_files(TEXT_SUFFIXES):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            if line.endswith("-") and number < len(lines):
                # the generated client wraps its docstrings at hyphens, inside an anchor too
                line += lines[number].lstrip()
            for page, anchor in CITATION.findall(line):
                if not (ROOT / "docs" / f"{page}.md").is_file() or anchor not in anchors(
                    f"{page}.md"
                ):
                    broken.append(f"{_where(path, number)}: docs/{page}.md#{anchor}")
            if path.suffix == ".md" and path.parent.is_relative_to(ROOT / "docs"):
                for page, anchor in MARKDOWN_LINK.findall(line):
                    target = page or path.name
                    if (ROOT / "docs" / target).is_file() and anchor not in anchors(target):
                        broken.append(f"{_where(path, number)}: {target}#{anchor}")
    assert broken == [], "cited headings that do not exist:\n" + "\n".join(broken)


def test_nothing_cites_a_contract_outside_the_repository() -> None:
    citing = [
        _where(path, number)
        for path in _repository_files(TEXT_SUFFIXES)
        if path != Path(__file__)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if OUTSIDE in line
    ]
    assert citing == [], "cite docs/<page>.md#<anchor> instead:\n" + "\n".join(citing)


def test_src_cites_no_dated_run_log() -> None:
    citing = [
        _where(path, number)
        for path in sorted(PACKAGE_ROOT.rglob("*.py"))
        for number, text in _prose_of_python(path)
        if "docs/results/" in text
    ]
    assert citing == [], "cite docs/performance.md, which holds the figures:\n" + "\n".join(citing)

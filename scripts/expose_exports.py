"""Route other packages' imports of a package's internal modules through the package's
`__init__` (docs/architecture.md#what-a-package-exports): for each `package.module` given, the
names that modules outside `package` import from `cardservice.package.module` are re-exported
by `cardservice/package/__init__.py` (listed in its `__all__`), and those imports rewritten
to `from cardservice.package import …`. Run once per change of what a package exports:

    python -m scripts.expose_exports transactions.three_ds cards.schemas …
"""

from __future__ import annotations

import ast
import re
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1] / "src" / "cardservice"


def _imports_of(target: str) -> tuple[dict[Path, list[ast.ImportFrom]], set[str]]:
    """The `from cardservice.<target> import …` statements outside the target's package (by
    file), and the names they import."""
    package = target.split(".")[0]
    found: dict[Path, list[ast.ImportFrom]] = defaultdict(list)
    names: set[str] = set()
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if path.relative_to(PACKAGE_ROOT).parts[0] in (package, "migrations"):
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module == f"cardservice.{target}":
                found[path].append(node)
                names.update(alias.name for alias in node.names)
    return found, names


def _export(package: str, module: str, names: set[str]) -> None:
    """Add `from cardservice.package.module import names` to the package's `__init__` and
    the names to its `__all__`."""
    init = PACKAGE_ROOT / package / "__init__.py"
    text = init.read_text()
    tree = ast.parse(text)
    exported: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            exported = list(ast.literal_eval(node.value))
            lines = text.splitlines(keepends=True)
            text = "".join(lines[: node.lineno - 1] + lines[node.end_lineno :])
    line = f"from cardservice.{package}.{module} import {', '.join(sorted(names))}\n"
    body = text.rstrip("\n") + "\n"
    if "\nfrom " not in "\n" + body and "\nimport " not in "\n" + body:
        body += "\nfrom __future__ import annotations\n\n"
    body += line
    exported = sorted(set(exported) | names)
    body += "\n__all__ = [" + ", ".join(f'"{name}"' for name in exported) + "]\n"
    init.write_text(body)


def _rewrite(path: Path, nodes: list[ast.ImportFrom], package: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    for node in sorted(nodes, key=lambda n: n.lineno, reverse=True):
        indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)  # type: ignore[union-attr]
        names = ", ".join(
            alias.name + (f" as {alias.asname}" if alias.asname else "") for alias in node.names
        )
        lines[node.lineno - 1 : node.end_lineno] = [
            f"{indent}from cardservice.{package} import {names}\n"
        ]
    path.write_text("".join(lines))


def main(targets: list[str]) -> None:
    for target in targets:
        package, module = target.split(".", 1)
        found, names = _imports_of(target)
        if not names:
            continue
        _export(package, module, names)
        for path, nodes in found.items():
            _rewrite(path, nodes, package)
        print(f"{target}: {len(names)} names, {sum(map(len, found.values()))} imports")


if __name__ == "__main__":
    main(sys.argv[1:])

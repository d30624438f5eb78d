"""Count the imports of another package's internal modules in `src/cardservice`
(docs/architecture.md#what-a-package-exports): an import by a module outside package `B` of
`cardservice.B.module` (or `from cardservice.B import module`) reaches into `B`; one of
`cardservice.B` (its `__init__`, what it names public) does not.

    python -m scripts.cross_imports            # the total and the most imported modules
    python -m scripts.cross_imports --all      # every imported module with its count
    python -m scripts.cross_imports --src DIR  # another tree's `cardservice` (e.g. main's)
    python -m scripts.cross_imports --domains  # only imports into the domains' floor
"""

from __future__ import annotations

import argparse
import ast
import tomllib
from collections import Counter
from pathlib import Path

PACKAGE_ROOT = Path(__file__).resolve().parents[1] / "src" / "cardservice"


def _package_of(root: Path, path: Path) -> str | None:
    """The top-level package a source file belongs to (None for a root module)."""
    parts = path.relative_to(root).parts
    return parts[0] if len(parts) > 1 else None


def _is_module(root: Path, package: str, name: str) -> bool:
    base = root / package / name
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def reaches(root: Path = PACKAGE_ROOT) -> Counter[str]:
    """`cardservice.B.module` → how many import statements outside `B` name it."""
    counted: Counter[str] = Counter()
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        own = _package_of(root, path)
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[tuple[str, ...]] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                parts = tuple(node.module.split("."))
                if parts[0] != "cardservice" or len(parts) < 2:
                    continue
                if len(parts) >= 3:
                    targets.append(parts[1:3])
                else:  # from cardservice.B import module?
                    targets.extend(
                        (parts[1], alias.name)
                        for alias in node.names
                        if _is_module(root, parts[1], alias.name)
                    )
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    parts = tuple(alias.name.split("."))
                    if parts[0] == "cardservice" and len(parts) >= 3:
                        targets.append(parts[1:3])
            for package, module in targets:
                if package != own and (root / package).is_dir():
                    counted[f"cardservice.{package}.{module}"] += 1
    return counted


def domains() -> set[str]:
    """The packages of the domains' floor of the layers contract (the one with `transactions`)."""
    config = tomllib.loads((PACKAGE_ROOT.parents[1] / "pyproject.toml").read_text())
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    floor = next(layer for layer in layers if "cardservice.transactions" in layer)
    return {name.strip().removeprefix("cardservice.") for name in floor.split(":")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every module, not the top 25")
    parser.add_argument("--src", type=Path, default=PACKAGE_ROOT, help="a cardservice package")
    parser.add_argument("--domains", action="store_true", help="only into the domains' floor")
    args = parser.parse_args()
    counted = reaches(args.src)
    if args.domains:
        floor = domains()
        counted = Counter({m: n for m, n in counted.items() if m.split(".")[1] in floor})
    print(f"{sum(counted.values())} imports of another package's internal modules")
    for module, count in counted.most_common(None if args.all else 25):
        print(f"{count:4d}  {module}")


if __name__ == "__main__":
    main()

"""`make client`'s last step (a post hook, run in clients/python): what templates cannot say.

* Fields keep the API's names: the generator writes `bin_` and `type_` (they shadow builtins);
  the client says `bin` and `type`, as the JSON does. A model with a `type` field names the
  builtin `builtins.type` in its own annotations.
* The hand-written modules in clients/extras (page iterators) are copied into the package.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

RENAMED = re.compile(r"\b(bin|type)_\b")
PACKAGE = Path("cardservice_client")
EXTRAS = Path(__file__).parent / "extras"


def _rename_fields(path: Path) -> None:
    text = path.read_text()
    renamed = RENAMED.sub(r"\1", text)
    if renamed == text:
        return
    if re.search(r"^    type: ", renamed, re.MULTILINE):
        renamed = renamed.replace("cls: type[T]", "cls: builtins.type[T]")
        renamed = renamed.replace("from __future__ import annotations\n", "from __future__ import annotations\n\nimport builtins\n", 1)
    path.write_text(renamed)


def main() -> None:
    for path in PACKAGE.rglob("*.py"):
        _rename_fields(path)
    for extra in sorted(EXTRAS.glob("*.py")):
        shutil.copyfile(extra, PACKAGE / extra.name)


if __name__ == "__main__":
    main()

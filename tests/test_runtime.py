"""The composition root (docs/architecture.md#the-composition-root): one module builds a
process's runtime, and nothing registers itself at import time."""

from __future__ import annotations

import ast
from pathlib import Path

from cardservice import runtime
from cardservice.config import Settings
from cardservice.events.outbox import complete_events
from cardservice.ledger.sealer import SEAL_JOB
from cardservice.transactions.expiry import HOLD_SWEEP_JOB

SRC = Path(__file__).resolve().parents[1] / "src" / "cardservice"


def _calls_of(name: str) -> list[str]:
    """`path:line` of every call of a bare or attribute name `name` under src/."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call):
                called = node.func
                named = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
                if named == name:
                    found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    return found


def test_only_the_composition_root_builds_a_database() -> None:
    """A `Database` built elsewhere would miss the commit hooks (the outbox's events)."""
    assert [call.split(":")[0] for call in _calls_of("Database")] == ["runtime.py"]


def test_nothing_registers_itself_at_import() -> None:
    """No module-level call adds a hook or a job: the root lists them."""
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(), str(path)).body:
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                called = ast.unparse(node.value.func)
                assert "register" not in called or "url_convertor" in called, (path, called)
                assert not called.endswith(("add_commit_hook", "add_job")), (path, called)


async def test_the_runtime_has_the_hooks_and_jobs(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/r.db", var_dir=tmp_path, key_file=tmp_path / "key"
    )
    parts = runtime.build(settings)
    try:
        assert parts.db.commit_hooks == (complete_events,)
        assert {SEAL_JOB, HOLD_SWEEP_JOB} <= set(parts.jobs)
        assert len({job.name for job in parts.jobs}) == len(parts.jobs)
    finally:
        await parts.aclose()

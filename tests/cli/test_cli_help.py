"""The command line's help: every command, option and argument explained (issue 33), and a
usage mistake refused in one line with exit status 2 — in process, without a database."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from cardservice.cli.main import cardservice, main


def _commands(
    command: click.Command, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    yield path, command
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            yield from _commands(sub, (*path, name))


COMMANDS = list(_commands(cardservice))
DOC = Path(__file__).parents[2] / "docs" / "cli.md"


def test_the_walk_finds_every_command() -> None:
    paths = {" ".join(path) for path, _command in COMMANDS}
    assert {
        "serve", "worker", "db upgrade", "demo", "openapi", "dashboard link", "users create",
        "accounts create", "accounts set-status", "accounts list", "cards list", "cards show",
        "tokens issue", "tokens revoke", "mfa issue", "mfa revoke", "credentials prune",
        "keys generate", "keys generate-cvk", "keys fingerprint-key", "keys rotate",
        "keys create", "keys check", "ledger verify", "ledger export", "network send",
        "network run", "operator-keys create", "operator-keys list", "operator-keys revoke",
        "simulate deposit", "simulate authorize", "simulate settle", "simulate reverse",
        "simulate refund", "simulate 3ds", "simulate expire-holds", "topups expire",
        "clearing ingest",
    } <= paths  # fmt: skip


@pytest.mark.parametrize(("path", "command"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_help_explains_every_option_and_argument(
    path: tuple[str, ...], command: click.Command, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*path, "--help"]) == 0
    shown = " ".join(capsys.readouterr().out.split())  # unwrapped
    assert (command.help or "").strip(), f"{path}: no help"
    for param in command.params:
        if isinstance(param, click.Option):
            assert (param.help or "").strip(), f"{path}: {param.opts} has no help"
            assert " ".join(param.help.split()) in shown
            assert all(opt in shown for opt in param.opts)
        else:  # an argument is named, in capitals, in the command's help
            assert param.human_readable_name in (command.help or ""), (path, param.name)
            assert param.human_readable_name in shown


def test_docs_cli_lists_every_command() -> None:
    text = DOC.read_text()
    for path, command in COMMANDS:
        if isinstance(command, click.Group):
            continue
        *group, name = path
        line = rf"^cardservice {' '.join(group)}\b.*\b{re.escape(name)}\b"
        assert re.search(line, text, re.M), f"docs/cli.md lacks `cardservice {' '.join(path)}`"


def test_a_usage_mistake_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["accounts", "create", "--name", "A", "--currency", "USD"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "cardservice accounts create: error: Missing option '--email'.\n"
    assert main(["simulate", "deposit", "--account", "x", "--amount", "1.001", "--email", "e"]) == 2
    assert capsys.readouterr().err == (
        "cardservice simulate deposit: error: Invalid value for '--account': "
        "'x' is not a valid UUID.\n"
    )
    assert main(["nope"]) == 2
    assert capsys.readouterr().err == "cardservice: error: No such command 'nope'.\n"
    assert main([]) == 2  # no command: the overview, on stderr
    out, err = capsys.readouterr()
    assert out == "" and "Commands:" in err and "cards" in err

"""The `cardservice` command, run as a real process against the test database (`_cli`), and
in process for the commands' own tests (`Command`)."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys

import httpx
import pytest
from fastapi import FastAPI

from cardservice.cli.main import main
from cardservice.config import Settings
from tests.pseudo_terminal import run_on_a_terminal


def cli_env(settings: Settings) -> dict[str, str]:
    """The environment a `cardservice` command needs to work on `settings`' database."""
    return {
        **os.environ,
        "CARDSERVICE_DATABASE_URL": settings.database_url,
        "CARDSERVICE_VAR_DIR": str(settings.var_dir),
        "CARDSERVICE_ENCRYPTION_KEY": settings.encryption_key,
        "CARDSERVICE_FINGERPRINT_KEY": settings.fingerprint_key,
        "CARDSERVICE_CVK": settings.cvk,
        "CARDSERVICE_LOG_LEVEL": "WARNING",
        # outbound calls (the decision endpoint) as the test's app makes them: on loopback
        "CARDSERVICE_WEBHOOK_ALLOW_PRIVATE": str(settings.private_urls_allowed).lower(),
    }


def _exit_status(args: list[str]) -> int:
    """`main(args)`'s exit status as the interpreter makes it of `raise SystemExit(main())`
    (src/cardservice/__main__.py): a command's own `SystemExit` included."""
    try:
        return main(args)
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            return exit.code or 0
        print(exit.code, file=sys.stderr)
        return 1


class Command:
    """`cardservice …` in this process (`cli.main` on a thread, as `python -m cardservice`
    runs it), on the test's database: exit status, stdout, stderr. Cheaper than `_cli`'s
    process, for the commands' own tests; `_cli` proves the process (exit codes, streams)."""

    def __init__(
        self,
        settings: Settings,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        for name, value in cli_env(settings).items():
            if name.startswith("CARDSERVICE_"):
                monkeypatch.setenv(name, value)
        monkeypatch.setenv("CARDSERVICE_LOG_LEVEL", settings.log_level)  # the app's, unchanged
        self._capsys = capsys

    async def __call__(self, *args: str) -> tuple[int, str, str]:
        self._capsys.readouterr()
        code = await asyncio.to_thread(_exit_status, list(args))
        out, err = self._capsys.readouterr()
        return code, out, err

    async def completed(self, *args: str) -> subprocess.CompletedProcess[str]:
        """As `_cli` answers: the exit status and both streams."""
        code, out, err = await self(*args)
        return subprocess.CompletedProcess(["cardservice", *args], code, out, err)

    async def value(self, *args: str) -> str:
        code, out, err = await self(*args)
        assert code == 0 and err == "", err
        [line] = out.splitlines()  # a value alone on stdout
        return line

    async def refused(self, *args: str) -> str:
        code, out, err = await self(*args)
        assert code == 2 and out == "", out
        [line] = err.splitlines()  # one line, no traceback
        return line


def _cli(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardservice", *args],
        env=cli_env(settings),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _value(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout  # a value alone on stdout
    return lines[0]


async def test_users_accounts_tokens_and_mfa(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The commands in process (`Command`); their refusals are the next test's."""
    cli = Command(settings, monkeypatch, capsys)
    user_uuid = await cli.value("users", "create", "--email", "ops@example.com", "--name", "Ops")
    account = await cli.value(
        "accounts",
        "create",
        "--email",
        "ops@example.com",
        "--name",
        "Main",
        "--currency",
        "EUR",
    )
    token = await cli.value("tokens", "issue", "--email", "ops@example.com", "--expires-in", "30d")
    assert token.startswith("cs_")
    headers = {"Authorization": f"Bearer {token}"}
    record = (await client.get(f"/account/{account}", headers=headers)).json()["data"]
    assert record["currency"] == "EUR" and record["owner"]["uuid"] == user_uuid
    assert await cli.value("accounts", "set-status", account, "frozen") == "frozen"
    record = (await client.get(f"/account/{account}", headers=headers)).json()["data"]
    assert record["status"] == "frozen"
    code = await cli.value("mfa", "issue", "--email", "ops@example.com", "--ttl", "60")
    assert (await client.get("/accounts", params={"_code": code})).status_code == 200
    assert await cli.value("tokens", "revoke", token[:11]) == "1"
    assert (await client.get("/accounts", headers=headers)).status_code == 401


async def test_bad_arguments_get_one_line_and_nonzero(
    app: FastAPI,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two refusals as real processes (a value the command's own check refuses, a row that
    is not there: the interpreter's exit status and streams), every refusal in this process
    too (`Command`, the same entry `python -m cardservice` runs), at the logs' level of a
    process (`cli_env`)."""
    cases = [
        ("users", "create", "--email", "not-an-email", "--name", "X"),
        ("accounts", "create", "--email", "nobody@example.com", "--name", "A", "--currency", "USD"),
        ("accounts", "set-status", "not-a-uuid", "active"),
        ("tokens", "issue", "--email", "nobody@example.com", "--expires-in", "soon"),
        ("tokens", "revoke", "cs_unknown1"),
        ("mfa", "issue", "--email", "nobody@example.com", "--ttl", "5"),
    ]
    in_process = Command(settings, monkeypatch, capsys)
    monkeypatch.setenv("CARDSERVICE_LOG_LEVEL", cli_env(settings)["CARDSERVICE_LOG_LEVEL"])
    results = [_cli(settings, *args) for args in cases[:2]]
    results += [await in_process.completed(*args) for args in cases]
    for result in results:
        args = result.args
        assert result.returncode != 0, args
        assert "Traceback" not in result.stderr and result.stdout == ""
        assert len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)


async def test_demo_is_idempotent_and_prints_a_token(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The first `demo` as a process (its streams in a pipe), the second in this process
    (`Command`): what it answers the second time."""
    first = _cli(settings, "demo")
    assert first.returncode == 0, first.stderr
    assert first.stderr == ""  # no progress bar, nor anything else, in a pipe
    token = first.stdout.splitlines()[-1]
    accounts = await client.get("/accounts", headers={"Authorization": f"Bearer {token}"})
    body = accounts.json()["data"]
    assert len(body["items"]) >= 2 and len(body["related_team_accounts"]) >= 1
    cards = (
        await client.get(
            "/card", params={"per_page": 100}, headers={"Authorization": f"Bearer {token}"}
        )
    ).json()["data"]["cards"]
    shapes_card = next(c for c in cards if c["description"].startswith("Network shapes"))
    shapes = (
        await client.get(
            "/transaction/report",
            params={"filters[card_uuid]": shapes_card["uuid"], "filters[type]": "card_purchase"},
            headers={"Authorization": f"Bearer {token}"},
        )
    ).json()["data"]
    seen = {
        (s["merchant"]["name"], s["status"], s["authorized_amount"], s["captured_amount"])
        for s in shapes
    }
    assert seen == {
        ("Hilton", "completed", 420, 420),  # 300 raised by 120, captured whole
        ("Amazon", "completed", 90, 90),  # three captures
        ("Restaurant", "completed", 50, 58),  # a tip
        ("Shell", "completed", 100, 43.17),  # fuel
        ("Forgotten merchant", "reversed", 25, 0),  # expired
        ("Lufthansa", "completed", 86.8, 87.2),  # 80 EUR at 1.085, settled at 1.09
        ("Paris hotel", "completed", 217, 207.8),  # 200 EUR; 80 at 1.085, 60 + 50 at 1.10
    }
    again = await Command(settings, monkeypatch, capsys).completed("demo")
    assert again.returncode == 0, again.stderr
    second_token = again.stdout.splitlines()[-1]
    assert second_token == token  # kept in var/demo-token and reused while valid (issue 33)
    same = await client.get("/accounts", headers={"Authorization": f"Bearer {second_token}"})
    assert same.json()["meta"]["total"] == accounts.json()["meta"]["total"]


async def test_demo_draws_a_progress_bar_per_history_on_a_terminal(
    app: FastAPI, client: httpx.AsyncClient, settings: Settings
) -> None:
    stdout, terminal = run_on_a_terminal(cli_env(settings), "demo")
    [token] = stdout.splitlines()  # the token alone on stdout, the bars on the terminal
    accounts = await client.get("/accounts", headers={"Authorization": f"Bearer {token}"})
    assert accounts.status_code == 200
    finished = re.findall(
        r"(\S+@cardservice\.example) history █{30} 100% (\d+)/(\d+)\r?\n", terminal
    )
    assert [(email, done == total) for email, done, total in finished] == [
        ("demo@cardservice.example", True),
        ("sam@cardservice.example", True),
    ], terminal[-500:]
    redraws = terminal.count("\r") - terminal.count("\r\n")
    assert redraws >= sum(int(total) for _email, _done, total in finished)  # one per purchase
    assert re.search(r"demo@cardservice\.example history ░{30}   0% 0/\d+", terminal)
    assert "\x1b" not in terminal and "{" not in terminal  # a bar, not a log line


async def test_simulate_drives_the_engine(
    app: FastAPI,
    client: httpx.AsyncClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The simulate commands in process (`Command`), the refusal as a real process (`_cli`)."""
    from tests.factories import make_card, make_user

    cli = Command(settings, monkeypatch, capsys)
    user = await make_user(app)
    account, card = await make_card(app, client, user, funds="100", start_balance="20")
    email = ["--email", user.email]
    await cli.value("simulate", "deposit", "--account", str(account), "--amount", "5.50", *email)
    txn, status = (
        await cli.value(
            "simulate",
            "authorize",
            "--card",
            card,
            "--amount",
            "7.25",
            "--merchant",
            "Amazon",
            "--tag",
            "amazon",
            *email,
        )
    ).split()
    assert status == "pending"
    assert await cli.value("simulate", "settle", txn, *email) == "completed"
    assert await cli.value("simulate", "refund", txn, "--amount", "7.25", *email) == "refunded"
    held, _status = (
        await cli.value("simulate", "authorize", "--card", card, "--amount", "3", "--merchant",
                        "M", *email)
    ).split()  # fmt: skip
    part = ["simulate", "settle", held, "--amount", "1", "--keep-rest-held", *email]
    assert await cli.value(*part) == "pending"
    expire = ["simulate", "expire-holds", "--now"]
    assert await cli.value(*expire, "2000-01-01T00:00:00Z") == "0"
    assert await cli.value(*expire, "2999-01-01T00:00:00Z") == "1"
    assert (await cli(*expire, "2999-01-01T00:00:00"))[0] != 0  # no offset
    released = (await client.get(f"/transaction/{held}", headers=user.headers)).json()["data"]
    assert (released["status"], released["captured_amount"], released["amount"]) == (
        "completed",
        1,
        1,
    )
    abroad, _status = (
        await cli.value("simulate", "authorize", "--card", card, "--amount", "3", "--currency",
                        "EUR", "--merchant", "M", *email)
    ).split()  # fmt: skip
    part = ["simulate", "settle", abroad, "--amount", "1", "--keep-rest-held", "--rate", "1.2"]
    assert await cli.value(*part, *email) == "pending"
    assert (await cli(*part[:-2], "--rate", "0", *email))[0] != 0
    kept = (await client.get(f"/transaction/{abroad}", headers=user.headers)).json()["data"]
    assert (kept["captured_amount"], kept["merchant_captured_amount"], kept["rate"]) == (
        1.2,
        1,
        1.2,
    )
    code = await cli.value(
        "simulate",
        "3ds",
        "--card",
        card,
        "--merchant",
        "Shop",
        "--amount",
        "1",
        *email,
    )
    assert len(code) == 6 and code.isdigit()
    bad = _cli(
        settings,
        "simulate",
        "authorize",
        "--card",
        card,
        "--amount",
        "1.001",
        "--merchant",
        "X",
        *email,
    )
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
    report = (await client.get("/transaction/report", headers=user.headers)).json()
    assert {row["type"] for row in report["data"]} >= {"deposit", "card_purchase", "card_refund"}

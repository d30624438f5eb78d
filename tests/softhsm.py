"""A fresh SoftHSM2 token per test run (issue 29): the `pkcs11` key backend's tests run
against it. `make test` installs Debian's softhsm2; without it these tests skip, saying so.

The token lives in its own directory with its own SOFTHSM2_CONF (set in this process's
environment, so servers the tests start inherit it); `cardservice keys create` puts the
card-number key and the test CVK into it, as an operator would.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from cardservice.config import Settings
from cardservice.security import legacy_fingerprint_key

MODULES = ("/usr/lib/softhsm/libsofthsm2.so", "/usr/lib/x86_64-linux-gnu/softhsm/libsofthsm2.so")
PIN = "2611"  # a test token's PIN
SO_PIN = "261129"


@dataclass(frozen=True)
class SoftHsm:
    module: str
    label: str
    conf: Path

    def settings(self, base: Settings) -> Settings:
        """`base` moved to the pkcs11 backend on this token (the local keys stay readable)."""
        return base.model_copy(update=self.overrides(base))

    def overrides(self, base: Settings) -> dict[str, object]:
        return {
            "key_backend": "pkcs11",
            "pkcs11_module": self.module,
            "pkcs11_token_label": self.label,
            "pkcs11_pin": PIN,
            "fingerprint_key": base.fingerprint_key
            or legacy_fingerprint_key(base.encryption_keys[-1].encode()).hex(),
        }

    def env(self, base: Settings) -> dict[str, str]:
        """The same, as the environment of a `cardservice` process."""
        return {
            **os.environ,
            "SOFTHSM2_CONF": str(self.conf),
            "CARDSERVICE_DATABASE_URL": base.resolved_database_url,
            "CARDSERVICE_ENCRYPTION_KEY": base.encryption_key,
            "CARDSERVICE_CVK": base.cvk,
            "CARDSERVICE_PVK": base.pvk,
            **{f"CARDSERVICE_{k.upper()}": str(v) for k, v in self.overrides(base).items()},
        }


def init_token(directory: Path, label: str) -> SoftHsm:
    """A new token in `directory` (its own config): the caller's process uses it."""
    util = shutil.which("softhsm2-util")
    module = next((m for m in MODULES if Path(m).exists()), None)
    if util is None or module is None:
        pytest.skip("softhsm2 is not installed (make test installs it: apt-get install softhsm2)")
    tokens = directory / "tokens"
    tokens.mkdir(parents=True)
    conf = directory / "softhsm2.conf"
    conf.write_text(
        f"directories.tokendir = {tokens}\nobjectstore.backend = file\nlog.level = ERROR\n"
    )
    os.environ["SOFTHSM2_CONF"] = str(conf)
    subprocess.run(
        [util, "--init-token", "--free", "--label", label, "--pin", PIN, "--so-pin", SO_PIN],
        check=True,
        capture_output=True,
        env=os.environ,
    )
    return SoftHsm(module, label, conf)


@pytest.fixture(scope="session")
def softhsm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SoftHsm]:
    """This run's token, with the card-number key, the test CVK and PVK and a PIN key pair
    created in it."""
    from tests.conftest import TEST_CVK, TEST_KEY, TEST_PVK

    hsm = init_token(tmp_path_factory.mktemp("softhsm"), f"cs-{uuid.uuid4().hex[:8]}")
    base = Settings(
        database_url="sqlite:///unused.db", encryption_key=TEST_KEY, cvk=TEST_CVK, pvk=TEST_PVK
    )
    subprocess.run(
        [sys.executable, "-m", "cardservice", "keys", "create"],
        env=hsm.env(base),
        check=True,
        capture_output=True,
        text=True,
    )
    yield hsm

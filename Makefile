# cardservice: `make run` serves the API with demo data; `make test` runs every test on
# SQLite and PostgreSQL. Both set everything up first.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
UV := $(BIN)/uv
# uv trusts the system's certificates, as pip does (a proxy's CA added there is honoured)
export UV_SYSTEM_CERTS ?= 1
HOST ?= 127.0.0.1
PORT ?= 8000
ISO8583_PORT ?= 8583
# the demo program's payment details, shown on a top-up's page (docs/operations.md#where-top-ups-are-paid)
DEMO_PAY_TO ?= {"bank-transfer:EUR": {"Beneficiary": "Cardservice Demo GmbH", "IBAN": "DE89 3704 0044 0532 0130 00", "BIC": "COBADEFFXXX"}, "bank-transfer:USD": {"Beneficiary": "Cardservice Demo Inc.", "Account number": "000123456789", "Routing number (ABA)": "021000021"}}
PG_DSN ?= postgresql://postgres@127.0.0.1:5432/test
# the suite's processes: each takes whole test files (--dist loadfile keeps a module's
# fixtures, e.g. a live server, in one process) and migrates its own databases; the files in
# the order tests/conftest.py gives them, the longest first (tests/durations.py), which
# --no-loadscope-reorder keeps (xdist's own order, most tests first, left the few-test heavy
# files to the end, run by one worker while the other had nothing left)
TEST_WORKERS ?= 2
PYTEST := $(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
	--timeout 600

.PHONY: install run test browser softhsm client lint typecheck test-sqlite test-postgres postgres redis stress bench bench-quick bench-tools bench-clearing clean fleet fleet-stop fleet-chaos fleet-failover fleet-pitr bench-fleet bench-events

# Bytecode is written here, once, because the machines run with PYTHONDONTWRITEBYTECODE=1:
# without it every process (each `cardservice` the suite starts) compiled ~3,900 modules
# again, 2.7 s of a 4.4 s import of the app (python -X importtime; 1.8 s with bytecode).
install: $(STAMP)
	@$(BIN)/python -m compileall -q -j 0 src tests bench > /dev/null

# .venv from uv.lock (every package at its locked version, transitive ones too, hashes
# checked): pip brings uv itself (scripts/uv-requirements.txt, with hashes), uv installs the
# lock, the service and the client in clients/python editable; --inexact leaves uv and pip.
$(STAMP): pyproject.toml uv.lock scripts/uv-requirements.txt clients/python/setup.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --require-hashes -r scripts/uv-requirements.txt
	$(UV) sync --frozen --inexact --no-python-downloads --extra dev --extra otel --group client \
		--compile-bytecode
	touch $(STAMP)

run: install
	@mkdir -p var
	@$(BIN)/cardservice db upgrade
	@$(BIN)/cardservice demo > /dev/null  # keeps the demo token in var/demo-token, reused while valid
	@echo
	@echo "  cardservice is starting on http://$(HOST):$(PORT)"
	@echo "  Dashboard (one-time sign-in link, 15 min):"
	@echo "    $$($(BIN)/cardservice dashboard link --email demo@cardservice.example --base-url http://$(HOST):$(PORT))"
	@echo "  API docs:    http://$(HOST):$(PORT)/docs"
	@echo "  Demo token:  $$(cat var/demo-token)   (also in var/demo-token)"
	@echo "  Try:         curl -H \"Authorization: Bearer $$(cat var/demo-token)\" http://$(HOST):$(PORT)/accounts"
	@echo "  ISO 8583:    $(HOST):$(ISO8583_PORT)   (an acquirer's side: cardservice network send --port $(ISO8583_PORT) --card-uuid UUID --amount 12.50)"
	@echo
	@CARDSERVICE_TOPUP_PAY_TO='$(DEMO_PAY_TO)' $(BIN)/cardservice serve --host $(HOST) --port $(PORT) --iso8583-port $(ISO8583_PORT) --no-migrate

browser:
	@command -v chromium >/dev/null || (apt-get update -q && apt-get install -y -q chromium)

# the PKCS#11 token of the pkcs11 key backend's tests (tests/softhsm.py makes one per run)
softhsm:
	@command -v softhsm2-util >/dev/null || (apt-get update -q && apt-get install -y -q softhsm2)

client: install
	@mkdir -p var
	CARDSERVICE_SANDBOX=1 CARDSERVICE_LOG_LEVEL=WARNING $(BIN)/cardservice openapi | $(BIN)/python clients/prepare.py > var/openapi-client.json
	PATH=$(abspath $(BIN)):$$PATH $(BIN)/openapi-python-client generate --path var/openapi-client.json \
		--output-path clients/python --overwrite --meta setup \
		--custom-template-path clients/templates --config clients/config.yaml

postgres:
	@scripts/ensure-postgres.sh "$(PG_DSN)"

redis:
	@scripts/ensure-redis.sh

lint: install
	$(UV) lock --check  # uv.lock matches pyproject.toml (after a change there: uv lock)
	$(BIN)/ruff check src tests bench scripts
	$(BIN)/ruff format --check src tests bench scripts
	$(BIN)/lint-imports  # the layers, the edge and the cycles: [tool.importlinter] in pyproject.toml

typecheck: install
	$(BIN)/mypy src

test: install postgres redis browser softhsm lint typecheck
	CARDSERVICE_TEST_PG=$(PG_DSN) $(PYTEST)

test-sqlite: install redis softhsm
	CARDSERVICE_TEST_DATABASES=sqlite $(PYTEST)

test-postgres: install postgres redis softhsm
	CARDSERVICE_TEST_DATABASES=postgresql CARDSERVICE_TEST_PG=$(PG_DSN) $(PYTEST)

stress: install postgres
	CARDSERVICE_TEST_PG=$(PG_DSN) CARDSERVICE_STATEFUL_EXAMPLES=1000 $(BIN)/python -m pytest tests/ledger/test_state_machine.py -rP --show-capture=stdout --durations=2
	CARDSERVICE_TEST_PG=$(PG_DSN) $(BIN)/python -m tests.stress.bank_run --seconds 120
	CARDSERVICE_TEST_PG=$(PG_DSN) $(BIN)/python -m tests.stress.race_run --seconds 120
	CARDSERVICE_TEST_PG=$(PG_DSN) $(BIN)/python -m tests.stress.webhook_run --seconds 90
	CARDSERVICE_TEST_PG=$(PG_DSN) $(BIN)/python -m tests.stress.network_run --seed 1 --seconds 60
	CARDSERVICE_TEST_PG=$(PG_DSN) CARDSERVICE_KILL_RECORDS=20000 $(BIN)/python -m pytest tests/clearing/test_kill.py --timeout 3600

bench-tools:
	@command -v wrk >/dev/null && command -v hey >/dev/null || (apt-get update -q && apt-get install -y -q wrk hey)

bench: install postgres bench-tools
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.run
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.iso --seconds 20
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.iso --seconds 20 --accounts 16
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.isolation --seconds 60  # 3,000 quiet answers: a steady p99
	$(BIN)/python -m bench.statements  # a PostgreSQL cluster of its own, pg_stat_statements

bench-quick: install postgres bench-tools
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.run --quick

bench-clearing: install postgres
	CARDSERVICE_BENCH_PG=$(PG_DSN) $(BIN)/python -m bench.clearing

bench-events: install postgres bench-tools
	CARDSERVICE_TEST_PG=$(PG_DSN) $(BIN)/python -m bench.events
# The fleet (docs/operations.md): HAProxy :8080 (HTTP) and :8583 (ISO 8583) over three
# instances; three PostgreSQL nodes under Patroni (5441-5443, own clusters under var/fleet,
# never the machine's :5432) over three etcd members, the leader behind HAProxy :5440;
# Redis :6390. Installs patroni, etcd-server and haproxy when missing.
fleet: install
	$(BIN)/python -m scripts.fleet.fleet start

fleet-stop:
	$(BIN)/python -m scripts.fleet.fleet stop

fleet-chaos: fleet
	$(BIN)/python -m scripts.fleet.chaos --seconds $(or $(SECONDS_CHAOS),120)

fleet-failover: fleet
	$(BIN)/python -m scripts.fleet.failover --kills $(or $(KILLS),5)

fleet-pitr: fleet
	$(BIN)/python -m scripts.fleet.pitr

bench-fleet: fleet bench-tools
	$(BIN)/python -m bench.fleet

clean:
	rm -rf $(VENV) var .mypy_cache .ruff_cache

"""`python -m cardservice` runs the command line."""

from cardservice.cli.main import main

raise SystemExit(main())

"""`python -m cardservice` runs the command line."""

from cardservice.cli import main

raise SystemExit(main())

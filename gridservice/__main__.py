"""`python -m gridservice` runs the `gridservice` command."""

from gridservice.cli import main

raise SystemExit(main())

"""`python -m gridservice` runs the `gridservice` command."""

from gridservice.cli import main

if __name__ == "__main__":
    raise SystemExit(main())

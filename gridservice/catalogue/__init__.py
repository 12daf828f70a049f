"""What the service holds: the dataset declarations, coverage, quality, release identity, record status and structured source fields."""

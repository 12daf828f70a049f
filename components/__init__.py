"""Drawing and shaping for the app pages; the one place that builds the client."""

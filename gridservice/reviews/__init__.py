"""Expert review as a round trip: review cases, their states, agreement and calibration."""

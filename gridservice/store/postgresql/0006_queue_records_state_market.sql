-- Migration 0006: the screening counts a state's queue records by market (the market of a
-- site no territory names) from this index rather than from every record of the state.
CREATE INDEX queue_records_state_market ON queue_records(state, market);

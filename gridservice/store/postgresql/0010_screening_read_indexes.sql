-- Migration 0010: indexes for what a screening reads.
-- The screening's data date (store/screening_reads.data_as_of) reads the newest evidence
-- chunk's known_from; this index answers it without reading every chunk.
CREATE INDEX evidence_chunks_known_from ON evidence_chunks(known_from);
-- Why a project left the queue (store/surroundings_reads.project_event_rows): its rows on
-- the inactive, cancellation and commissioning sheets, without its queued rows.
CREATE INDEX queue_history_events ON queue_history(project_id, report_id)
    WHERE status <> 'active';

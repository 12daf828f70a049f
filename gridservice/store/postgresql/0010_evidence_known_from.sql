-- Migration 0010: the screening's data date (store/screening_reads.data_as_of) reads the
-- newest evidence chunk's known_from; this index answers it without reading every chunk.
CREATE INDEX evidence_chunks_known_from ON evidence_chunks(known_from);

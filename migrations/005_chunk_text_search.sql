-- Knowledge search is hybrid: PostgreSQL full text beside the HNSW vector index.
-- The tsvector is a generated column, so the same writes that store a chunk keep
-- it in sync; 'english' stems words and drops stop words, and keeps error codes
-- and product names (E-403, XR-7) as terms of their own.
ALTER TABLE document_chunks
    ADD COLUMN tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', title || ' ' || text)) STORED;
CREATE INDEX document_chunks_tsv ON document_chunks USING gin (tsv);

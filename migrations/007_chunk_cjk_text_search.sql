-- Knowledge full text for Chinese, Japanese and Korean. PostgreSQL's parser takes a
-- whole run of CJK characters (no spaces between words) as one word, so a question
-- never matched part of it. The tsvector now also holds each run's character
-- bigrams (a run of one character: that character) through the 'simple'
-- configuration, as the entity ranking segments CJK; questions are cut the same way
-- (store/pgstore, Search). A generated column's expression cannot be changed in
-- PostgreSQL 15, so the column and its index are made again.
CREATE OR REPLACE FUNCTION freshctx_cjk_bigrams(t text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$
  SELECT coalesce(string_agg(substr(m[1], i, 2), ' '), '')
  FROM regexp_matches(t, '([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]+)', 'g') AS m,
       generate_series(1, greatest(char_length(m[1]) - 1, 1)) AS i
$$;
ALTER TABLE document_chunks DROP COLUMN tsv;
ALTER TABLE document_chunks
    ADD COLUMN tsv tsvector GENERATED ALWAYS AS (
        to_tsvector('english', title || ' ' || text) ||
        to_tsvector('simple', freshctx_cjk_bigrams(title || ' ' || text))) STORED;
CREATE INDEX document_chunks_tsv ON document_chunks USING gin (tsv);

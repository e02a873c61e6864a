-- Facts two or more documents state alike: one row per cluster of agreeing values stated by
-- at least two documents, with how many independent sources that is (the renderings of one
-- article are one source). `outliers` names the documents that state the same subject,
-- attribute and scope under the same conditions with no value in this cluster (none for a
-- set-valued claim: a release that supports Python 3.11 may support 3.12 too).

CREATE OR REPLACE VIEW corroborations AS
WITH sourced AS (
    SELECT c.*, coalesce(r.group_id, c.doc_id) AS source
    FROM claim_clusters c LEFT JOIN renderings r USING (doc_id)
),
clusters AS (
    SELECT key_subject AS subject, attribute, scope, unit, cluster,
           arg_min(value, doc_id || claim_id) AS value, min(release) AS release,
           list(DISTINCT doc_id ORDER BY doc_id) AS documents,
           count(DISTINCT doc_id) AS n_documents, count(DISTINCT source) AS n_sources,
           list(DISTINCT claim_id ORDER BY claim_id) AS claim_ids, bool_and(via_part) AS via_part
    FROM sourced GROUP BY ALL
),
stating AS (
    SELECT key_subject AS subject, attribute, scope, unit, list(DISTINCT doc_id ORDER BY doc_id) AS all_documents
    FROM document_positions WHERE conditions IS NULL AND baseline IS NULL AND NOT corroborate_only GROUP BY ALL
)
SELECT c.subject, c.attribute, c.release, c.scope, c.value, c.n_documents, c.n_sources, c.documents, c.claim_ids,
       list_filter(coalesce(s.all_documents, []), lambda d: NOT list_contains(c.documents, d)) AS outliers
FROM clusters c
LEFT JOIN stating s ON s.subject = c.subject AND s.attribute = c.attribute
 AND s.scope = c.scope AND s.unit IS NOT DISTINCT FROM c.unit
WHERE c.n_documents >= 2 AND NOT c.via_part;

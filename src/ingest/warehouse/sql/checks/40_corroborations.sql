-- Facts two or more sources state alike: one row per cluster of agreeing values stated by
-- at least two documents. `outliers` names the documents that state the same subject,
-- attribute and release with no value in this cluster.

CREATE OR REPLACE VIEW corroborations AS
WITH clusters AS (
    SELECT subject, attribute, release, unit, cluster,
           arg_min(value, doc_id || claim_id) AS value,
           list(DISTINCT doc_id ORDER BY doc_id) AS documents,
           count(DISTINCT doc_id) AS n_documents,
           list(DISTINCT claim_id ORDER BY claim_id) AS claim_ids
    FROM claim_clusters GROUP BY ALL
),
stating AS (
    SELECT subject, attribute, release, unit, list(doc_id ORDER BY doc_id) AS all_documents
    FROM document_positions GROUP BY ALL
)
SELECT c.subject, c.attribute, c.release, c.value, c.n_documents, c.documents, c.claim_ids,
       list_filter(s.all_documents, lambda d: NOT list_contains(c.documents, d)) AS outliers
FROM clusters c
JOIN stating s ON s.subject = c.subject AND s.attribute = c.attribute
 AND s.release IS NOT DISTINCT FROM c.release AND s.unit IS NOT DISTINCT FROM c.unit
WHERE c.n_documents >= 2;

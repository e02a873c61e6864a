-- Facts that two or more sources state alike, one row per (subject, attribute, release,
-- value) with the agreeing documents; `outliers` names the documents that state the same
-- subject and attribute for the same release with a value that agrees with none of them.

CREATE OR REPLACE VIEW corroborations AS
WITH agreeing AS (
    SELECT subject, attribute, release, value_a AS value, doc_a AS doc_id, claim_a AS claim_id FROM claim_pairs WHERE agree
    UNION
    SELECT subject, attribute, release, value_a AS value, doc_b AS doc_id, claim_b AS claim_id FROM claim_pairs WHERE agree
),
grouped AS (
    SELECT subject, attribute, release, value,
           list(DISTINCT doc_id ORDER BY doc_id) AS documents,
           count(DISTINCT doc_id) AS n_documents,
           list(DISTINCT claim_id ORDER BY claim_id) AS claim_ids
    FROM agreeing GROUP BY ALL
),
stating AS (
    SELECT subject, attribute, release, list(DISTINCT doc_id ORDER BY doc_id) AS all_documents
    FROM claims GROUP BY ALL
)
SELECT g.subject, g.attribute, g.release, g.value, g.n_documents, g.documents, g.claim_ids,
       list_filter(s.all_documents, lambda d: NOT list_contains(g.documents, d)) AS outliers
FROM grouped g JOIN stating s USING (subject, attribute, release)
WHERE g.n_documents >= 2;

-- The conflicts users read, one row per disagreement:
--   maturity_conflict / value_conflict (severity contradiction): two groups of documents
--     state the same subject, attribute and release and no value of one group agrees with
--     any value of the other; doc_a/doc_b and the claims are each group's first, docs_a/docs_b
--     list the whole groups;
--   aligned_value_mismatch (contradiction): a number changed between two renderings of the
--     same sentence (20_aligned.sql);
--   qualifier_mismatch (note): sources agree on a value but state it with a different
--     qualifier or baseline ("75%" vs "up to 75% vs FlashAttentionV2").

CREATE OR REPLACE VIEW conflicts AS
WITH groups AS (
    SELECT subject, attribute, release, unit, clusters,
           list(doc_id ORDER BY doc_id) AS docs, min(doc_id) AS first_doc,
           arg_min(claim_id, doc_id) AS claim_id
    FROM document_positions
    GROUP BY ALL
),
disagreeing AS (
    SELECT a.subject, a.attribute, a.release, a.claim_id AS claim_a, b.claim_id AS claim_b, a.docs AS docs_a, b.docs AS docs_b
    FROM groups a JOIN groups b
      ON a.subject = b.subject AND a.attribute = b.attribute AND a.release IS NOT DISTINCT FROM b.release
     AND a.unit IS NOT DISTINCT FROM b.unit AND a.first_doc < b.first_doc
     AND NOT list_has_any(a.clusters, b.clusters)
),
contradictions AS (
    SELECT d.claim_a, d.claim_b, ca.doc_id AS doc_a, cb.doc_id AS doc_b, d.subject, d.attribute, d.release,
           ca.value AS value_a, cb.value AS value_b,
           CASE WHEN d.attribute = 'maturity' THEN 'maturity_conflict' ELSE 'value_conflict' END AS kind,
           'contradiction' AS severity,
           array_to_string(d.docs_a, ', ') || (CASE WHEN d.attribute = 'maturity' THEN ' say(s) ' ELSE ' give(s) ' END)
             || ca.value || ', ' || array_to_string(d.docs_b, ', ') || ' ' || cb.value
             || ' for the same release, and no value of one side agrees with any of the other' AS explanation,
           ca.evidence AS evidence_a, cb.evidence AS evidence_b, ca.evidence_en AS evidence_en_a, cb.evidence_en AS evidence_en_b,
           d.docs_a, d.docs_b
    FROM disagreeing d JOIN claims ca ON ca.claim_id = d.claim_a JOIN claims cb ON cb.claim_id = d.claim_b
),
first_in_cluster AS (
    SELECT subject, attribute, release, unit, cluster, arg_min(claim_id, doc_id || claim_id) AS claim_id
    FROM claim_clusters GROUP BY ALL
),
differently_stated AS (
    SELECT f.claim_id AS claim_a, arg_min(o.claim_id, o.doc_id || o.claim_id) AS claim_b
    FROM first_in_cluster f
    JOIN claim_clusters a ON a.claim_id = f.claim_id
    JOIN claim_clusters o
      ON o.subject = a.subject AND o.attribute = a.attribute AND o.release IS NOT DISTINCT FROM a.release
     AND o.unit IS NOT DISTINCT FROM a.unit AND o.cluster = a.cluster AND o.doc_id <> a.doc_id
     AND (o.qualifier IS DISTINCT FROM a.qualifier OR o.baseline IS DISTINCT FROM a.baseline)
    GROUP BY f.claim_id
),
notes AS (
    SELECT n.claim_a, n.claim_b, a.doc_id AS doc_a, b.doc_id AS doc_b, a.subject, a.attribute, a.release,
           a.value AS value_a, b.value AS value_b, 'qualifier_mismatch' AS kind, 'note' AS severity,
           'same value, stated differently: ' || a.doc_id || ' ' || a.qualifier || coalesce(' vs ' || a.baseline, '')
             || ', ' || b.doc_id || ' ' || b.qualifier || coalesce(' vs ' || b.baseline, '') AS explanation,
           a.evidence AS evidence_a, b.evidence AS evidence_b, a.evidence_en AS evidence_en_a, b.evidence_en AS evidence_en_b,
           [a.doc_id] AS docs_a, [b.doc_id] AS docs_b
    FROM differently_stated n JOIN claims a ON a.claim_id = n.claim_a JOIN claims b ON b.claim_id = n.claim_b
),
aligned AS (
    SELECT NULL AS claim_a, NULL AS claim_b, m.doc_a, m.doc_b, NULL AS subject, m.unit AS attribute,
           da.release, array_to_string(m.values_a, ', ') AS value_a, array_to_string(m.values_b, ', ') AS value_b,
           'aligned_value_mismatch' AS kind, 'contradiction' AS severity,
           'two renderings of the same sentence state different ' || m.unit || ' values' AS explanation,
           sa.text AS evidence_a, sb.text AS evidence_b, sa.text_en AS evidence_en_a, sb.text_en AS evidence_en_b,
           [m.doc_a] AS docs_a, [m.doc_b] AS docs_b
    FROM aligned_number_mismatches m
    JOIN documents da ON da.doc_id = m.doc_a
    JOIN segments sa ON sa.doc_id = m.doc_a AND sa.seg_idx = m.seg_a
    JOIN segments sb ON sb.doc_id = m.doc_b AND sb.seg_idx = m.seg_b
)
SELECT * FROM contradictions
UNION ALL
SELECT * FROM aligned
UNION ALL
SELECT * FROM notes;

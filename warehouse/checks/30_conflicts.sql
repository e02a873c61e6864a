-- The conflicts users read: contradictions between claims (value or maturity), number
-- mismatches inside aligned sentences of two renderings of one article, and notes where
-- two sources agree on a value but state it with a different qualifier or baseline.

CREATE OR REPLACE VIEW conflicts AS
WITH keyed AS (
    SELECT *, bool_or(agree) OVER (PARTITION BY subject, attribute, release, doc_a, doc_b) AS any_agree,
           row_number() OVER (PARTITION BY subject, attribute, release, doc_a, doc_b
                              ORDER BY agree, claim_a, claim_b) AS pick
    FROM claim_pairs
),
contradictions AS (
    SELECT claim_a, claim_b, doc_a, doc_b, subject, attribute, release, value_a, value_b,
           CASE WHEN attribute = 'maturity' THEN 'maturity_conflict' ELSE 'value_conflict' END AS kind,
           'contradiction' AS severity,
           CASE WHEN attribute = 'maturity'
                THEN doc_a || ' says ' || value_a || ', ' || doc_b || ' says ' || value_b
                     || ' for the same release'
                ELSE doc_a || ' gives ' || value_a || ', ' || doc_b || ' gives ' || value_b
                     || ' and no figure of one matches any figure of the other'
           END AS explanation,
           evidence_a, evidence_b, evidence_en_a, evidence_en_b
    FROM keyed WHERE NOT any_agree AND pick = 1
),
notes AS (
    SELECT claim_a, claim_b, doc_a, doc_b, subject, attribute, release, value_a, value_b,
           'qualifier_mismatch' AS kind, 'note' AS severity,
           'same value, stated differently: ' || doc_a || ' ' || qualifier_a
             || coalesce(' vs ' || baseline_a, '') || ', ' || doc_b || ' ' || qualifier_b
             || coalesce(' vs ' || baseline_b, '') AS explanation,
           evidence_a, evidence_b, evidence_en_a, evidence_en_b
    FROM (
        SELECT *, row_number() OVER (PARTITION BY subject, attribute, release, doc_a, doc_b
                                     ORDER BY claim_a, claim_b) AS n
        FROM claim_pairs
        WHERE agree AND (qualifier_a <> qualifier_b OR baseline_a IS DISTINCT FROM baseline_b)
    ) WHERE n = 1
),
aligned AS (
    SELECT NULL AS claim_a, NULL AS claim_b, m.doc_a, m.doc_b, NULL AS subject, m.unit AS attribute,
           da.release, array_to_string(m.values_a, ', ') AS value_a, array_to_string(m.values_b, ', ') AS value_b,
           'aligned_value_mismatch' AS kind, 'contradiction' AS severity,
           'two renderings of the same sentence state different ' || m.unit || ' values' AS explanation,
           sa.text AS evidence_a, sb.text AS evidence_b, sa.text_en AS evidence_en_a, sb.text_en AS evidence_en_b
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

-- Cross-source consistency: pairs of claims from different documents about the same
-- subject, attribute and release. Numbers agree when they overlap at their written
-- precision (value ± value_tol), so "3万" and "29.8k" agree while "2万" and "20万" do not.
-- A value conflict is reported only when NO value of one document agrees with any value
-- of the other for that key: a source that states several figures is not contradicted by
-- a second source repeating one of them.

CREATE OR REPLACE VIEW claim_pairs AS
SELECT
    a.claim_id AS claim_a, b.claim_id AS claim_b,
    a.doc_id AS doc_a, b.doc_id AS doc_b,
    a.subject, a.attribute, a.release,
    a.value AS value_a, b.value AS value_b,
    a.qualifier AS qualifier_a, b.qualifier AS qualifier_b,
    a.baseline AS baseline_a, b.baseline AS baseline_b,
    a.evidence AS evidence_a, b.evidence AS evidence_b,
    a.evidence_en AS evidence_en_a, b.evidence_en AS evidence_en_b,
    CASE
        WHEN a.value_num IS NULL OR b.value_num IS NULL THEN a.value = b.value
        ELSE a.value_num - coalesce(a.value_tol, 0) <= coalesce(b.value_max, b.value_num) + coalesce(b.value_tol, 0)
         AND b.value_num - coalesce(b.value_tol, 0) <= coalesce(a.value_max, a.value_num) + coalesce(a.value_tol, 0)
    END AS agree
FROM claims a
JOIN claims b
  ON a.subject = b.subject
 AND a.attribute = b.attribute
 AND a.release IS NOT DISTINCT FROM b.release
 AND a.unit IS NOT DISTINCT FROM b.unit
 AND a.doc_id < b.doc_id;

-- The conflicts users read, one row per disagreement (the words of `explanation` and `arbiter` are
-- the macros of 00_wording.sql, the thresholds those of ingest/check/thresholds.py):
--   maturity_conflict / value_conflict (contradiction, or possible when the evidence is weak):
--     two groups of documents from different sources state the same subject, attribute and
--     release under the same conditions and baseline, and no value of one group agrees with any
--     value of the other (renderings of one article, one source, are compared sentence by
--     sentence by the aligned check instead); doc_a/doc_b and the claims are each group's first,
--     docs_a/docs_b list the whole groups, `conditions`/`baseline` what both state it under; `confidence` weighs how explicit the release and
--     the subject are; `arbiter` says in words which value the independent sources support and
--     `supported` names it (verdicts computed by ingest.check.truth);
--   aligned_value_mismatch (contradiction, or possible when the alignment is unsure): a figure
--     changed between two renderings of the same sentence (20_aligned.sql), with the kind of
--     change, the confidence and the group's arbiter (`supported`: the value it supports);
--   qualifier_mismatch (note): sources agree on a value but state it with a different
--     qualifier or baseline ("75%" vs "up to 75% vs FlashAttentionV2");
--   hedged_overlap (note): sources state different values hedged so that both may hold
--     ("almost 300" vs "280+": intervals of notation.hedged_bounds that overlap);
--   aligned_hedge (note): two renderings state the same figure hedged differently ("up to 75%" /
--     "75%"), or different figures whose hedges overlap ("almost 300" / "280+").

CREATE OR REPLACE VIEW conflicts AS
WITH groups AS (
    SELECT key_subject, attribute, scope, unit, conditions, baseline, clusters,
           list(doc_id ORDER BY doc_id) AS docs, min(doc_id) AS first_doc,
           arg_min(claim_id, doc_id) AS claim_id, bool_and(via_part) AS via_part,
           list(DISTINCT source) AS sources, flatten(list(intervals)) AS intervals
    FROM document_positions
    WHERE NOT corroborate_only  -- set-valued: a model family has many sizes, a release supports many Pythons
    GROUP BY ALL
),
disagreeing AS (
    SELECT a.key_subject AS subject, a.attribute, a.scope, a.unit, a.conditions, a.baseline,
           a.claim_id AS claim_a, b.claim_id AS claim_b, a.docs AS docs_a, b.docs AS docs_b,
           a.via_part OR b.via_part AS via_part, hedges_meet(a.intervals, b.intervals) AS hedges_meet
    FROM groups a JOIN groups b
      ON a.key_subject = b.key_subject AND a.attribute = b.attribute AND a.scope = b.scope
     AND a.unit IS NOT DISTINCT FROM b.unit AND a.conditions IS NOT DISTINCT FROM b.conditions
     AND a.baseline IS NOT DISTINCT FROM b.baseline AND a.first_doc < b.first_doc
     AND NOT list_has_any(a.clusters, b.clusters) AND NOT (a.via_part AND b.via_part)
     AND NOT list_has_any(a.sources, b.sources)
),
weighed AS (
    SELECT d.*, ca.doc_id AS doc_a, cb.doc_id AS doc_b, ca.release AS release, cb.release AS release_b,
           round({CONFLICT_CONFIDENCE_BASE}
                 + {CONFLICT_EXPLICIT_RELEASE} * coalesce(ca.release_source IN ('heading', 'sentence', 'title', 'url')
                                       AND cb.release_source IN ('heading', 'sentence', 'title', 'url'), false)::INTEGER
                 + {CONFLICT_EXPLICIT_SUBJECT} * coalesce(ca.subject_source IN ('glossary', 'heading')
                                        AND cb.subject_source IN ('glossary', 'heading'), false)::INTEGER
                 + {CONFLICT_WHOLE_SUBJECT} * (NOT d.via_part)::INTEGER, 2) AS confidence,
           ca.value AS value_a, cb.value AS value_b, ca.evidence AS evidence_a, cb.evidence AS evidence_b,
           ca.evidence_en AS evidence_en_a, cb.evidence_en AS evidence_en_b
    FROM disagreeing d JOIN claims ca ON ca.claim_id = d.claim_a JOIN claims cb ON cb.claim_id = d.claim_b
),
contradictions AS (
    SELECT w.claim_a, w.claim_b, w.doc_a, w.doc_b, w.subject, w.attribute, w.release,
           w.value_a, w.value_b,
           CASE WHEN w.attribute = 'maturity' THEN 'maturity_conflict' ELSE 'value_conflict' END AS kind,
           -- (a model's figures either article names by no release are only possible: a price or a
           -- spec may have changed between two articles' dates; so are two dates: one article may
           -- date the announcement, another the release; so are the values of what has several)
           CASE WHEN w.confidence >= {CONTRADICTION_CONFIDENCE} AND w.release IS NOT NULL AND w.release_b IS NOT NULL
                 AND try_cast(w.value_a AS DATE) IS NULL
                 AND NOT regexp_matches(w.attribute, {POSSIBLE_ONLY}) THEN 'contradiction'
                ELSE 'possible' END AS severity,
           value_conflict_text(w.attribute, w.docs_a, w.value_a, w.docs_b, w.value_b, w.scope, w.conditions) AS explanation,
           w.evidence_a, w.evidence_b, w.evidence_en_a, w.evidence_en_b,
           w.docs_a, w.docs_b, NULL AS change, w.confidence, v.verdict AS arbiter, v.supported,
           w.value_a AS text_a, w.value_b AS text_b, w.scope, w.conditions, w.baseline
    FROM weighed w
    LEFT JOIN claim_verdicts v
      ON v.subject = w.subject AND v.attribute = w.attribute AND v.scope = w.scope
     AND v.unit IS NOT DISTINCT FROM w.unit AND v.conditions IS NOT DISTINCT FROM w.conditions
     AND v.baseline IS NOT DISTINCT FROM w.baseline
    WHERE NOT w.hedges_meet
),
hedged AS (  -- values that differ, hedged so that both may hold ("almost 300" / "280+")
    SELECT w.claim_a, w.claim_b, w.doc_a, w.doc_b, w.subject, w.attribute, w.release, w.value_a, w.value_b,
           'hedged_overlap' AS kind, 'note' AS severity,
           hedged_note_text(w.doc_a, ca.qualifier, w.value_a, w.doc_b, cb.qualifier, w.value_b) AS explanation,
           w.evidence_a, w.evidence_b, w.evidence_en_a, w.evidence_en_b, w.docs_a, w.docs_b, NULL AS change,
           w.confidence, NULL AS arbiter, w.value_a AS text_a, w.value_b AS text_b, w.scope, w.conditions, w.baseline
    FROM weighed w JOIN claims ca ON ca.claim_id = w.claim_a JOIN claims cb ON cb.claim_id = w.claim_b
    WHERE w.hedges_meet
),
first_in_cluster AS (
    SELECT key_subject, attribute, scope, unit, cluster, arg_min(claim_id, doc_id || claim_id) AS claim_id
    FROM claim_clusters GROUP BY ALL
),
differently_stated AS (
    SELECT f.claim_id AS claim_a, arg_min(o.claim_id, o.doc_id || o.claim_id) AS claim_b
    FROM first_in_cluster f
    JOIN claim_clusters a ON a.claim_id = f.claim_id AND a.key_subject = f.key_subject
    JOIN claim_clusters o
      ON o.key_subject = a.key_subject AND o.attribute = a.attribute AND o.scope = a.scope
     AND o.unit IS NOT DISTINCT FROM a.unit AND o.cluster = a.cluster AND o.doc_id <> a.doc_id
     AND (o.qualifier IS DISTINCT FROM a.qualifier OR o.baseline IS DISTINCT FROM a.baseline)
     AND NOT (o.via_part AND a.via_part)
    GROUP BY f.claim_id
),
notes AS (
    SELECT n.claim_a, n.claim_b, a.doc_id AS doc_a, b.doc_id AS doc_b, a.subject, a.attribute, a.release,
           a.value AS value_a, b.value AS value_b, 'qualifier_mismatch' AS kind, 'note' AS severity,
           qualifier_note_text(a.value, a.doc_id, a.qualifier, a.baseline, b.doc_id, b.qualifier, b.baseline) AS explanation,
           a.evidence AS evidence_a, b.evidence AS evidence_b, a.evidence_en AS evidence_en_a, b.evidence_en AS evidence_en_b,
           [a.doc_id] AS docs_a, [b.doc_id] AS docs_b, NULL AS change, NULL::DOUBLE AS confidence, NULL AS arbiter,
           a.value AS text_a, b.value AS text_b
    FROM differently_stated n JOIN claims a ON a.claim_id = n.claim_a JOIN claims b ON b.claim_id = n.claim_b
),
aligned AS (
    SELECT NULL AS claim_a, NULL AS claim_b, m.doc_a, m.doc_b, NULL AS subject,
           coalesce(m.unit_a, m.unit_b, m.kind) AS attribute, da.release, m.text_a AS value_a, m.text_b AS value_b,
           CASE WHEN m.relation = 'changed' THEN 'aligned_value_mismatch' ELSE 'aligned_hedge' END AS kind,
           CASE WHEN m.relation <> 'changed' THEN 'note'
                WHEN m.confidence >= {ALIGNED_CONTRADICTION_CONFIDENCE} THEN 'contradiction' ELSE 'possible' END AS severity,
           CASE WHEN m.relation = 'changed' THEN aligned_change_text(m.text_a, m.text_b, m.change)
                ELSE hedged_note_text(m.doc_a, m.qualifier_a, m.text_a, m.doc_b, m.qualifier_b, m.text_b) END AS explanation,
           m.evidence_a, m.evidence_b, m.evidence_en_a, m.evidence_en_b,
           coalesce(m.docs_a, [m.doc_a]) AS docs_a, coalesce(m.docs_b, [m.doc_b]) AS docs_b,
           m.change, m.confidence, m.arbiter, CASE m.supported WHEN 'a' THEN m.text_a WHEN 'b' THEN m.text_b END AS supported,
           m.text_a, m.text_b
    FROM (SELECT * FROM mismatches
          UNION ALL BY NAME
          SELECT * FROM agreements WHERE relation = 'hedge') m
    JOIN documents da ON da.doc_id = m.doc_a
)
SELECT * FROM contradictions
UNION ALL BY NAME
SELECT * FROM hedged
UNION ALL BY NAME
SELECT * FROM aligned
UNION ALL BY NAME
SELECT * FROM notes;

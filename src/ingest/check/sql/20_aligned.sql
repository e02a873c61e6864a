-- Renderings of one article. `document_pairs` recognises documents that render the same
-- article (two translations of one blog post, a translation and its source, a draft and the
-- final) from the rare anchors they share — Latin-script names and URLs, weighted by inverse
-- document frequency. Documents about different releases are never renderings of one article.
-- Their sentences are aligned and their mentions compared in Python after every load
-- (ingest.run.renderings -> tables alignments, aligned_units, mention_pairs, renderings,
-- verdicts); the views below present those tables.

CREATE OR REPLACE VIEW document_pairs AS
WITH doc_names AS (  -- of `ok` documents only (not the rows a gone file left behind)
    SELECT DISTINCT a.doc_id, a.anchor FROM anchors a JOIN documents d ON d.doc_id = a.doc_id AND d.status = 'ok'
    WHERE a.kind IN ('name', 'url')
),
n_docs AS (SELECT count(DISTINCT doc_id) AS n FROM doc_names),
weights AS (
    -- smoothed inverse document frequency: with two documents, a name both share still counts
    SELECT anchor, ln(1 + (SELECT n FROM n_docs) / count(*)) AS weight
    FROM doc_names GROUP BY anchor
    -- an anchor shared by more than {ANCHOR_MAX_DOCUMENTS} documents says nothing about which article a
    -- text renders; dropping those also bounds the pair join (linear in the anchors kept)
    HAVING count(*) BETWEEN 2 AND least({ANCHOR_MAX_DOCUMENTS}, greatest(2, (SELECT n FROM n_docs) / 2))
),
doc_weight AS (
    SELECT doc_id, sum(weight) AS total FROM doc_names JOIN weights USING (anchor) GROUP BY doc_id
),
shared AS (
    SELECT a.doc_id AS doc_a, b.doc_id AS doc_b, sum(w.weight) AS shared_weight, count(*) AS n_shared
    FROM doc_names a JOIN doc_names b ON a.anchor = b.anchor AND a.doc_id < b.doc_id
    JOIN weights w ON w.anchor = a.anchor
    GROUP BY ALL
)
SELECT s.doc_a, s.doc_b, s.n_shared,
       round(s.shared_weight / least(wa.total, wb.total), 3) AS overlap
FROM shared s JOIN doc_weight wa ON wa.doc_id = s.doc_a JOIN doc_weight wb ON wb.doc_id = s.doc_b
JOIN documents da ON da.doc_id = s.doc_a JOIN documents db ON db.doc_id = s.doc_b
-- (a weight of 0 — anchors every document shares — says nothing; and NaN would compare greater than any share)
WHERE s.n_shared >= {PAIR_MIN_SHARED_ANCHORS} AND least(wa.total, wb.total) > 0
  AND s.shared_weight / least(wa.total, wb.total) >= {PAIR_MIN_OVERLAP}
  AND (da.release IS NULL OR db.release IS NULL OR da.release = db.release);

-- Every pair of aligned sentences (a 2-1 unit gives two rows), with the unit's confidence.
CREATE OR REPLACE VIEW aligned_segments AS
SELECT u.doc_a, sa.seg_idx AS seg_a, u.doc_b, sb.seg_idx AS seg_b, u.unit_idx, u.confidence
FROM aligned_units u
JOIN segments sa ON sa.doc_id = u.doc_a AND sa.seg_idx BETWEEN u.seg_a_first AND u.seg_a_last
JOIN segments sb ON sb.doc_id = u.doc_b AND sb.seg_idx BETWEEN u.seg_b_first AND u.seg_b_last;

-- Matched mentions of aligned sentences, with both sentences.
CREATE OR REPLACE VIEW mention_matches AS
SELECT p.doc_a, p.doc_b, p.relation, p.change, p.certainty, p.confidence,
       ma.kind, ma.unit AS unit_a, mb.unit AS unit_b, ma.text AS text_a, mb.text AS text_b,
       ma.norm AS norm_a, mb.norm AS norm_b, ma.qualifier AS qualifier_a, mb.qualifier AS qualifier_b,
       sa.text AS evidence_a, sb.text AS evidence_b, sa.text_en AS evidence_en_a, sb.text_en AS evidence_en_b,
       p.seg_a, p.mention_a, p.seg_b, p.mention_b
FROM mention_pairs p
JOIN alignments al ON al.doc_a = p.doc_a AND al.doc_b = p.doc_b AND al.same_article
JOIN documents da ON da.doc_id = p.doc_a AND da.status = 'ok'
JOIN documents db ON db.doc_id = p.doc_b AND db.status = 'ok'
JOIN mentions ma ON ma.doc_id = p.doc_a AND ma.seg_idx = p.seg_a AND ma.mention_idx = p.mention_a
JOIN mentions mb ON mb.doc_id = p.doc_b AND mb.seg_idx = p.seg_b AND mb.mention_idx = p.mention_b
JOIN segments sa ON sa.doc_id = p.doc_a AND sa.seg_idx = p.seg_a
JOIN segments sb ON sb.doc_id = p.doc_b AND sb.seg_idx = p.seg_b;

-- The same figure in two renderings (hedged differently or not).
CREATE OR REPLACE VIEW agreements AS
SELECT * FROM mention_matches WHERE relation IN ('agree', 'hedge');

-- A figure two renderings state differently, what kind of change it is, how sure the
-- alignment is, and what the group's other renderings say (the arbiter).
CREATE OR REPLACE VIEW mismatches AS
SELECT m.*, v.supported, v.arbiter
FROM mention_matches m
LEFT JOIN verdicts v ON v.doc_a = m.doc_a AND v.doc_b = m.doc_b AND v.seg_a = m.seg_a
 AND v.mention_a = m.mention_a AND v.seg_b = m.seg_b AND v.mention_b = m.mention_b
WHERE m.relation = 'changed';

-- Aligned-evidence check: documents that render the same article (two translations of
-- one blog post, a translation and its source) are recognised from the rare anchors they
-- share — Latin-script names and URLs, weighted by inverse document frequency — and their
-- sentences are aligned by shared anchors (mutual best match). Documents about different
-- releases are never renderings of one article. Inside an aligned sentence pair, a
-- measurement (percentage, multiplier, quantity, count) whose unit both sides state but
-- with a value the other side lacks, while the other side has one it lacks too, is flagged
-- (a number changed), even when no claim subject was recognised; this needs no
-- translation model. Omissions (extra values on one side only) are not flagged.

CREATE OR REPLACE VIEW document_pairs AS
WITH doc_names AS (
    SELECT DISTINCT doc_id, anchor FROM anchors WHERE kind IN ('name', 'url')
),
n_docs AS (SELECT count(DISTINCT doc_id) AS n FROM doc_names),
weights AS (
    SELECT anchor, ln((SELECT n FROM n_docs) / count(*)) AS weight
    FROM doc_names GROUP BY anchor
    -- an anchor shared by more than 20 documents says nothing about which article a text
    -- renders; dropping those also bounds the pair join (linear in the anchors kept)
    HAVING count(*) BETWEEN 2 AND least(20, greatest(2, (SELECT n FROM n_docs) / 2))
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
WHERE s.n_shared >= 5 AND s.shared_weight / least(wa.total, wb.total) >= 0.7
  AND (da.release IS NULL OR db.release IS NULL OR da.release = db.release);

CREATE OR REPLACE VIEW aligned_segments AS
WITH seg_anchor AS (
    SELECT DISTINCT doc_id, seg_idx, kind, anchor FROM anchors
),
scored AS (
    SELECT p.doc_a, a.seg_idx AS seg_a, p.doc_b, b.seg_idx AS seg_b,
           count(*) FILTER (WHERE a.kind <> 'number') AS shared_names,
           count(*) FILTER (WHERE a.kind = 'number') AS shared_numbers
    FROM document_pairs p
    JOIN seg_anchor a ON a.doc_id = p.doc_a
    JOIN seg_anchor b ON b.doc_id = p.doc_b AND b.anchor = a.anchor AND b.kind = a.kind
    GROUP BY ALL
),
eligible AS (
    SELECT *, shared_names * 2 + shared_numbers AS score FROM scored
    -- two rare names and a third anchor, or a name and two numbers, tie two sentences
    WHERE (shared_names >= 2 AND shared_names + shared_numbers >= 3)
       OR (shared_names >= 1 AND shared_numbers >= 2)
)
SELECT doc_a, seg_a, doc_b, seg_b, shared_names, shared_numbers FROM eligible
QUALIFY score = max(score) OVER (PARTITION BY doc_a, seg_a, doc_b)
    AND score = max(score) OVER (PARTITION BY doc_b, seg_b, doc_a);

CREATE OR REPLACE VIEW aligned_number_mismatches AS
WITH measures AS (
    SELECT doc_id, seg_idx, unit, list(DISTINCT norm ORDER BY norm) AS values
    FROM entities
    WHERE label IN ('PERCENT', 'MULTIPLIER', 'QUANTITY', 'COUNT') AND unit IS NOT NULL
    GROUP BY ALL
)
SELECT s.doc_a, s.seg_a, s.doc_b, s.seg_b, ma.unit,
       list_filter(ma.values, lambda v: NOT list_contains(mb.values, v)) AS values_a,
       list_filter(mb.values, lambda v: NOT list_contains(ma.values, v)) AS values_b
FROM aligned_segments s
JOIN measures ma ON ma.doc_id = s.doc_a AND ma.seg_idx = s.seg_a
JOIN measures mb ON mb.doc_id = s.doc_b AND mb.seg_idx = s.seg_b AND mb.unit = ma.unit
WHERE len(list_filter(ma.values, lambda v: NOT list_contains(mb.values, v))) > 0
  AND len(list_filter(mb.values, lambda v: NOT list_contains(ma.values, v))) > 0;

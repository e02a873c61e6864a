-- Renderings of one article. `document_pairs` proposes documents that may render the same
-- article (two translations of one blog post, a translation and its source, a draft and the
-- final) in two ways, whatever their languages:
--   names:   the anchors they share — Latin-script names and URLs, weighted by inverse document
--            frequency, candidates found through each document's rarest names;
--   meaning: their concepts (English word stems through the bilingual lexicons), for prose that
--            names little: each document's most similar document of the other's language, when
--            each is the other's (mutual nearest neighbours, as parallel-text mining pairs them);
--   text:    copies of one text (re-posts, mirrors, a draft and its final), which share their
--            sentences word for word: found however common their anchors are.
-- Documents about different releases are never renderings of one article. Every candidate's
-- sentences are aligned and its mentions compared in Python after every load
-- (ingest.check.renderings -> tables alignments, aligned_units, mention_pairs, renderings,
-- verdicts): only pairs whose sentences align (`alignments.same_article`) are renderings.

CREATE OR REPLACE VIEW document_pairs AS
WITH doc_anchors AS (  -- of `ok` documents only (not the rows a gone file left behind)
    SELECT DISTINCT a.doc_id, d.lang, if(a.kind = 'concept', 'meaning', 'names') AS channel, a.anchor
    FROM anchors a JOIN documents d ON d.doc_id = a.doc_id AND d.status = 'ok'
    WHERE a.kind IN ('name', 'url', 'concept')
),
n_docs AS (SELECT count(DISTINCT doc_id) AS n FROM doc_anchors),
weights AS (
    -- smoothed inverse document frequency: with two documents, a name both share still counts
    SELECT channel, anchor, ln(1 + (SELECT n FROM n_docs) / count(*)) AS weight
    FROM doc_anchors GROUP BY channel, anchor
    -- an anchor in more than half the documents says nothing about which article a text renders,
    -- unless it is in no more documents than one article has renderings (three renderings ingested
    -- alone share every name); a concept in more than {ANCHOR_MAX_DOCUMENTS} is the field's
    -- vocabulary (and would make the nearest-neighbour join quadratic)
    HAVING count(*) BETWEEN 2 AND greatest({RENDERINGS_PER_ARTICLE}, (SELECT n FROM n_docs) / 2)
       AND (channel = 'names' OR count(*) <= {ANCHOR_MAX_DOCUMENTS})
),
weighted AS (  -- each document's anchors of weight, with the total weight of its channel
    SELECT doc_id, lang, channel, anchor, weight, sum(weight) OVER (PARTITION BY doc_id, channel) AS total
    FROM doc_anchors JOIN weights USING (channel, anchor)
),
name_prefix AS (
    -- each document's rarest names until the rest weigh less than {PAIR_MIN_OVERLAP} of its names:
    -- two documents sharing that share of the lighter one's weight share one of the lighter one's
    -- prefix names (prefix filtering), so candidates come from the postings of a few rare names
    -- per document, however large the corpus; names in more than {CANDIDATE_MAX_SHARE} of the
    -- documents (at least {ANCHOR_MAX_DOCUMENTS}) still weigh but propose no candidate (a document
    -- whose prefix reaches them shares nothing rarer with a rendering of its own)
    SELECT doc_id, anchor, total FROM (
        SELECT *, sum(weight) OVER (PARTITION BY doc_id ORDER BY weight DESC, anchor ROWS UNBOUNDED PRECEDING) AS upto
        FROM weighted WHERE channel = 'names')
    WHERE upto - weight <= (1 - {PAIR_MIN_OVERLAP}) * total
      AND weight >= ln(1 + 1 / greatest({CANDIDATE_MAX_SHARE}, {ANCHOR_MAX_DOCUMENTS} / (SELECT n FROM n_docs)))
),
name_candidates AS (  -- (the lighter document, a heavier one sharing one of its prefix names)
    SELECT DISTINCT p.doc_id AS light, o.doc_id AS heavy
    FROM name_prefix p JOIN weighted o ON o.channel = 'names' AND o.anchor = p.anchor
    WHERE o.total > p.total OR (o.total = p.total AND o.doc_id > p.doc_id)
),
shared AS (  -- (the totals travel with the anchors: joined back to the documents' totals, the planner
             -- paired every two documents of a channel first, 184 million rows at 10,000 documents)
    SELECT least(c.light, c.heavy) AS doc_a, greatest(c.light, c.heavy) AS doc_b, 'names' AS channel,
           if(c.light < c.heavy, dl.lang, dh.lang) AS lang_a, if(c.light < c.heavy, dh.lang, dl.lang) AS lang_b,
           if(c.light < c.heavy, a.total, b.total) AS total_a, if(c.light < c.heavy, b.total, a.total) AS total_b,
           sum(a.weight) AS shared_weight, count(*) AS n_shared
    FROM name_candidates c
    JOIN documents dl ON dl.doc_id = c.light JOIN documents dh ON dh.doc_id = c.heavy
    JOIN weighted a ON a.doc_id = c.light AND a.channel = 'names'
    JOIN weighted b ON b.doc_id = c.heavy AND b.channel = 'names' AND b.anchor = a.anchor
    WHERE dl.release IS NULL OR dh.release IS NULL OR dl.release = dh.release
    GROUP BY ALL
    UNION ALL
    SELECT a.doc_id, b.doc_id, a.channel, a.lang, b.lang, a.total, b.total, sum(a.weight), count(*)
    FROM weighted a JOIN weighted b ON a.anchor = b.anchor AND a.channel = b.channel AND a.doc_id < b.doc_id
    JOIN documents da ON da.doc_id = a.doc_id JOIN documents db ON db.doc_id = b.doc_id
    WHERE a.channel = 'meaning' AND (da.release IS NULL OR db.release IS NULL OR da.release = db.release)
    GROUP BY ALL
),
scored AS (
    SELECT *, shared_weight / least(total_a, total_b) AS overlap, 2 * shared_weight / (total_a + total_b) AS similarity
    FROM shared
    -- (a weight of 0 — anchors every document shares — says nothing; and NaN would compare greater than any share)
    WHERE least(total_a, total_b) > 0
),
by_names AS (
    SELECT doc_a, doc_b FROM scored
    WHERE channel = 'names' AND n_shared >= {PAIR_MIN_SHARED_ANCHORS} AND overlap >= {PAIR_MIN_OVERLAP}
),
meaning AS (  -- each document's nearest of every other language (and of its own), from both ends
    SELECT doc_a, doc_b, similarity,
           row_number() OVER (PARTITION BY doc_a, lang_b ORDER BY similarity DESC, doc_b) AS rank_a,
           row_number() OVER (PARTITION BY doc_b, lang_a ORDER BY similarity DESC, doc_a) AS rank_b
    FROM (SELECT doc_a, doc_b, lang_a, lang_b, similarity FROM scored
          WHERE channel = 'meaning' AND n_shared >= {PAIR_MIN_SHARED_CONCEPTS}
          UNION ALL
          SELECT doc_b, doc_a, lang_b, lang_a, similarity FROM scored
          WHERE channel = 'meaning' AND n_shared >= {PAIR_MIN_SHARED_CONCEPTS})
),
by_meaning AS (
    SELECT least(doc_a, doc_b) AS doc_a, greatest(doc_a, doc_b) AS doc_b FROM meaning
    WHERE rank_a = 1 AND rank_b = 1 AND similarity >= {PAIR_MIN_SIMILARITY}
),
sentences AS (  -- each ok document's sentences, spacing and case aside (the text is NFKC already)
    SELECT DISTINCT s.doc_id, md5(lower(regexp_replace(s.text, '\s+', '', 'g'))) AS sentence
    FROM segments s JOIN documents d ON d.doc_id = s.doc_id AND d.status = 'ok'
    WHERE length(s.text) >= 20
),
sentence_counts AS (SELECT doc_id, count(*) AS n FROM sentences GROUP BY doc_id),
telling AS (  -- sentences of a few documents (boilerplate is in many)
    SELECT sentence FROM sentences GROUP BY sentence HAVING count(*) BETWEEN 2 AND {COPY_MAX_DOCUMENTS}
),
by_text AS (
    SELECT a.doc_id AS doc_a, b.doc_id AS doc_b
    FROM sentences a JOIN telling t ON t.sentence = a.sentence
    JOIN sentences b ON b.sentence = a.sentence AND a.doc_id < b.doc_id
    JOIN sentence_counts ca ON ca.doc_id = a.doc_id JOIN sentence_counts cb ON cb.doc_id = b.doc_id
    JOIN documents da ON da.doc_id = a.doc_id JOIN documents db ON db.doc_id = b.doc_id
    WHERE da.release IS NULL OR db.release IS NULL OR da.release = db.release
    GROUP BY a.doc_id, b.doc_id, ca.n, cb.n
    HAVING count(*) >= {COPY_MIN_SENTENCES} AND count(*) >= {COPY_MIN_SHARE} * greatest(ca.n, cb.n)
)
SELECT p.doc_a, p.doc_b,
       bool_or(n.doc_a IS NOT NULL) AS by_names, bool_or(m.doc_a IS NOT NULL) AS by_meaning,
       bool_or(t.doc_a IS NOT NULL) AS by_text,
       max(CASE WHEN s.channel = 'names' THEN round(s.overlap, 3) END) AS name_overlap,
       max(CASE WHEN s.channel = 'meaning' THEN round(s.similarity, 3) END) AS similarity
FROM (SELECT * FROM by_names UNION SELECT * FROM by_meaning UNION SELECT * FROM by_text) p
LEFT JOIN by_names n ON n.doc_a = p.doc_a AND n.doc_b = p.doc_b
LEFT JOIN by_meaning m ON m.doc_a = p.doc_a AND m.doc_b = p.doc_b
LEFT JOIN by_text t ON t.doc_a = p.doc_a AND t.doc_b = p.doc_b
LEFT JOIN scored s ON s.doc_a = p.doc_a AND s.doc_b = p.doc_b
GROUP BY p.doc_a, p.doc_b;

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
-- alignment is, and what the group's other renderings say (the arbiter): one row per change, the
-- other pairs of the group that show the same change are in the verdict's docs_a/docs_b.
CREATE OR REPLACE VIEW mismatches AS
SELECT m.*, v.supported, v.arbiter, v.docs_a, v.docs_b
FROM mention_matches m
LEFT JOIN verdicts v ON v.doc_a = m.doc_a AND v.doc_b = m.doc_b AND v.seg_a = m.seg_a
 AND v.mention_a = m.mention_a AND v.seg_b = m.seg_b AND v.mention_b = m.mention_b
WHERE m.relation = 'changed' AND NOT coalesce(v.repeats, false);

-- What claims are compared under. A claim's scope is its release; else, for a subject named with
-- a number ("A780", "X5 Pro", "Book Air 14": a model, released once, whatever the article) or one
-- the title of its article names (two reviews of the "Inkleaf Pro"), the model ('the model': their
-- conflicts are only possible); else the article it belongs to (its group of renderings, or its
-- document): two articles without a release never compare a feature in passing.
-- Set-valued claims (a model family's sizes, the Python versions a release supports, a feature's
-- offload targets) corroborate but never conflict; those without a release (a named model's size
-- "BLOOM-176B", what a named feature can offload to) hold whatever the release.
-- A claim about a part of a product ("torchinductor-cpu-backend") also speaks for the product
-- ("torchinductor", the subject its slug begins with): part and product meet, two parts of one
-- product do not (`via_part`). Not another model of a line ("x5-pro" is no part of "x5",
-- "qwen2-5" of "qwen2": a variant has its own figures; `model_variants` in lang/common.yaml),
-- though a model with words or a size describing it is ("ax9-wi-fi-7" speaks for "ax9",
-- "sable-2-34b" for "sable-2"); a model named with its maker ("arcton-a780", "meridane-calyx-s") is
-- the model ("a780", "calyx-s"). Multipliers compare as factors of at least 1: a reduction to
-- 1/13 is a 13x reduction.
-- Only the claims of `ok` documents count: a duplicate has none, and a document whose file is
-- gone (`missing`) keeps its rows until `ingest prune` but leaves every check.
-- Two lists of hedged intervals meet when an interval of one overlaps one of the other: "almost 300"
-- (270-300) and "280+" (280-infinity) both hold 290, so they do not contradict each other. Two
-- maxima do not meet: "up to 8 weeks" and "最長6週間" name two different longest lives (`most`), where
-- "up to 8 weeks" and "6 weeks" may both hold.
CREATE OR REPLACE MACRO hedges_meet(a, b) AS
    len(list_filter(a, lambda x: len(list_filter(b, lambda y: x.lo <= y.hi AND y.lo <= x.hi
                                                               AND NOT (x.most AND y.most))) > 0)) > 0;

-- A figure's value as one key: its number and the top of its range (a count's canonical number);
-- and its kind, named or not: a count, else its unit.
CREATE OR REPLACE MACRO figure_value(value_num, value_max, value) AS
    coalesce(value_num::VARCHAR || '..' || coalesce(value_max, value_num)::VARCHAR, value);
CREATE OR REPLACE MACRO figure_kind(attribute, unit) AS
    if(starts_with(attribute, 'count_') OR attribute = 'unnamed_count', 'count', unit);

-- Every word of one feature's key shares a concept with a word of the other's (words are split by
-- '~', the concepts of a word by '|': `extract.subjects.status_topic`).
CREATE OR REPLACE MACRO words_meet(a, b) AS
    len(list_filter(a, lambda w: len(list_filter(b, lambda v: list_has_any(string_split(w, '|'), string_split(v, '|')))) = 0)) = 0;

CREATE OR REPLACE VIEW keyed_claims AS
WITH ok_claims AS (
    SELECT c.*,
           -- the product an article without a release is about: its title names the subject
           -- ("Inkleaf Pro review: …"), as written in the sentence
           d.release IS NULL AND length(c.subject_text) >= 3
             AND contains(lower(d.title), lower(c.subject_text)) AS title_names
    FROM claims c JOIN documents d ON d.doc_id = c.doc_id AND d.status = 'ok'
),
-- A model one article names with no release ("「Vela 7」を発表", "Novaro Vela 7") is the release another
-- article makes of the same name ("Novaro Vela 7 发布": vela 7): its claims are keyed by that release
-- and its product, so the two articles meet; their conflicts stay possible (`release` stays empty).
release_names AS (
    SELECT regexp_replace(release, '[^\w+]+', '-', 'g') AS release_slug, min(release) AS named_release
    FROM ok_claims WHERE release IS NOT NULL GROUP BY ALL
),
current_claims AS (
    SELECT c.* REPLACE (coalesce(split_part(n.named_release, ' ', 1), c.subject) AS subject), n.named_release
    FROM ok_claims c
    LEFT JOIN release_names n
      ON c.release IS NULL AND (c.subject = n.release_slug OR ends_with(c.subject, '-' || n.release_slug))
),
scoped_claims AS (
    SELECT c.* EXCLUDE (named_release),
           CASE WHEN c.named_release IS NOT NULL THEN c.named_release
                WHEN c.release IS NULL AND regexp_matches(c.subject, '[0-9]') THEN 'the model'
                     -- (set-valued or not: a model's score stated alone and one stated beside a
                     -- rival's must meet)
                     WHEN coalesce(c.set_valued, false) AND c.release IS NULL THEN 'any release'
                     -- (not in a group of renderings: its titles name the product in several ways,
                     -- and one scope must hold the whole group)
                     WHEN c.release IS NULL AND c.title_names AND r.group_id IS NULL THEN 'the model'
                     ELSE coalesce(c.release, 'article ' || coalesce(r.group_id, c.doc_id)) END AS scope,
           CASE WHEN c.unit = 'x' AND c.value_num > 0 AND coalesce(c.value_max, c.value_num) < 1
                THEN 1 / coalesce(c.value_max, c.value_num) ELSE c.value_num END AS lo_value,
           CASE WHEN c.unit = 'x' AND c.value_num > 0 AND coalesce(c.value_max, c.value_num) < 1
                THEN 1 / c.value_num ELSE coalesce(c.value_max, c.value_num) END AS hi_value,
           CASE WHEN c.unit = 'x' AND c.value_num > 0 AND coalesce(c.value_max, c.value_num) < 1
                THEN coalesce(c.value_tol, 0) / (c.value_num * c.value_num) ELSE coalesce(c.value_tol, 0) END AS tol,
           -- the interval its hedge allows, as a factor of at least 1 for a reduction
           CASE WHEN c.unit = 'x' AND c.value_num > 0 AND coalesce(c.value_max, c.value_num) < 1
                THEN if(c.value_high > 0, 1 / c.value_high, 0) ELSE c.value_low END AS hedged_low,
           CASE WHEN c.unit = 'x' AND c.value_num > 0 AND coalesce(c.value_max, c.value_num) < 1
                THEN if(c.value_low > 0, 1 / c.value_low, 'infinity'::DOUBLE) ELSE c.value_high END AS hedged_high
    FROM current_claims c LEFT JOIN renderings r USING (doc_id)
),
-- A feature common words name ("the new pet mode", "新しいペットモード", "新的宠物模式": its owner and
-- the concepts of each word, `extract.subjects.status_topic`) is the feature another key of the
-- scope names for the same owner (or the owner with its maker's name: "robovac-r9", "r9") in as
-- many words, each sharing a concept with a word of the other: all are keyed by the shortest key
-- met within two steps (the English one, whose words have one concept each: "offline voice
-- assistant" meets "音声アシスタント", which meets "语音助手").
feature_words AS (
    SELECT DISTINCT subject, scope, string_split(subject, '~') AS parts FROM scoped_claims WHERE contains(subject, '~')
),
feature_meets AS (
    SELECT a.subject, a.scope, b.subject AS other
    FROM feature_words a JOIN feature_words b
      ON a.scope = b.scope AND len(a.parts) = len(b.parts)
     AND (a.parts[1] = b.parts[1] OR ends_with(a.parts[1], '-' || b.parts[1]) OR ends_with(b.parts[1], '-' || a.parts[1]))
     AND words_meet(a.parts[2:], b.parts[2:]) AND words_meet(b.parts[2:], a.parts[2:])
),
feature_keys AS (
    SELECT a.subject, a.scope, min(lpad(length(b.other)::VARCHAR, 6, '0') || b.other)[7:] AS key
    FROM feature_meets a JOIN feature_meets b ON b.subject = a.other AND b.scope = a.scope
    GROUP BY ALL
),
scoped AS (
    SELECT s.* REPLACE (coalesce(f.key, s.subject) AS subject)
    FROM scoped_claims s LEFT JOIN feature_keys f ON f.subject = s.subject AND f.scope = s.scope
),
subjects AS (SELECT subject, bool_or(title_names) AS titled FROM current_claims GROUP BY subject),
-- A figure extraction gave the release for want of a name ("a new memory structure for vacuum that
-- consumes up to 20x less memory": no capital, no name) also speaks for a subject another document
-- of the release names for the same attribute, when its sentence writes that name as a word in any
-- case ("VACUUM"); it still only corroborates. So does a change keyed by what it measures
-- ("reduction_memory") for the change the other document states of the name, by that measure or by none.
-- (one row per name and key, not per document: the join stays linear in the claims)
named AS (
    SELECT subject, release, attribute, min(doc_id) AS first_doc, count(DISTINCT doc_id) AS n_docs,
           '(^|[^a-z0-9])' || regexp_replace(lower(subject_text), '([.^$*+?()\[\]{}|\\-])', '\\\1', 'g') || '($|[^a-z0-9])' AS word
    FROM current_claims
    WHERE subject_source <> 'release' AND length(subject_text) >= 3 AND release IS NOT NULL
    GROUP BY subject, subject_text, release, attribute
),
-- A change of the release no measure keys ("Release binaries are 12 percent smaller"), or a
-- measure no change keys ("queries per second are up 60%": throughput), speaks for the same change
-- another document keys by a measure ("二进制文件体积平均缩小 12%": reduction_size; "QPS 提升 60%":
-- improvement_throughput); it only corroborates.
measured AS (
    SELECT subject, release, attribute, min(doc_id) AS first_doc, count(DISTINCT doc_id) AS n_docs
    FROM current_claims
    WHERE subject_source = 'release' AND regexp_matches(attribute, {MEASURED_CHANGE})
    GROUP BY subject, release, attribute
),
-- A figure of a subject no release scopes ('any release': "Tessel … 2026年2月11日に新版を公開した")
-- speaks for the same attribute of the subject in each release other documents scope it by
-- ("Tessel 15.2 … released on February 11, 2026"); it only corroborates.
released AS (
    SELECT subject, attribute, unit, scope, min(doc_id) AS first_doc, count(DISTINCT doc_id) AS n_docs
    FROM scoped WHERE release IS NOT NULL
    GROUP BY ALL
),
keyed AS MATERIALIZED (
    SELECT s.*, s.subject AS key_subject, false AS via_part FROM scoped s
    UNION ALL
    SELECT s.*, p.subject AS key_subject, true AS via_part
    FROM scoped s JOIN subjects p ON starts_with(s.subject, p.subject || '-') AND NOT regexp_matches(p.subject, '[0-9]')
    UNION ALL
    SELECT * EXCLUDE (after), after <> '' AS via_part FROM (
        SELECT s.*, p.subject AS key_subject,
               s.subject[strpos('-' || s.subject || '-', '-' || p.subject || '-') + length(p.subject) + 1:] AS after
        FROM scoped s JOIN subjects p ON s.subject <> p.subject
         AND (regexp_matches(p.subject, '[0-9]') AND contains('-' || s.subject || '-', '-' || p.subject || '-')
              -- (a name of two words or more after its maker's: "meridane-calyx-s" is "calyx-s"; or one
              -- an article's title names: "voltcairn-hearth" is the "Hearth" of "…发布家用储能电池 Hearth")
              OR (contains(p.subject, '-') OR p.titled) AND ends_with(s.subject, '-' || p.subject))
    ) WHERE NOT regexp_matches(after, {MODEL_VARIANT})
    UNION ALL
    SELECT * FROM (
        -- (of the name's attributes the claim's own first: "reduction_memory" before "reduction")
        SELECT DISTINCT ON (s.claim_id, n.subject) s.* REPLACE (n.attribute AS attribute, true AS set_valued),
               n.subject AS key_subject, true AS via_part
        FROM scoped s JOIN named n ON s.subject_source = 'release' AND n.release = s.release
         AND (coalesce(s.set_valued, false) AND n.attribute = s.attribute
              OR regexp_matches(s.attribute, {MEASURED_CHANGE}) AND (starts_with(s.attribute, n.attribute || '_') OR s.attribute = n.attribute))
         AND (n.n_docs > 1 OR n.first_doc <> s.doc_id)
         AND regexp_matches(lower(s.evidence), n.word)
        ORDER BY s.claim_id, n.subject, n.attribute <> s.attribute, n.attribute
    )
    UNION ALL
    SELECT s.* REPLACE (m.attribute AS attribute, true AS set_valued), s.subject AS key_subject, true AS via_part
    FROM scoped s JOIN measured m
      ON (s.subject_source = 'release' AND coalesce(s.set_valued, false)
          -- (or a change an article without a release states of the name another makes a release of:
          -- "Vireo 12 … pages load 1.4x faster" / "页面加载速度…提升至原来的 1.4 倍": speedup_load)
          OR s.release IS NULL)
     AND m.subject = s.subject AND m.release = s.scope
     AND (starts_with(m.attribute, s.attribute || '_') OR ends_with(m.attribute, '_' || s.attribute))
     AND (m.n_docs > 1 OR m.first_doc <> s.doc_id)
    UNION ALL
    SELECT s.* REPLACE (r.scope AS scope, true AS set_valued), s.subject AS key_subject, true AS via_part
    FROM scoped s JOIN released r
      ON s.scope = 'any release' AND r.subject = s.subject AND r.attribute = s.attribute AND r.unit IS NOT DISTINCT FROM s.unit
     AND (r.n_docs > 1 OR r.first_doc <> s.doc_id)
),
-- A ratio, a span of time or a count no word names (`unnamed_*`, `extract.claims`) is the figure
-- another document names for the subject (as keyed: "Pulse W3" for "Ostara Pulse W3") in the same
-- scope with the same value ("データ量は2.5倍に増えた" for "throughput 2.5x", "150 辆" for "150
-- buses"), and then only that (one fact, one finding); it only corroborates. (Values grouped per
-- name: the join stays linear in the claims.)
named_values AS (
    SELECT key_subject, scope, figure_kind(attribute, unit) AS kind, figure_value(value_num, value_max, value) AS figure,
           attribute, min(doc_id) AS first_doc, count(DISTINCT doc_id) AS n_docs
    FROM keyed
    WHERE figure_kind(attribute, unit) IN ('%', 'x', 's', 'count') AND NOT starts_with(attribute, 'unnamed_')
    GROUP BY ALL
),
unnamed_named AS (
    SELECT DISTINCT k.claim_id, k.key_subject, n.attribute
    FROM keyed k JOIN named_values n
      ON starts_with(k.attribute, 'unnamed_') AND n.key_subject = k.key_subject AND n.scope = k.scope
     AND n.kind = figure_kind(k.attribute, k.unit)
     AND n.figure = figure_value(k.value_num, k.value_max, k.value)
     AND (n.n_docs > 1 OR n.first_doc <> k.doc_id)
),
-- (the keyed claims, an unnamed figure under the name it meets)
renamed AS (
    SELECT k.* FROM keyed k ANTI JOIN unnamed_named u ON u.claim_id = k.claim_id AND u.key_subject = k.key_subject
    UNION ALL
    SELECT k.* REPLACE (u.attribute AS attribute, true AS set_valued)
    FROM keyed k JOIN unnamed_named u ON u.claim_id = k.claim_id AND u.key_subject = k.key_subject
),
-- A date without a year ("on April 22", "4月22日": '--04-22', `extract.claims`) is the whole date
-- another document gives the key with that month and day ("April 22, 2026"), the earliest if
-- several; it only corroborates (it always did: no year is guessed).
whole_dates AS (
    SELECT key_subject, attribute, scope, value, any_value(value_num) AS value_num, any_value(tol) AS tol,
           min(doc_id) AS first_doc, count(DISTINCT doc_id) AS n_docs
    FROM renamed WHERE value_num IS NOT NULL AND regexp_matches(value, '^\d{4}-\d\d-\d\d$')
    GROUP BY ALL
),
dated AS (
    SELECT DISTINCT ON (r.claim_id, r.key_subject) r.claim_id, r.key_subject, w.value, w.value_num, w.tol
    FROM renamed r JOIN whole_dates w
      ON starts_with(r.value, '--') AND w.key_subject = r.key_subject AND w.attribute = r.attribute AND w.scope = r.scope
     AND w.value[5:] = r.value[2:] AND (w.n_docs > 1 OR w.first_doc <> r.doc_id)
    ORDER BY r.claim_id, r.key_subject, w.value
),
whole AS (
    SELECT r.* FROM renamed r ANTI JOIN dated d ON d.claim_id = r.claim_id AND d.key_subject = r.key_subject
    UNION ALL
    SELECT r.* REPLACE (d.value AS value, d.value_num AS value_num, d.value_num AS lo_value, d.value_num AS hi_value, d.tol AS tol)
    FROM renamed r JOIN dated d ON d.claim_id = r.claim_id AND d.key_subject = r.key_subject
),
-- What a document is about: of the subjects its title names, else of all, the one most of its
-- claims are keyed by. A figure its sentence gives another name ("在柏林 IFA 展会上发布…5200mAh",
-- "JavaScript…バッテリー駆動時間が最大1.5時間延びた") also speaks for it: that name may be the place, a
-- part or a technique the sentence mentions. It only corroborates, and only beside a figure
-- another source states of the subject itself (`via_part`: two names' figures re-keyed so would
-- meet by chance); not a status (a name's deprecation is not the product's). Without a release of
-- its own, it takes the scope the document's subject mostly has.
main_subjects AS (
    SELECT doc_id, first(key_subject ORDER BY titled DESC, n DESC, key_subject) AS key_subject,
           first(scope ORDER BY titled DESC, n DESC, key_subject, scope) AS scope
    FROM (SELECT w.doc_id, w.key_subject, w.scope, count(*) AS n,
                 bool_or(length(w.subject_text) >= 2 AND contains(lower(d.title), lower(w.subject_text))) AS titled
          FROM whole w JOIN documents d USING (doc_id) WHERE NOT w.via_part GROUP BY ALL)
    GROUP BY doc_id
),
-- (only for a key some document states of the subject itself: the rest could meet nothing)
stated_keys AS (SELECT DISTINCT key_subject, attribute, scope FROM whole WHERE NOT via_part),
main_copies AS (
    SELECT w.* REPLACE (m.key_subject AS key_subject, if(w.release IS NULL, m.scope, w.scope) AS scope, true AS set_valued,
                        true AS via_part)
    FROM whole w JOIN main_subjects m
      ON m.doc_id = w.doc_id AND m.key_subject <> w.key_subject AND NOT w.via_part
     AND w.attribute NOT IN ('maturity', 'lifecycle') AND NOT contains(w.key_subject, '~')
)
SELECT * FROM whole
UNION ALL
SELECT c.* FROM main_copies c SEMI JOIN stated_keys k
  ON k.key_subject = c.key_subject AND k.attribute = c.attribute AND k.scope = c.scope;

-- Values that agree, grouped. Claims with the same key (subject, attribute, scope, unit) are
-- sorted by the interval their written precision allows (value ± value_tol, ranges up to
-- value_max) and overlapping intervals merge into one cluster (touching ones do not: "3.1" and
-- "3.2"); maturity and other words cluster by equal value, the statuses of a thing released for
-- use as one ("stable" / "正式版"). "3万" and "29.8k" share a cluster, "2万" and "20万" do not.
-- Everything downstream compares clusters per document, never claim pairs, so the checks
-- stay linear in the number of claims. A document that states a key's value outright speaks by
-- those claims: another value it gives the key only as one of several (set-valued: a maturity
-- read through a list, "Apple M1 チップと functorch") is left out, so it neither hides a
-- disagreement of the value stated outright nor corroborates a value stated only in passing.
CREATE OR REPLACE VIEW fresh_claim_clusters AS
WITH outright AS (
    SELECT *, list(value) FILTER (WHERE NOT coalesce(set_valued, false)) OVER per_document AS outright_values
    FROM keyed_claims
    WINDOW per_document AS (PARTITION BY key_subject, attribute, scope, unit, conditions, baseline, doc_id)
),
stated AS (
    SELECT * EXCLUDE (outright_values) FROM outright
    WHERE NOT coalesce(set_valued, false) OR coalesce(len(outright_values), 0) = 0 OR list_contains(outright_values, value)
),
bounded AS (
    SELECT *, lo_value - tol AS lo, hi_value + tol AS hi FROM stated
),
starts AS (
    SELECT *,
           CASE WHEN value_num IS NULL THEN 0
                WHEN lo > reach + 1e-9 * greatest(abs(lo), 1) THEN 1
                -- intervals that only touch are apart ("129" ends at 129.5 where "130" begins)
                WHEN tol > 0 AND lo > reach - 1e-9 * greatest(abs(lo), 1) THEN 1
                ELSE 0 END AS new_cluster
    FROM (SELECT *, max(hi) OVER (PARTITION BY key_subject, attribute, scope, unit ORDER BY lo, hi, claim_id
                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reach
          FROM bounded)
)
-- (not the English of the evidence: a translation that waited fills `claims.evidence_en` after the checks)
SELECT * EXCLUDE (new_cluster, reach, evidence_en),
       CASE WHEN value_num IS NULL AND attribute = 'maturity' AND value IN {RELEASED} THEN 'released'
            WHEN value_num IS NULL THEN value
            ELSE '#' || sum(new_cluster) OVER (PARTITION BY key_subject, attribute, scope, unit ORDER BY lo, hi, claim_id
                                               ROWS UNBOUNDED PRECEDING)
       END AS cluster
FROM starts;

-- Read by every check and by the report, so stored as a table by `update_checks` (ingest.check.STORED);
-- created empty here so that the views below bind to it.
CREATE OR REPLACE TABLE claim_clusters AS FROM fresh_claim_clusters LIMIT 0;

-- What each document says about each key under each conditions and baseline: the clusters
-- it states, its first claim in each, whether it speaks only through a part of the subject,
-- and its source (the renderings of one article are one source). Stored like claim_clusters.
CREATE OR REPLACE VIEW fresh_document_positions AS
SELECT c.key_subject, c.attribute, c.scope, c.unit, c.conditions, c.baseline, c.doc_id,
       coalesce(r.group_id, c.doc_id) AS source,
       list(DISTINCT c.cluster ORDER BY c.cluster) AS clusters,
       min(c.claim_id) AS claim_id, bool_and(c.via_part) AS via_part,
       bool_and(coalesce(c.set_valued, false)) AS corroborate_only,
       -- (sorted: a stored row is the same whatever order the claims were loaded in)
       coalesce(list_sort(list(DISTINCT {'lo': c.hedged_low, 'hi': c.hedged_high, 'most': c.qualifier = 'up_to'})
                            FILTER (WHERE c.hedged_low IS NOT NULL)), [])
         AS intervals
FROM claim_clusters c LEFT JOIN renderings r USING (doc_id)
GROUP BY ALL;

CREATE OR REPLACE TABLE document_positions AS FROM fresh_document_positions LIMIT 0;

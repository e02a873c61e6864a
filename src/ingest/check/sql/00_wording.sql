-- Every English sentence a finding is told in, in one place: macros the views below and the
-- checks computed in Python (ingest.check.truth, ingest.check.renderings) call, so the words of a
-- conflict, a verdict and an arbiter are written once, and the duckdb CLI reads the same columns.

-- "1 source", "2 sources"; "says" / "say"; "gives" / "give".
CREATE OR REPLACE MACRO counted(n, noun) AS n || ' ' || noun || CASE WHEN n = 1 THEN '' ELSE 's' END;
CREATE OR REPLACE MACRO says(n) AS CASE WHEN n = 1 THEN 'says' ELSE 'say' END;
CREATE OR REPLACE MACRO gives(n) AS CASE WHEN n = 1 THEN 'gives' ELSE 'give' END;
-- How a figure is hedged, in words: "plainly", "as up to", "as over" (the readings' qualifier codes).
CREATE OR REPLACE MACRO hedge_words(qualifier) AS
    CASE WHEN coalesce(qualifier, 'exact') = 'exact' THEN 'plainly' ELSE 'as "' || replace(qualifier, '_', ' ') || '"' END;

-- A value or maturity conflict between two groups of documents.
CREATE OR REPLACE MACRO value_conflict_text(attribute, docs_a, value_a, docs_b, value_b, scope, conditions) AS
    array_to_string(docs_a, ', ') || ' ' || (CASE WHEN attribute = 'maturity' THEN says(len(docs_a)) ELSE gives(len(docs_a)) END) || ' ' 
    || value_a || ', ' || array_to_string(docs_b, ', ') || ' ' || value_b || ' for ' || scope
    || coalesce(' under ' || conditions, '') || ', and no value of one side agrees with any of the other';

-- A figure two renderings of one sentence state differently, and the kind of change.
CREATE OR REPLACE MACRO aligned_change_text(text_a, text_b, change) AS
    'two renderings of the same sentence state ' || text_a || ' and ' || text_b || ' (' || change || ' changed)';

-- Figures hedged so that both may hold: the same one hedged differently ("up to 75%" / "75%"), or
-- different ones whose hedges overlap ("almost 300" / "280+").
CREATE OR REPLACE MACRO hedged_value_text(qualifier, value) AS
    CASE WHEN coalesce(qualifier, 'exact') = 'exact' THEN '' ELSE replace(qualifier, '_', ' ') || ' ' END || value;
CREATE OR REPLACE MACRO hedged_note_text(doc_a, qualifier_a, value_a, doc_b, qualifier_b, value_b) AS
    'hedged figures that may both hold: ' || doc_a || ' says ' || hedged_value_text(qualifier_a, value_a)
    || ', ' || doc_b || ' ' || hedged_value_text(qualifier_b, value_b);

-- The same value stated with another qualifier or baseline.
CREATE OR REPLACE MACRO qualifier_note_text(value, doc_a, qualifier_a, baseline_a, doc_b, qualifier_b, baseline_b) AS
    'same value (' || value || '), stated differently: ' || doc_a || ' states it ' || hedge_words(qualifier_a) || coalesce(' against ' || baseline_a, '')
    || ', ' || doc_b || ' ' || hedge_words(qualifier_b) || coalesce(' against ' || baseline_b, '');

-- Which value the independent sources support on a key they disagree on (claim_verdicts.sides:
-- each value with how many sources and documents state it, most sources first).
CREATE OR REPLACE MACRO verdict_text(supported, sides) AS
    CASE WHEN supported IS NOT NULL THEN 'supported: ' || supported || '. '
         ELSE 'undecided: as many independent sources on each side. ' END
    || array_to_string(list_transform(sides, lambda s: counted(s.n_sources, 'source') || ' ('
                                                 || counted(s.n_documents, 'document') || ') ' || says(s.n_sources)
                                                 || ' ' || s.value), '; ');

-- Which side of a changed figure the other renderings of the article support (verdicts): the
-- English original when it states the figure, else the side more independent sources take.
CREATE OR REPLACE MACRO arbiter_text(original, supported, value_a, value_b, docs_a, docs_b, sources_a, sources_b) AS
    CASE WHEN original IS NOT NULL THEN
             'the English original (' || original || ') says ' || (CASE supported WHEN 'a' THEN value_a ELSE value_b END)
             || coalesce(', as do ' || nullif(array_to_string(list_filter(CASE supported WHEN 'a' THEN docs_a ELSE docs_b END,
                                                                          lambda d: d <> original), ', '), ''), '')
             || '; ' || array_to_string(CASE supported WHEN 'a' THEN docs_b ELSE docs_a END, ', ') || ' '
             || says(len(CASE supported WHEN 'a' THEN docs_b ELSE docs_a END)) || ' '
             || (CASE supported WHEN 'a' THEN value_b ELSE value_a END)
         WHEN supported IS NULL THEN
             'undecided: ' || counted(sources_a, 'independent source') || ' on each side ('
             || counted(len(docs_a) + len(docs_b), 'rendering') || ' state the figure)'
         ELSE (CASE supported WHEN 'a' THEN len(docs_a) ELSE len(docs_b) END) || ' of ' || (len(docs_a) + len(docs_b))
              || ' renderings (' || counted(CASE supported WHEN 'a' THEN sources_a ELSE sources_b END, 'independent source')
              || ') say ' || (CASE supported WHEN 'a' THEN value_a ELSE value_b END)
    END;

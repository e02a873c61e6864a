-- Warehouse tables. Names and the listed columns are the interface users query;
-- every statement is idempotent so the schema is applied at each connection.

CREATE TABLE IF NOT EXISTS documents (
    doc_id           VARCHAR PRIMARY KEY,   -- input folder name / path inside it (ingest.discover)
    path             VARCHAR NOT NULL,      -- absolute: the document's identity
    source_root      VARCHAR,               -- the input folder it was found under
    format           VARCHAR,               -- text | markdown | html
    sha256           VARCHAR,               -- of the raw bytes
    text_sha256      VARCHAR,               -- of the cleaned text: byte-different copies of one text share it
    size_bytes       BIGINT,
    encoding         VARCHAR,
    lang             VARCHAR,               -- ja | zh | ko | en | ...
    lang_variant     VARCHAR,               -- zh-Hans | zh-Hant for Chinese
    lang_confidence  DOUBLE,
    title            VARCHAR,
    published_at     DATE,
    source_url       VARCHAR,
    translator       VARCHAR,
    author           VARCHAR,
    release          VARCHAR,               -- product + version the article is about
    release_note     VARCHAR,               -- set when title and body name different releases
    text             VARCHAR,               -- cleaned text; segment offsets point into it
    status           VARCHAR NOT NULL,      -- ok | failed | duplicate | missing (file gone; `ingest prune`) | excluded (--exclude, .ingestignore)
    error            VARCHAR,               -- why, and what to do, when not ok
    duplicate_of     VARCHAR,
    pipeline_version VARCHAR,
    run_id           VARCHAR,
    loaded_at        TIMESTAMP
);

CREATE TABLE IF NOT EXISTS segments (
    doc_id             VARCHAR NOT NULL,
    seg_idx            INTEGER NOT NULL,
    block_idx          INTEGER,             -- paragraph the segment belongs to
    kind               VARCHAR,             -- heading | paragraph | list_item | table_row
    section            VARCHAR,             -- heading in effect
    lang               VARCHAR,
    lang_confidence    DOUBLE,
    char_start         INTEGER,             -- offsets into documents.text
    char_end           INTEGER,
    text               VARCHAR NOT NULL,
    text_en            VARCHAR,
    translation_status VARCHAR,             -- translated | cached | untranslated (no package) | not_needed | waiting
    translation_engine VARCHAR,
    translation_reason VARCHAR,
    PRIMARY KEY (doc_id, seg_idx)
);

CREATE TABLE IF NOT EXISTS entities (
    doc_id     VARCHAR NOT NULL,
    seg_idx    INTEGER NOT NULL,
    ent_idx    INTEGER NOT NULL,
    label      VARCHAR NOT NULL,            -- VERSION HARDWARE PERCENT MULTIPLIER QUANTITY COUNT DATE MATURITY
    text       VARCHAR NOT NULL,            -- exactly segments.text[char_start:char_end]
    norm       VARCHAR,
    value_num  DOUBLE,
    value_max  DOUBLE,
    value_tol  DOUBLE,                      -- half a unit of the last written digit
    unit       VARCHAR,
    qualifier  VARCHAR,
    char_start INTEGER,                     -- offsets into segments.text
    char_end   INTEGER,
    PRIMARY KEY (doc_id, seg_idx, ent_idx)
);

CREATE TABLE IF NOT EXISTS claims (
    claim_id     VARCHAR PRIMARY KEY,
    doc_id       VARCHAR NOT NULL,
    seg_idx      INTEGER NOT NULL,
    subject      VARCHAR NOT NULL,          -- glossary id, or the slug of a name the glossary does not know
    subject_text VARCHAR,                   -- as written
    subject_source VARCHAR,                 -- glossary | name | heading | release
    attribute    VARCHAR NOT NULL,
    value        VARCHAR NOT NULL,
    value_num    DOUBLE,
    value_max    DOUBLE,
    value_tol    DOUBLE,
    value_low    DOUBLE,                    -- the interval its hedge allows ("almost 300": 270-300;
    value_high   DOUBLE,                    -- "over 300": 300-infinity), see notation.hedged_bounds
    unit         VARCHAR,
    qualifier    VARCHAR,                   -- exact | about | almost | over | under | up_to
    baseline     VARCHAR,
    conditions   VARCHAR,                   -- what a value holds under: gpus=64;hw=nvidia-a100;precision=fp16;phase=training
    release      VARCHAR,
    release_source VARCHAR,                 -- heading | sentence | title | url | body
    char_start   INTEGER,
    char_end     INTEGER,
    evidence     VARCHAR,                   -- the source sentence
    evidence_en  VARCHAR,                   -- its translation, when there is one
    set_valued   BOOLEAN                    -- one of several values the subject has (a model family's
                                            -- sizes, supported versions, offload targets): corroborates only
);

CREATE TABLE IF NOT EXISTS anchors (      -- numbers, Latin names, URLs and concepts per segment, for alignment
    doc_id  VARCHAR NOT NULL,
    seg_idx INTEGER NOT NULL,
    kind    VARCHAR NOT NULL,               -- number | name | url | concept (an English word stem)
    anchor  VARCHAR NOT NULL
);

CREATE TABLE IF NOT EXISTS translation_issues (
    doc_id   VARCHAR NOT NULL,
    seg_idx  INTEGER NOT NULL,
    kind     VARCHAR NOT NULL,              -- number | percent | version | hardware ...
    expected VARCHAR,
    detail   VARCHAR
);

CREATE TABLE IF NOT EXISTS runs (
    run_id           VARCHAR PRIMARY KEY,
    started_at       TIMESTAMP,
    finished_at      TIMESTAMP,
    inputs           VARCHAR,
    pipeline_version VARCHAR,
    engine           VARCHAR,
    missing_pairs    VARCHAR,
    n_files          INTEGER,
    n_loaded         INTEGER,
    n_skipped        INTEGER,
    n_failed         INTEGER,
    n_duplicate      INTEGER,
    n_missing        INTEGER,
    status           VARCHAR
);

CREATE TABLE IF NOT EXISTS mentions (     -- every number-like mention of a segment (extract/mentions.py)
    doc_id      VARCHAR NOT NULL,
    seg_idx     INTEGER NOT NULL,
    mention_idx INTEGER NOT NULL,
    kind        VARCHAR NOT NULL,           -- number percent multiplier fraction version date model label | id url ref (never quantities)
    text        VARCHAR NOT NULL,           -- exactly segments.text[char_start:char_end]
    value_num   DOUBLE,                     -- the value (a range's low end); NULL for versions, dates, ids
    value_max   DOUBLE,
    value_tol   DOUBLE,                     -- half a unit of the last written digit (capped at 5 %)
    norm        VARCHAR,                    -- canonical form: number, version, ISO date, model@size
    unit        VARCHAR,                    -- unit or counted noun after it, when known
    qualifier   VARCHAR,                    -- exact | about | almost | over | under | up_to
    digits      VARCHAR,                    -- significant digits as written ("17" for 1.7B)
    name        VARCHAR,                    -- model name of a sized model
    counted     VARCHAR,                    -- without a known unit: the concept of the word it counts
    char_start  INTEGER,
    char_end    INTEGER,
    PRIMARY KEY (doc_id, seg_idx, mention_idx)
);

-- Renderings of one article, aligned after every load by ingest.run.renderings (Python):
-- which document pairs were aligned from which versions of the two documents...
CREATE TABLE IF NOT EXISTS alignments (
    doc_a           VARCHAR NOT NULL,
    doc_b           VARCHAR NOT NULL,
    key_a           VARCHAR,                -- the document's sha256 and pipeline version when aligned
    key_b           VARCHAR,
    version         VARCHAR,                -- digest of the alignment code: new code re-aligns
    identical_share DOUBLE,                 -- share of aligned sentence pairs that are word for word the same
    coverage        DOUBLE,                 -- share of the shorter document's sentences aligned with confidence
    figures_kept    DOUBLE,                 -- share of the figures of those sentences the other side states too
    same_article    BOOLEAN,                -- both high enough to take the two for renderings of one article
    PRIMARY KEY (doc_a, doc_b)
);

-- ...their aligned sentences (1-1, 2-1 or 1-2) with a confidence...
CREATE TABLE IF NOT EXISTS aligned_units (
    doc_a       VARCHAR NOT NULL,
    doc_b       VARCHAR NOT NULL,
    unit_idx    INTEGER NOT NULL,
    seg_a_first INTEGER NOT NULL,
    seg_a_last  INTEGER NOT NULL,
    seg_b_first INTEGER NOT NULL,
    seg_b_last  INTEGER NOT NULL,
    confidence  DOUBLE,                     -- 0..1: shared names, values and digits, and neighbours
    evidence    DOUBLE,
    PRIMARY KEY (doc_a, doc_b, unit_idx)
);

-- ...the mentions of aligned sentences matched one to one...
CREATE TABLE IF NOT EXISTS mention_pairs (
    doc_a      VARCHAR NOT NULL,
    doc_b      VARCHAR NOT NULL,
    unit_idx   INTEGER NOT NULL,
    seg_a      INTEGER NOT NULL,
    mention_a  INTEGER NOT NULL,
    seg_b      INTEGER NOT NULL,
    mention_b  INTEGER NOT NULL,
    relation   VARCHAR NOT NULL,            -- agree | hedge (same value, one side "up to") | changed
    change     VARCHAR,                     -- changed: magnitude | digits | value | version | date | name | size | label
    certainty  DOUBLE,                      -- that the two mentions are one figure
    confidence DOUBLE                       -- certainty x the sentence pair's confidence
);

-- ...and per group of renderings: which document is the original, which renderings are one source.
CREATE TABLE IF NOT EXISTS renderings (
    doc_id   VARCHAR PRIMARY KEY,
    group_id VARCHAR NOT NULL,              -- the group's first doc_id
    original BOOLEAN,                       -- the English rendering of translations
    source   VARCHAR                        -- renderings with the same source count once
);

-- What the other renderings of a group say about a changed figure.
CREATE TABLE IF NOT EXISTS verdicts (
    doc_a     VARCHAR NOT NULL,
    doc_b     VARCHAR NOT NULL,
    seg_a     INTEGER NOT NULL,
    mention_a INTEGER NOT NULL,
    seg_b     INTEGER NOT NULL,
    mention_b INTEGER NOT NULL,
    supported VARCHAR,                      -- a | b | NULL (undecided)
    arbiter   VARCHAR,                      -- in words (the macro arbiter_text of the checks' wording)
    original  VARCHAR,                      -- the English original, when it states the figure
    docs_a    VARCHAR[],                    -- the renderings that state the figure as doc_a does...
    docs_b    VARCHAR[],                    -- ...and as doc_b does
    sources_a INTEGER,                      -- independent sources among docs_a
    sources_b INTEGER,
    repeats   BOOLEAN                       -- another pair of the group reports the same change
);

-- Independent sources: the renderings of one article are one source. `trust` is how often a
-- source's checkable claims agree with the other sources' (ingest.run.truth, TruthFinder-style).
CREATE TABLE IF NOT EXISTS sources (
    source_id   VARCHAR PRIMARY KEY,        -- the first doc_id of the source
    documents   VARCHAR[],
    n_documents INTEGER,
    trust       DOUBLE,                     -- 0..1
    checked     INTEGER,                    -- claims on keys another source states too
    agreeing    INTEGER                     -- ...of which another source states the same value
);

-- For every key on which sources disagree: which value the independent sources support.
CREATE TABLE IF NOT EXISTS claim_verdicts (
    subject    VARCHAR NOT NULL,
    attribute  VARCHAR NOT NULL,
    scope      VARCHAR NOT NULL,
    unit       VARCHAR,
    conditions VARCHAR,
    baseline   VARCHAR,
    supported  VARCHAR,                     -- the supported value; NULL when undecided
    verdict    VARCHAR,                     -- in words: "2 sources (3 documents) say beta; 1 source (1 document) says prototype"
    sides      STRUCT(value VARCHAR, n_sources INTEGER, n_documents INTEGER)[]  -- every value, most sources first
);

-- The documents the cross-document tables above were last computed from (a digest), so an
-- unchanged re-run does not compute them again.
CREATE TABLE IF NOT EXISTS check_state (
    documents_digest VARCHAR,
    code_digest      VARCHAR
);

-- Columns added after warehouses were first created: a warehouse made by an older version gets
-- every column of these definitions it lacks from ingest.warehouse.apply_schema, which compares
-- its tables with them (its documents are then re-extracted, their pipeline version having changed).

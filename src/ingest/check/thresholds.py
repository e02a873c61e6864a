"""Every threshold and weight that decides what the checks find, each in one place; the views of
`sql/` read them as {placeholders} (`ingest.check.views`)."""

from __future__ import annotations

from ..extract import rules

# A value or maturity conflict between sources is a contradiction when at least this sure (else
# "possible"): a base, plus how explicitly both sides name their release and subject, and whether
# they speak of the subject itself rather than of a part of it.
CONTRADICTION_CONFIDENCE = 0.7
CONFLICT_CONFIDENCE_BASE = 0.5
CONFLICT_EXPLICIT_RELEASE = 0.2
CONFLICT_EXPLICIT_SUBJECT = 0.15
CONFLICT_WHOLE_SUBJECT = 0.15
# ...and only possible for attributes (or their prefixes) a product has several values of, which
# no rule here tells apart (a price per configuration, market and date, several of each physical
# measure, a battery life per use, a charging time per charge level, a training time per phase, a
# design life nominal or extended),
# or that the word keying them says too little of ("supported for three years": the support
# period, or how long a feature has been supported), or that may be a part's ("the CLI requires
# Node.js 18 or later": the least version of a dependency; "memory is down 18%" of a release with no
# part named: `reduction_memory`, a change keyed by what it measures, `extract.claims`), or a change
# no word keys by its measure ("C++ builds: compile times down 18%" / "link times down 40%": a
# subject has several).
MEASURED_CHANGE = "^(" + "|".join(rules.DIRECTED_CHANGES) + ")_"
POSSIBLE_ONLY = (
    "^(price|measure_|battery_life|charge_time|training_time|support_period|warranty|design_life|minimum_|recommended_"
    "|startup$|acceleration|generation_time)"
    "|" + MEASURED_CHANGE + "|^(" + "|".join(sorted(rules.CHANGES)) + ")$"
)

# Maturity values that agree with one another (`extract.rules.RELEASE_STATUSES`), as an SQL list.
RELEASED = tuple(sorted(rules.RELEASE_STATUSES))

# A figure changed between two renderings is a contradiction when its pairing is at least this sure.
ALIGNED_CONTRADICTION_CONFIDENCE = 0.5

# Candidate renderings of one article (`document_pairs`): documents sharing at least this many names
# and URLs, covering this share of the lighter one's weight (inverse document frequency; a name in
# more than half the corpus weighs nothing, unless in at most RENDERINGS_PER_ARTICLE documents, the
# renderings one article has: an original, its ja and zh translations, a draft); a concept in more
# documents than ANCHOR_MAX_DOCUMENTS is the field's vocabulary.
PAIR_MIN_SHARED_ANCHORS = 5
PAIR_MIN_OVERLAP = 0.7
RENDERINGS_PER_ARTICLE = 4
ANCHOR_MAX_DOCUMENTS = 20
# ...candidates come from the rarest names of each document (prefix filtering), those in at most this
# share of the documents (or ANCHOR_MAX_DOCUMENTS), so that proposing them stays near linear in the corpus.
CANDIDATE_MAX_SHARE = 0.01
# ...or documents that are each other's nearest in meaning (weighted Dice of their concepts), at
# least this similar and sharing this many rare concepts: under these floors two documents share
# only their field's vocabulary, or are two notes too short to tell a translation from a report
# (renderings of this corpus share 37 or more).
PAIR_MIN_SIMILARITY = 0.2
PAIR_MIN_SHARED_CONCEPTS = 12

# ...or copies of one text: documents that share, word for word, this share of each one's sentences
# (of 20 characters or more), and at least this many, whatever their anchors (copies of an article
# share every anchor, so many copies made each anchor common). A sentence in more documents than
# this is boilerplate (a footer, a licence) and ties nothing.
COPY_MIN_SHARE = 0.5
COPY_MIN_SENTENCES = 3
COPY_MAX_DOCUMENTS = 50

# Two documents are renderings of one article when this share of each one's sentences aligns, in
# units aligned at least this surely: with concepts, translations and drafts align 0.66-1.0 of their
# sentences; independent write-ups of one release that follow its announcement closely align up to
# 0.64 (corpus3 001/003: 0.637; the new-domain write-ups of tests/newdomain: 0.52-0.62); others under 0.2.
RENDERING_COVERAGE = 0.65
# ...and, in fewer than this many surely aligned sentences, nearly all of each aligns: two five-sentence
# notes about one release align two thirds of what little they say without rendering one article, and
# two outlets' 10-12-sentence write-ups that follow one announcement align 8 or 9 surely, 0.73-0.75 of
# each (adversarial reviews' cases); a short translation or draft aligns whole; the labelled
# renderings align 42 sentences or more, the reviews' translations 12 or more.
RENDERING_MIN_UNITS = 12
# ...and at least this many align surely: two notes of two or three sentences that state the same
# facts align whole, rendering one article or not (no one can tell, so they stay two sources).
RENDERING_MIN_SURE = 4
SHORT_RENDERING_COVERAGE = 0.9
# ...and the figures of those sentences mostly have a partner on the other side: translations keep
# 0.77-1.0 of them, a write-up retelling 64 % of a blog post in its own words kept 0.64.
RENDERING_FIGURES_KEPT = 0.7
CONFIDENT_UNIT = 0.5

# Two renderings in one language whose aligned sentences are this often word for word the same are
# one source (a draft and its proofread version).
SAME_SOURCE_SHARE = 0.5

# Truth discovery: every source's trust before the first round, and the rounds to its fixed point.
INITIAL_TRUST = 0.8
TRUST_ROUNDS = 20


def placeholders() -> dict[str, str]:
    """Every threshold by name, as the SQL views read it, and the pattern of a model's variants."""
    values = {name: repr(value) for name, value in globals().items() if name.isupper()}
    return values | {"MODEL_VARIANT": repr(rules.model_variant_pattern())}

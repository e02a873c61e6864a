"""Who a claim is about: an open-vocabulary subject finder, with the glossary as aliases.

Candidates in a segment: glossary mentions (their aliases join names across languages:
"SDPA 的 cuDNN 后端" = "CuDNNバックエンド" = "cuDNN backend for SDPA"), product and feature
names in Latin script ("FlexAttention", "ZeRO++", "torch.compile", "Flight Recorder",
"cuDNN 8.5.0"), names quoted in 「」『』《》, and the feature a maturity tag introduces
("[Beta] Semi-structured sparsity"). A name the glossary does not know gets the id of its
slug ("semi-structured-sparsity"), so the same name groups with itself across articles;
words that name a kind of thing (GPU, model, library: `generic_subjects` in
lang/common.yaml) are never subjects.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from functools import lru_cache

from ..lang import clause_mark_chars, common_rules, every_language, profile, quotation_pairs
from .clauses import comma_part
from .entities import HARDWARE, MATURITY, VERSION, Entity
from .glossary import FEATURE_MARK, SubjectMention, glossary, glossary_mentions
from .lexicon import stem
from .meaning import word_senses
from .notation import alternation, longest_first
from .rules import coordination, is_release_product, not_names, release_products_named, rules_for

# A Latin product name: a capitalised or camel-cased word or run of them ("TorchInductor",
# "ZeRO++", "Flight Recorder"), a dotted identifier ("torch.compile"), or a lower-case word
# with an inner capital ("cuDNN", "fastText"); a model's name with its family's version glued to
# it ("Qwen2.5-72B-Instruct", not the release "Qwen2.5" alone).
_LATIN_NAME = re.compile(
    r"(?<![A-Za-z0-9_.\-])(?:[A-Za-z][A-Za-z0-9]*\.[A-Za-z_][A-Za-z0-9_.]*[A-Za-z0-9_]"
    r"|(?:[A-Z][A-Za-z0-9]*(?:\.\d+(?=-[A-Za-z0-9]))?|[a-z]+[A-Z][A-Za-z0-9]*)(?:\+\+)?"
    r"(?:[ -](?:[A-Z][A-Za-z0-9+]*|\d[A-Za-z0-9.]*))*)"
    r"(?![A-Za-z0-9_])"
)
# A tag in brackets opening a heading or list item ("[Beta] Semi-structured sparsity").
_TAG = re.compile(r"^\s*(?P<bracket>[\[(]\s*(?P<tag>[^\])]{1,20}?)\s*[\])])\s*(?P<name>.+?)\s*$")
_TAG_NAME_MAX = 60
# Where what follows a maturity stops being said of it: a comma, a clause mark or a sentence end
# (text is NFKC-normalised: "，" is ",").
_NAME_IN_QUOTES = r"[^{closers}]{{2,40}}"


@lru_cache(maxsize=1)
def _quoted() -> re.Pattern:
    """A name in the quotation marks of any language (`quotes` in lang/<code>/language.yaml: 「」, 《》)."""
    pairs = quotation_pairs()
    if not pairs:
        return re.compile("(?!)")
    openers, closers = "".join(p[0] for p in pairs), "".join(p[1] for p in pairs)
    return re.compile(f"[{re.escape(openers)}]({_NAME_IN_QUOTES.format(closers=re.escape(closers))})[{re.escape(closers)}]")


@lru_cache(maxsize=1)
def _model_name() -> re.Pattern:
    """A model's short name: letters and digits ("X7", "A780"), or a number before a variant word ("17
    Pro Max"), then its variant words (`model_variants` in lang/common.yaml, capitalised)."""
    variant = rf"\s(?=[A-Z])(?i:{alternation(common_rules()['model_variants'])})(?![A-Za-z])"
    return re.compile(rf"(?<![A-Za-z0-9_.\-])(?:[A-Z]{{1,3}}\d{{1,4}}[a-z]?(?![A-Za-z0-9])|\d{{1,3}}(?={variant}))(?:{variant})*")


def models_named(text: str, start: int, end: int) -> list[SubjectMention]:
    """The short model names in the part of `text` that commas bound around [start, end) ("The
    standard X7 has a 6.3-inch display", "while the 17 Pro Max has a 6.9-inch screen"): names the
    name reader does not take, which a figure beside them belongs to; not a kind of part ("288GB HBM4")."""
    low, high = comma_part(text, start, end)
    return [
        SubjectMention(slug(m.group()), m.group(), m.start(), m.end())
        for m in _model_name().finditer(text, low, high)
        if not is_generic(m.group())
    ]


def slug(text: str) -> str:
    """'Semi-structured sparsity' -> 'semi-structured-sparsity'; 'cuDNN 8.5.0' -> 'cudnn-8-5-0'."""
    return re.sub(r"[^\w+]+", "-", text.casefold()).strip("-")


@lru_cache(maxsize=1)
def _generic() -> frozenset[str]:
    # (and a numeric precision, which is a condition: "2,250 TFLOPS of dense FP8 compute")
    precisions = [word for words in common_rules()["conditions"]["precision"].values() for word in words]
    return frozenset(str(w).casefold() for w in [*every_language("generic_subjects"), *precisions])


def is_generic(name: str) -> bool:
    """A word for a kind of thing ("GPU", "model"), or a name made only of such words."""
    words = re.split(r"[\s\-]+", name.casefold())
    return all(word in _generic() for word in words if word)


def _covered(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def name_mentions(
    text: str, entities: Sequence[Entity], taken: Sequence[SubjectMention], known: Collection[str] = ()
) -> list[SubjectMention]:
    """Latin names and quoted names the glossary does not know, as slug-id mentions.

    Hardware is a condition, not a subject; a maturity word is a value; a product version
    ("PyTorch 2.5") or a release product's bare name ("PyTorch") is the release. In Latin-script
    prose a sentence's first word is capitalised anyway: it is a name only if it looks like one (an
    inner capital, a digit, a dot or "++") or its document writes it capitalised inside a sentence
    too (`known`: "Vela carries a 30-liter tank" where another sentence says "according to Vela"),
    unless a verb makes it the source of what follows ("Arcwright claims 1.6x…": `attributions`)."""
    blocked = [(e.start, e.end) for e in entities if e.label in (HARDWARE, MATURITY)]
    blocked += [(m.start, m.end) for m in taken]
    products = release_products_named(text)
    latin_prose = not any(unicodedata.east_asian_width(char) in "WF" for char in text)
    found = []
    for match in _LATIN_NAME.finditer(text):
        name, start = _without_leading_words(match.group().strip(), match.start())
        name = _headline_name(name)
        end = start + len(name)
        if _covered(start, end, blocked) or is_generic(name) or len(name) < 3:
            continue
        if products and release_products_named(name) and slug(name) in products:
            continue  # "PyTorch": the release itself, not a feature of it
        sentence_start = not text[:start].strip() or text[:start].rstrip()[-1:] in ".!?:"
        plain = " " not in name and not re.search(r"[A-Z]|\d|\.|\+\+", name[1:])
        if latin_prose and sentence_start and plain and (name not in known or _attribution().match(text, end)):
            continue
        found.append(SubjectMention(slug(name), name, start, end))
    for match in _quoted().finditer(text):
        name = match.group(1).strip()
        if not _covered(match.start(1), match.end(1), blocked) and not is_generic(name):
            found.append(SubjectMention(slug(name), name, match.start(1), match.end(1)))
    return found


def _headline_name(name: str) -> str:
    """A name as far as a headline in title case still names it: not past a word that names
    nothing ("Calyra Motors Unveils the Lumeo S7": `not_names`), nor past its number where capitalised
    words go on ("Arclight X9 Pushes AI Accelerators Into…", "Aerobook 14 First Look"; not "Galaxy
    S24 Ultra", "Llama 3 70B Instruct": variants and sizes)."""
    words = name.split(" ")
    variants = _variant_words()
    for at, word in enumerate(words[1:], start=1):
        if word.isalpha() and word.casefold() in not_names():  # (not "Q3": a model's code)
            return " ".join(words[:at])
        numbered = any(char.isdigit() for char in words[at - 1])
        if numbered and at >= 2 and word.isalpha() and word[:1].isupper() and word.casefold() not in variants:
            return " ".join(words[:at])
    return name


@lru_cache(maxsize=1)
def _variant_words() -> frozenset[str]:
    return frozenset(str(v).casefold() for v in common_rules()["model_variants"])


def _without_leading_words(name: str, start: int) -> tuple[str, int]:
    """A name without the words before it that name nothing ("The Frobnicator", "With FooBar"),
    and where it then starts; "" when nothing is left."""
    words = name.split(" ")
    while words and words[0].casefold() in not_names():
        start += len(words.pop(0)) + 1
    return " ".join(words), start


def tagged_feature(text: str, entities: Sequence[Entity]) -> SubjectMention | None:
    """The feature a maturity tag introduces in a heading or list item: "[Beta] Semi-structured sparsity"."""
    match = _TAG.match(text)
    if not match or len(match["name"]) > _TAG_NAME_MAX or not _is_maturity(match, entities):
        return None
    glossary = glossary_mentions(match["name"])
    if glossary:
        first = glossary[0]
        return SubjectMention(first.subject, first.surface, match.start("name") + first.start, match.start("name") + first.end)
    name = match["name"].strip(" *:")
    if is_generic(name) or not name:
        return None
    return SubjectMention(slug(name), name, match.start("name"), match.start("name") + len(name))


def _is_maturity(match: re.Match, entities: Sequence[Entity]) -> bool:
    """The bracket holds a maturity word and nothing else ("[Beta]", "(原型)"; not "[Beta feature]")."""
    tag = match["tag"].casefold()
    return any(
        e.label == MATURITY
        and match.start("bracket") <= e.start
        and e.end <= match.end("bracket")
        and re.sub(r"[\[\]()\s]", "", e.text).casefold() == tag
        for e in entities
    )


def is_specific(mention: SubjectMention, entities: Sequence[Entity]) -> bool:
    """A subject as sure as a glossary one: the glossary knows it, or it is a product with its
    version ("cuDNN 8.5.0")."""
    return mention.subject in glossary() or any(
        e.label == VERSION and e.start == mention.start and e.end <= mention.end for e in entities
    )


def subject_mentions(text: str, entities: Sequence[Entity], known: Collection[str] = ()) -> list[SubjectMention]:
    """Every candidate subject of a segment, in text order: glossary mentions first where they overlap
    (`known`: the words its document writes as names inside sentences, `names_inside_sentences`)."""
    glossary = glossary_mentions(text)
    # A release ("PyTorch 2.5", or a version of a product no list names: "Quuxly 3.5") is what a
    # text is about, not a subject among others.
    names = [
        m
        for m in name_mentions(text, entities, glossary, known)
        if not any(e.label == VERSION and is_release_product(e.product) and e.start <= m.start < e.end for e in entities)
    ]
    return sorted([*glossary, *names], key=lambda m: m.start)


def names_inside_sentences(texts: Iterable[str]) -> frozenset[str]:
    """The capitalised words prose writes inside its sentences, after a lower-case word or a comma
    ("according to Fieldkite", "the Vela"): names, whichever sentence they open."""
    return frozenset(word for text in texts for word in _INSIDE_A_SENTENCE.findall(text) if not is_generic(word))


@lru_cache(maxsize=1)
def _attribution() -> re.Pattern:
    """A verb that makes the name before it the source of what follows (`attributions`)."""
    return re.compile(rf"\s(?:{alternation(every_language('attributions'))})\b")


_INSIDE_A_SENTENCE = re.compile(r"(?<=[a-z,;] )([A-Z][a-z]{2,})\b(?![-.]\w)")


def coordinated(text: str, mentions: Sequence[SubjectMention], subject: SubjectMention) -> list[SubjectMention]:
    """The mentions a list joins to `subject`, before and after it ("Apple M1 チップと functorch":
    functorch for Apple M1): what the sentence says of one, it says of each."""
    ordered = sorted(mentions, key=lambda m: m.start)
    if subject not in ordered:
        return []
    at = ordered.index(subject)
    joined = []
    for step in (-1, 1):
        current, i = subject, at + step
        while 0 <= i < len(ordered):
            other = ordered[i]
            left, right = (other, current) if step < 0 else (current, other)
            if left.end > right.start or not coordination().fullmatch(text, left.end, right.start):
                break
            joined.append(other)
            current, i = other, i + step
    return joined


def nearest(mentions: Sequence[SubjectMention], start: int, end: int) -> SubjectMention | None:
    """The mention closest to [start, end), preferring one before it over one after at equal distance."""

    def distance(m: SubjectMention) -> tuple[int, int]:
        return (start - m.end, 0) if m.end <= start else (m.start - end, 1)

    outside = [m for m in mentions if m.end <= start or m.start >= end]
    return min(outside, key=distance, default=None)


def head_mention(mentions: Sequence[SubjectMention], lang: str, text: str = "") -> SubjectMention | None:
    """The subject a heading or cell is about, a glossary subject before a name: head-final
    languages (Chinese, Japanese: see their profiles) put the head noun last ("TorchInductor
    中的 BF16 符号形状优化"), English first ("FlexAttention in TorchInductor"); not who announces
    it ("Halcyon Labs releases Orin-3": `announcing` in lang/<code>/rules.yaml). A heading of several
    parts speaks of what its first part with a name names ("Novaro「Vela 7」日本上陸へ 価格は7万9800円から、
    FeliCaにも対応": Vela 7, not FeliCa, the last name of the last part)."""
    announced = [m for m in mentions if not _announcing().match(text, m.end)] or list(mentions)
    announced = _first_part_named(announced, text)
    candidates = [m for m in announced if m.subject in glossary()] or announced
    if not candidates:
        return None
    if appearing := [m for m in candidates if _appearing().match(text, m.end)]:
        return appearing[0]  # ("Kairo X7 Pro 扫地机器人亮相 IFA": what appears, `appearing`)
    return candidates[-1] if profile(lang).head_final else candidates[0]


_KIND_CHARS = 8  # a kind of thing between a name and its verb ("X7 Pro 扫地机器人亮相")


@lru_cache(maxsize=1)
def _appearing() -> re.Pattern:
    verbs = alternation(longest_first(every_language("appearing")))
    closers = re.escape("".join(pair[1] for pair in quotation_pairs()))
    stops = re.escape(clause_mark_chars())
    return re.compile(rf"[{closers}]?\s?[^\s,:|.!?{stops}]{{0,{_KIND_CHARS}}}?(?:{verbs})") if verbs else re.compile("(?!)")


@lru_cache(maxsize=1)
def _heading_part() -> re.Pattern:
    """Where a heading's parts meet: a comma (a language's clause marks too), a colon, a bar, a dash
    between spaces, a space between two letters of a script written without spaces ("日本上陸へ 価格は")."""
    return re.compile(rf"[,:|{re.escape(clause_mark_chars())}]|\s[-\u2013\u2014]\s|(?<=[^\x00-\x7f])\s+(?=[^\x00-\x7f])")


def _first_part_named(mentions: Sequence[SubjectMention], text: str) -> list[SubjectMention]:
    """The mentions of the first part of a heading that names any."""
    low = 0
    for high in [m.start() for m in _heading_part().finditer(text)] + [len(text)]:
        inside = [m for m in mentions if low <= m.start < high]
        if inside:
            return inside
        low = high
    return list(mentions)


def announces_in(text: str, surface: str) -> bool:
    """`text` (a title) writes the name right before a verb of announcing: the name is who announces
    ("Fieldkite、農業用散布ドローン「Vela」を7月発売", "云厂商 Stratocirrus 推出…")."""
    at = text.casefold().find(surface.casefold())
    return at >= 0 and _announcing().match(text, at + len(surface)) is not None


@lru_cache(maxsize=1)
def _announcing() -> re.Pattern:
    """A verb of announcing right after a name: the name is who announces (a Latin verb as a whole word;
    "、" before any text: "Nimbra Robotics、AI障害物回避を強化した…")."""
    verbs = longest_first(every_language("announcing"))
    patterns = [(re.escape(v) + "(?![A-Za-z])" if v[-1:].isascii() and v[-1:].isalpha() else re.escape(v)) for v in verbs]
    return re.compile(rf"\s?(?:{'|'.join(patterns) or '(?!)'})", re.I)


_INSTRUMENT_CHARS = 16  # room for the words that make a name a tool ("by means of", "を使用して")


def relation_candidates(
    mentions: Sequence[SubjectMention],
    text: str,
    lang: str | None,
    clause: tuple[int, int],
    phrase: int,
    value: tuple[int, int],
) -> list[SubjectMention]:
    """The names of a relation's clause that may be what does it ("ZeRO-Infinity offloads…"): not its
    value, not its verb's original in brackets inside the phrase at `phrase` ("卸载(Offload)到"), and
    not a tool where another name is there ("…by using DeepNVMe to offload", "借助 X", "X を使用して":
    `instruments` in lang/<code>/rules.yaml)."""
    (low, high), (start, end) = clause, value
    in_clause = [
        m
        for m in mentions
        if (m.end <= start or m.start >= end)
        and low <= m.start
        and m.end <= high
        and not (phrase < m.start < start and text[m.start - 1] == "(")
    ]
    rules = rules_for(lang)
    acting = [
        m
        for m in in_clause
        if not rules.instrument_before.search(text, max(0, m.start - _INSTRUMENT_CHARS), m.start)
        and not rules.instrument_after.match(text[m.end : m.end + _INSTRUMENT_CHARS])
    ]
    return acting or in_clause


_FIRST_WORD_CHARS = 16  # enough of a sentence's opening for its first word ("它们", "これ", "these")


def opens_pointing_back(text: str, lang: str | None) -> bool:
    """The sentence's first word points back to the previous sentence's subject ("This…",
    "これにより…", "该模型…"): a whole word of the language's `anaphora`, as its word segmenter cuts
    it, so that words which merely begin alike do not ("Items…", "此外" besides, "其他" other,
    "本番" production, "それぞれ" each)."""
    opening = text.lstrip()[:_FIRST_WORD_CHARS]
    if not opening:
        return False
    if ord(opening[0]) > 0x2E7F:
        # spaCy comes with the first CJK sentence that needs it, as in `meaning.concepts`
        from .nlp import words

        first = next(iter(words(opening, profile(lang).code)), "")
    else:
        latin = re.match(r"[A-Za-z]+", opening)
        first = latin.group() if latin else ""
    return first.casefold() in profile(lang).anaphora


_OPENING_CHARS = 8  # a clause's opening: a connective before the phrase ("ただし、この機能", "However, this feature")


@lru_cache(maxsize=16)
def _feature_anaphora(lang: str | None) -> re.Pattern:
    """The phrases of a language that name the feature a section is about ("この機能", "this
    feature": `feature_anaphora` in lang/<code>/language.yaml), as words."""
    return re.compile(rf"(?<![A-Za-z])(?:{alternation(profile(lang).feature_anaphora)})(?![A-Za-z])", re.I)


def points_back(text: str, lang: str | None, low: int, start: int, end: int, mentions: Sequence[SubjectMention]) -> bool:
    """The clause at `low` opens with a phrase naming the section's feature ("ただし、この機能は",
    "This feature is", "该功能") and says the maturity at [start, end) of it: no name stands between
    them ("该功能可通过 PyTorch 预览版": that product's build) nor after the maturity before the next
    comma ("This feature ships an alpha of the Foo serializer": Foo's)."""
    match = _feature_anaphora(lang).search(text, low, start)
    if not match or match.start() - low > _OPENING_CHARS:
        return False
    _, after = comma_part(text, end, end)
    return not (
        any(low <= m.start < start or end <= m.start < after for m in mentions) or re.search("[A-Z]", text[match.end() : start])
    )


_TOPIC_WORDS = 3  # words of a feature's phrase that key it, at most
_TOPIC_CONCEPTS = 3  # concepts of each


@lru_cache(maxsize=16)
def _status_phrase(lang: str | None) -> tuple[re.Pattern, re.Pattern, frozenset[str]] | None:
    rules = profile(lang).rules
    if not rules.get("status_copula") or not rules.get("status_topic"):
        return None
    return (
        re.compile(f"(?:{rules['status_copula']})$", re.I),
        re.compile(f"(?:{rules['status_topic']})$"),
        frozenset(str(word).casefold() for word in rules.get("topic_bounds") or ()),
    )


@lru_cache(maxsize=1)
def _topic_fillers() -> frozenset[str]:
    return frozenset(stem(str(word)) for word in common_rules()["topic_fillers"])


def status_topic(text: str, lang: str | None, low: int, start: int) -> SubjectMention | None:
    """The feature common words name as what the status at `start` is said of, the phrase right
    before the words joining them ("The new pet mode is still in beta", "新しいペットモードはベータ版",
    "新的宠物模式目前仍为测试版": `status_copula`, `status_topic`, `topic_bounds` in
    lang/<code>/rules.yaml), keyed by the concepts of its words ("~pet~mode", "~pet|trumpet~mode|fashion":
    the caller puts its owner before it), which the checks match word by word through any shared
    concept (10_claim_clusters.sql). Words that tell no feature from another ("new", "機能":
    `topic_fillers`) are left out; nothing is left of "the feature", "the model"."""
    patterns = _status_phrase(lang)
    if patterns is None:
        return None
    copula, topic, bounds = patterns
    joined = copula.search(text, low, start)
    phrase = joined and topic.search(text, low, joined.start())
    if not phrase or is_generic(phrase.group()):
        return None
    senses = word_senses(phrase.group(), lang)
    cut = max((i + 1 for i, (word, _) in enumerate(senses) if word.casefold() in bounds), default=0)
    kept = [concepts[:_TOPIC_CONCEPTS] for _, concepts in senses[cut:] if concepts and concepts[0] not in _topic_fillers()]
    if not kept or len(kept) > _TOPIC_WORDS:
        return None
    words = "".join(word if ord(word[0]) > 0x2E7F else f" {word}" for word, _ in senses[cut:]).strip()
    offset = phrase.end() - len(words) if phrase.group().endswith(words) else phrase.start()
    key = "".join(FEATURE_MARK + "|".join(concepts) for concepts in kept)
    return SubjectMention(key, words, offset, phrase.end())


@lru_cache(maxsize=1)
def _possessive() -> re.Pattern:
    closers = re.escape("".join(pair[1] for pair in quotation_pairs()))
    return re.compile(rf"[\s{closers}]*(?:{alternation(every_language('possessives'))})\s*$")


def possessive_between(text: str, end: int, start: int) -> bool:
    """Only a possessive stands between a name ending at `end` and a phrase at `start` ("BarLib の",
    "「X2」の", "Lumo's", "Acme 的")."""
    return 0 <= end <= start and bool(_possessive().fullmatch(text, end, start))

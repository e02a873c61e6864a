"""The extract stage: every figure of a segment read once (`reader`, with the vocabulary and values
of `notation`), labelled as entities (`entities`) by the rules of its languages (`rules`, with
`prefilter` skipping the patterns a text cannot match); language-independent anchors for aligning
renderings (`anchors`: names, numbers and concepts, what words mean in English through the
bilingual dictionaries of `lexicon`, a sentence's words found by `nlp` in `meaning`); claims with
their subjects (`subjects`, `glossary`), the words around a value (`phrases`), conditions and
releases (`claims`); the fidelity of a translation
(`fidelity`); all of one document as rows (`document`). `nlp` holds each language's spaCy
pipeline: its tokenizer finds the words of Chinese and Japanese, and the same entity rules run
inside it as a component.
"""

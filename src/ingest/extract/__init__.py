"""The extract stage: every figure of a segment read once (`reader`, with the vocabulary and values
of `notation`), labelled as entities (`entities`) by the rules of its languages (`rules`, with
`prefilter` skipping the patterns a text cannot match); language-independent anchors for aligning
renderings (`anchors`); claims with their subjects (`subjects`, `glossary`), the words around a
value (`phrases`), conditions and releases (`claims`); the fidelity of a translation
(`fidelity`); all of one document as rows (`document`). `nlp` offers the same rules inside spaCy
pipelines.
"""

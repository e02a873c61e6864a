"""The extract stage: entities from rules (`rules`, `entities`, `numbers`), run inside spaCy
pipelines (`nlp`); language-independent anchors for aligning renderings (`anchors`); claims
with glossary subjects (`glossary`, `claims`); all of one document as rows (`document`)."""

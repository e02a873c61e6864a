"""Accuracy against hand labels: entities and claims across articles (`claims`, labels in
tests/labels/), and changes between renderings of one article (`renderings`, labels in
tests/labels/corpus2/, converted from ../shared/corpus2/LABELS.md)."""

from .claims import Evaluation, Score, evaluate, summary_rows

__all__ = ["Evaluation", "Score", "evaluate", "summary_rows"]

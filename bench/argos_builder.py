"""Build structurally faithful `.argosmodel` packages with random weights, for tests and benchmarks.

A built package has the layout argos-train produces (one top-level folder holding
metadata.json, sentencepiece.model and a CTranslate2 `model/` with model.bin and
shared_vocabulary.txt, zipped with deflate) and a randomly initialised Transformer, so
packaging, loading, tokenisation, batching and speed behave as with a real package while
its translations are noise by construction.

The tokenizer is either the real one of a published package (`skeleton_tokenizer`, from
the files in ../shared/argos-skeleton) or a SentencePiece model trained in well under a
second on a few lines of text (`trained_tokenizer`).
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import sentencepiece
from ctranslate2.specs import common_spec, transformer_spec

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SKELETON = REPO_ROOT.parent / "shared" / "argos-skeleton"

# OpenNMT-py puts its own specials first; `<blank>` is its padding token.
OPENNMT_SPECIALS = ("<unk>", "<blank>", "<s>", "</s>")
SENTENCEPIECE_SPECIALS = {"<unk>", "<s>", "</s>"}
LANGUAGE_NAMES = {"en": "English", "ja": "Japanese", "zh": "Chinese"}
ARGOS_VERSION = "1.1"


@dataclass(frozen=True)
class ModelSize:
    """Transformer dimensions; the spec API needs layers and heads, weights give the rest."""

    encoder_layers: int
    decoder_layers: int
    d_model: int
    heads: int
    ffn: int


# Small enough that building and loading take milliseconds.
TINY = ModelSize(encoder_layers=1, decoder_layers=1, d_model=32, heads=2, ffn=64)
# argos-train's config.yml (used for the published 1.x packages): OpenNMT-py Transformer
# base, 6+6 layers, d_model 512, 8 heads, FFN 2048, separate encoder/decoder embeddings
# and generator over a 50,004-token vocabulary: about 122 MB of int8 weights.
ARGOS_BASE = ModelSize(encoder_layers=6, decoder_layers=6, d_model=512, heads=8, ffn=2048)


@dataclass(frozen=True)
class PackageTokenizer:
    """A SentencePiece model and the CTranslate2 vocabulary that goes with it."""

    sentencepiece_model: bytes
    vocabulary: tuple[str, ...]
    metadata: dict | None = None  # the published package's metadata, when known


def skeleton_tokenizer(skeleton: Path) -> PackageTokenizer:
    """The real tokenizer, vocabulary and metadata of a published package folder."""
    skeleton = Path(skeleton)
    lines = (skeleton / "model" / "shared_vocabulary.txt").read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the file ends with a newline, not with an empty token
    return PackageTokenizer(
        sentencepiece_model=(skeleton / "sentencepiece.model").read_bytes(),
        vocabulary=tuple(lines),
        metadata=json.loads((skeleton / "metadata.json").read_text(encoding="utf-8")),
    )


def trained_tokenizer(texts: Sequence[str], vocab_size: int = 1000) -> PackageTokenizer:
    """A SentencePiece model trained on `texts`; `vocab_size` is an upper bound."""
    model = io.BytesIO()
    sentencepiece.SentencePieceTrainer.train(
        sentence_iterator=iter(texts),
        model_writer=model,
        vocab_size=vocab_size,
        character_coverage=1.0,
        hard_vocab_limit=False,  # small corpora cannot fill a fixed vocabulary
        minloglevel=2,
    )
    processor = sentencepiece.SentencePieceProcessor(model_proto=model.getvalue())
    pieces = (processor.id_to_piece(i) for i in range(processor.get_piece_size()))
    vocabulary = OPENNMT_SPECIALS + tuple(p for p in pieces if p not in SENTENCEPIECE_SPECIALS)
    return PackageTokenizer(sentencepiece_model=model.getvalue(), vocabulary=vocabulary)


def build_package(
    out_dir: Path,
    from_code: str,
    to_code: str,
    tokenizer: PackageTokenizer,
    size: ModelSize = TINY,
    version: str | None = None,
    seed: int = 0,
) -> Path:
    """Write `translate-FROM_TO-VERSION.argosmodel` into `out_dir` and return its path.

    `version` defaults to the published package's version, else "1.0".
    """
    metadata = _metadata(from_code, to_code, version, tokenizer.metadata)
    version = metadata["package_version"]
    folder = f"translate-{from_code}_{to_code}-{version.replace('.', '_')}"
    archive = Path(out_dir) / f"{folder}.argosmodel"
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / folder
        (root / "model").mkdir(parents=True)
        (root / "metadata.json").write_text(json.dumps(metadata, indent=4), encoding="utf-8")
        (root / "sentencepiece.model").write_bytes(tokenizer.sentencepiece_model)
        _write_model(root / "model", tokenizer.vocabulary, size, seed)
        _zip_folder(root, archive)
    return archive


def _metadata(from_code: str, to_code: str, version: str | None, published: dict | None) -> dict:
    if published and (published.get("from_code"), published.get("to_code")) == (from_code, to_code):
        return {**published, "package_version": version or published["package_version"]}
    return {
        "package_version": version or "1.0",
        "argos_version": ARGOS_VERSION,
        "from_code": from_code,
        "from_name": LANGUAGE_NAMES.get(from_code, from_code),
        "to_code": to_code,
        "to_name": LANGUAGE_NAMES.get(to_code, to_code),
    }


def _write_model(model_dir: Path, vocabulary: Sequence[str], size: ModelSize, seed: int) -> None:
    spec = _random_transformer(len(vocabulary), size, np.random.default_rng(seed))
    spec.register_source_vocabulary(list(vocabulary))
    spec.register_target_vocabulary(list(vocabulary))
    spec.validate()
    spec.optimize(quantization="int8")  # argos-train converts with --quantization int8
    spec.save(str(model_dir))
    # Published packages carry the vocabulary as text (older CTranslate2); 4.x reads both.
    (model_dir / "shared_vocabulary.json").unlink()
    (model_dir / "shared_vocabulary.txt").write_text("".join(f"{token}\n" for token in vocabulary), encoding="utf-8")


def _random_transformer(vocab_size: int, size: ModelSize, rng: np.random.Generator) -> transformer_spec.TransformerSpec:
    """A pre-norm Transformer spec (OpenNMT-py v2 layout) filled with random weights."""
    spec = transformer_spec.TransformerSpec.from_config((size.encoder_layers, size.decoder_layers), size.heads)
    weights = _RandomWeights(rng, size.d_model)
    encoder, decoder = spec.encoder, spec.decoder
    encoder.embeddings[0].weight = weights.matrix(vocab_size, size.d_model)
    decoder.embeddings.weight = weights.matrix(vocab_size, size.d_model)
    weights.linear(decoder.projection, vocab_size, size.d_model)
    weights.layer_norm(encoder.layer_norm)
    weights.layer_norm(decoder.layer_norm)
    for layer in encoder.layer:
        weights.self_attention(layer.self_attention)
        weights.feed_forward(layer.ffn, size.ffn)
    for layer in decoder.layer:
        weights.self_attention(layer.self_attention)
        weights.cross_attention(layer.attention)
        weights.feed_forward(layer.ffn, size.ffn)
    return spec


class _RandomWeights:
    """Fills spec layers with scaled Gaussian weights, shaped as CTranslate2 expects."""

    def __init__(self, rng: np.random.Generator, d_model: int) -> None:
        self.rng = rng
        self.d = d_model

    def matrix(self, rows: int, cols: int) -> np.ndarray:
        # 1/sqrt(fan_in) keeps activations O(1) through the layers.
        return self.rng.standard_normal((rows, cols), dtype=np.float32) / np.float32(np.sqrt(cols))

    def linear(self, spec: common_spec.LinearSpec, out_dim: int, in_dim: int) -> None:
        spec.weight = self.matrix(out_dim, in_dim)
        spec.bias = np.zeros(out_dim, dtype=np.float32)

    def layer_norm(self, spec: common_spec.LayerNormSpec) -> None:
        spec.gamma = np.ones(self.d, dtype=np.float32)
        spec.beta = np.zeros(self.d, dtype=np.float32)

    def self_attention(self, spec) -> None:
        self.layer_norm(spec.layer_norm)
        self.linear(spec.linear[0], 3 * self.d, self.d)  # fused query, key, value
        self.linear(spec.linear[1], self.d, self.d)

    def cross_attention(self, spec) -> None:
        self.layer_norm(spec.layer_norm)
        self.linear(spec.linear[0], self.d, self.d)  # query
        self.linear(spec.linear[1], 2 * self.d, self.d)  # fused key, value
        self.linear(spec.linear[2], self.d, self.d)

    def feed_forward(self, spec, ffn: int) -> None:
        self.layer_norm(spec.layer_norm)
        self.linear(spec.linear_0, ffn, self.d)
        self.linear(spec.linear_1, self.d, ffn)


def _zip_folder(root: Path, archive: Path) -> None:
    """Zip like shutil.make_archive does for argos-train: folder entries included, deflated."""
    partial = archive.with_name(archive.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.write(root, root.name)
        for path in sorted(root.rglob("*")):
            zf.write(path, path.relative_to(root.parent).as_posix())
    shutil.move(partial, archive)

"""How much of the report depends on knowing the names: every Latin product and feature name of the
labelled articles is replaced, consistently across all of them and inside their links, by an
invented one, and the findings of the two runs are compared (issue 21: "no finding depends on a
glossary entry"). No labels are read.

    uv run python -m bench.rename_names                       # seeds, ../shared/corpus and corpus3
    uv run python -m bench.rename_names seeds ../shared/corpus3

A name is what the extractor reads as one (`subjects._LATIN_NAME`: "FlexAttention",
"torch.compile", "PyTorch", "DeepSpeed"), except hardware and platforms (conditions, not names of
the release's features), listed dependencies (Python, CUDA, cuDNN), words that name nothing
(`not_names`) or a kind of thing ("API", "GPU": `generic_subjects`), and a line's first word
when it is a plain capitalised word ("Skip to content").
Findings are compared with the invented names mapped back: contradictions (maturity and value
conflicts across articles, changed figures between renderings) and corroborations, as
(attribute, release, values); kept, lost and new are printed.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SYLLABLES = ("zor", "bex", "qua", "lim", "tur", "vek", "nad", "pho", "gri", "sel", "mon", "dax")
_URL = re.compile(r"https?://[^\s)>\]]+")


class Renamer:
    """One invented name per name (case-folded), the same in every article."""

    def __init__(self, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.names: dict[str, str] = {}

    def invent(self, name: str) -> str:
        key = name.casefold()
        if key not in self.names:
            taken = {v.casefold() for v in self.names.values()}
            invented = ""
            while not invented or invented.casefold() in taken:
                invented = "".join(self.rng.choice(SYLLABLES) for _ in range(3)).capitalize()
            self.names[key] = invented
        return self.names[key]

    def rename(self, text: str) -> str:
        from ingest.extract.rules import hardware_in, not_names, platforms_in, rules_for
        from ingest.extract.subjects import _LATIN_NAME, is_generic

        kept = [(m.start, m.end) for m in hardware_in(text, rules_for("ja"))] + [(m.start, m.end) for m in platforms_in(text)]
        kept += [m.span() for m in _dependencies().finditer(text)]
        kept += [m.span() for m in _URL.finditer(text)]
        out, last = [], 0
        for match in _LATIN_NAME.finditer(text):
            for word in re.finditer(r"[^\s-]+", match.group()):
                start, end, name = match.start() + word.start(), match.start() + word.end(), word.group()
                line_start = text.rfind("\n", 0, start) + 1
                first_word = not text[line_start:start].strip(" #*>-")
                if (
                    len(name) < 3
                    or name[0].isdigit()
                    or name.casefold() in not_names()
                    or is_generic(name)
                    or any(s < end and start < e for s, e in kept)
                    or (first_word and name.isalpha() and name[1:].islower())
                ):
                    continue
                out += [text[last:start], self.invent(name)]
                last = end
        renamed = "".join(out) + text[last:]
        return _URL.sub(self._in_link, renamed)

    def _in_link(self, match: re.Match) -> str:
        """The names inside a link, lower-cased, as a site about the product writes them ("/blog/pytorch2-6")."""
        url = match.group()
        for key, name in self.names.items():
            if key.isalpha() and len(key) >= 5:
                url = re.sub(re.escape(key), name.casefold(), url, flags=re.I)
        return url

    def back(self, text: str | None) -> str:
        """`text` with every invented name mapped back to the name it replaced (case-folded)."""
        original = {v.casefold(): k for k, v in self.names.items()}
        return re.sub(r"[a-z]+", lambda m: original.get(m.group(), m.group()), (text or "").casefold())


def _dependencies() -> re.Pattern:
    """The names of the listed products that are dependencies, not releases (Python, CUDA): kept,
    as a write-up of another project names the same Python."""
    from ingest.lang import common_rules

    names = [n for p in common_rules()["products"] if not p.get("release") for n in p["names"]]
    return re.compile("|".join(f"(?:{n})" for n in names))


def _articles(paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix in (".md", ".txt", ".html") and p.name[:1].isdigit())
        elif path.is_file():
            files.append(path)
    return files


def findings(folder: Path) -> tuple[Counter, Counter, set[tuple[str, ...]]]:
    """(contradictions, corroborations, groups of renderings) of a fresh run over `folder`, without translation."""
    from ingest import run_pipeline, warehouse
    from ingest.translate.engine import UntranslatedEngine

    db = folder.parent / "w.duckdb"
    run_pipeline([folder], db, None, engine=UntranslatedEngine(), stage_cache=False)
    con = warehouse.connect(db, read_only=True)
    try:
        conflicts = con.execute(
            "SELECT attribute, release, value_a, value_b FROM conflicts WHERE severity = 'contradiction' "
            "AND (kind LIKE '%_conflict' OR kind = 'aligned_value_mismatch')"
        ).fetchall()
        corroborations = con.execute("SELECT attribute, release, value, n_sources FROM corroborations").fetchall()
        groups = con.execute("SELECT list(doc_id ORDER BY doc_id) FROM renderings GROUP BY group_id ORDER BY 1").fetchall()
    finally:
        con.close()
    return Counter(conflicts), Counter(corroborations), {tuple(g) for (g,) in groups}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rename_names", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="articles or folders (default: seeds, ../shared/corpus, corpus3)")
    args = parser.parse_args(argv)
    paths = args.paths or [ROOT / "seeds", ROOT.parent / "shared" / "corpus", ROOT.parent / "shared" / "corpus3"]
    files = _articles(paths)
    if not files:
        print("no articles found; nothing to measure")
        return 2
    renamer = Renamer()
    with tempfile.TemporaryDirectory(prefix="bench-rename-") as scratch:
        runs = {}
        for side in ("named", "renamed"):
            folder = Path(scratch) / side / "in"
            folder.mkdir(parents=True)
            for file in files:
                text = file.read_text("utf-8")
                (folder / file.name).write_text(text if side == "named" else renamer.rename(text), "utf-8")
            runs[side] = findings(folder)
        shutil.rmtree(scratch, ignore_errors=True)
    named_c, named_k, named_groups = runs["named"]
    renamed_groups = runs["renamed"][2]
    renamed_c = Counter({tuple(renamer.back(str(v)) for v in key): n for key, n in runs["renamed"][0].items()})
    renamed_k = Counter({tuple(renamer.back(str(v)) for v in key): n for key, n in runs["renamed"][1].items()})
    named_c = Counter({tuple(renamer.back(str(v)) for v in key): n for key, n in named_c.items()})
    named_k = Counter({tuple(renamer.back(str(v)) for v in key): n for key, n in named_k.items()})
    print(f"{len(files)} articles, {len(renamer.names)} names replaced")
    kept_groups = len(named_groups & renamed_groups)
    print(f"groups of renderings: {len(named_groups)} with the names, {len(renamed_groups)} renamed, {kept_groups} kept")
    for group in sorted(named_groups ^ renamed_groups):
        print(f"  {'lost' if group in named_groups else 'new '}: {', '.join(group)}")
    for what, named, renamed in (("contradictions", named_c, renamed_c), ("corroborations", named_k, renamed_k)):
        kept = sum((named & renamed).values())
        print(f"{what}: {sum(named.values())} with the names, {sum(renamed.values())} renamed, {kept} kept")
        for key in sorted(named - renamed, key=str):
            print(f"  lost: {key}")
        for key in sorted(renamed - named, key=str):
            print(f"  new:  {key}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

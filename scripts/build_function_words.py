#!/usr/bin/env python3
"""Build the English word list of the Code Functions Picnic game (``functions_picnic``).

The game hides a rule ``rule(word) -> bool`` and shows the player words for which the rule
holds and words for which it does not. This script writes the words it draws from, and the
fixed 500-word sample that every rule (a library rule or a game master's generated code) is
checked on, to ``src/playeval/games/functions_picnic/data/words.json``.

A word is kept when it is

* on Debian's ``wamerican-small`` list (SCOWL size 35, ``/usr/share/dict/american-english-small``),
  written in lowercase ASCII letters only (so no proper nouns, abbreviations or apostrophes),
  3 to 12 letters long;
* a WordNet 3.0 lemma (Debian's ``wordnet-base``, ``/usr/share/wordnet``): lemmas are base forms;
* common, by any of three signs: its senses were tagged at least ``--min-count`` times (10 by
  default) in WordNet's sense-tagged corpus (``cntlist.rev``); it is in SCOWL's size-10 lists, its
  most common words (Debian's ``scowl``, ``/usr/share/dict/scowl/{english,american}-words.10``);
  or it is the one-word name of an everyday item of the Static Picnic data set
  (``src/playeval/games/static_picnic/data/items.json``: fruits, animals, tools...);
* not a regular inflection (-s, -es, -ies, -ed, -d, -ied, -ing, with a doubled consonant or a dropped e)
  of another such word, unless it was tagged ``--min-count`` times itself ("building", "evening");
* not offensive: no sense of the word is glossed as obscene, vulgar, an offensive term, an ethnic
  slur, derogatory or disparaging, none has such a usage domain, and the word is not in ``BLOCKED``.

The sample is the first 500 words in the order of ``sha256("functions-picnic-sample:" + word)``:
no random generator is involved, so any Python gives the same sample from the same words.

Nothing to install but Debian's word lists (none is a dependency of playeval)::

    apt-get install -y wamerican-small scowl wordnet-base
    .venv/bin/python scripts/build_function_words.py            # writes words.json
    .venv/bin/python scripts/build_function_words.py --report   # also prints what was dropped

The output is deterministic: the same input files give byte-identical JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "src" / "playeval" / "games" / "functions_picnic" / "data" / "words.json"
DEFAULT_WORDLIST = Path("/usr/share/dict/american-english-small")
DEFAULT_WORDNET_DIR = Path("/usr/share/wordnet")
DEFAULT_SCOWL_DIR = Path("/usr/share/dict/scowl")
COMMON_SCOWL_FILES: tuple[str, ...] = ("english-words.10", "american-words.10")
DEFAULT_ITEMS = REPO_ROOT / "src" / "playeval" / "games" / "static_picnic" / "data" / "items.json"
INSTALL_HINT = "apt-get install -y wamerican-small scowl wordnet-base"

MIN_LETTERS = 3
MAX_LETTERS = 12
DEFAULT_MIN_COUNT = 10
SAMPLE_SIZE = 500
SAMPLE_SALT = "functions-picnic-sample:"
WORD_PATTERN = re.compile(rf"[a-z]{{{MIN_LETTERS},{MAX_LETTERS}}}")
POS_FILES: tuple[str, ...] = ("noun", "verb", "adj", "adv")

# The same test as the Static Picnic build: a sense glossed like this, or with one of these
# usage domains, makes the whole word unusable.
OFFENSIVE_GLOSS = re.compile(r"\b(obscene|vulgar|offensive (term|name|word)|ethnic slur|derogatory|disparaging)")
OFFENSIVE_USAGE: frozenset[str] = frozenset({"obscenity", "vulgarism", "ethnic_slur", "disparagement", "derogation"})

# Words the filters let through that a word game shown to anyone should not show: sexual,
# crude or slur-like words, identity terms (a rule would label them "not allowed"), and words
# for violence against people or for hard drugs that would be unpleasant as a random example.
# Chosen by reading the candidates; a few entries guard against other versions of the inputs.
BLOCKED: frozenset[str] = frozenset(
    {
        "abortion",
        "addict",
        "bastard",
        "bitch",
        "bloody",
        "breast",
        "butt",
        "cocaine",
        "crap",
        "damn",
        "damned",
        "erotic",
        "fag",
        "gay",
        "genocide",
        "hell",
        "heroin",
        "homosexual",
        "kill",
        "killer",
        "killing",
        "lesbian",
        "massacre",
        "murder",
        "murderer",
        "naked",
        "nude",
        "orgasm",
        "penis",
        "prostitute",
        "prostitution",
        "queer",
        "rape",
        "sex",
        "sexual",
        "sexuality",
        "sexually",
        "sexy",
        "slave",
        "slavery",
        "suicide",
        "torture",
        "vagina",
        "whore",
    }
)


@dataclass(frozen=True)
class Inputs:
    """Where the build reads its sources."""

    wordlist: Path
    wordnet_dir: Path
    scowl_dir: Path
    items: Path
    min_count: int

    def common_files(self) -> tuple[Path, ...]:
        return tuple(self.scowl_dir / name for name in COMMON_SCOWL_FILES)


@dataclass(frozen=True)
class Build:
    """The selected words, and what each filter dropped (``rare`` and ``inflected`` are only counted)."""

    words: tuple[str, ...]
    sample: tuple[str, ...]
    candidates: int
    by_sign: dict[str, int]
    rare: tuple[str, ...]
    inflected: tuple[str, ...]
    offensive: tuple[str, ...]
    blocked: tuple[str, ...]


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def read_wordlist(path: Path) -> set[str]:
    """The lowercase, letters-only words of 3 to 12 letters on the list."""
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.strip()
        if WORD_PATTERN.fullmatch(word):
            words.add(word)
    return words


def read_tag_counts(wordnet_dir: Path) -> Counter[str]:
    """How often each lemma was tagged in WordNet's sense-tagged corpus, summed over its senses."""
    counts: Counter[str] = Counter()
    for line in (wordnet_dir / "cntlist.rev").read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        sense_key, _sense_number, tag_count = parts
        counts[sense_key.split("%", 1)[0]] += int(tag_count)
    return counts


def read_common_words(paths: tuple[Path, ...]) -> set[str]:
    """The words of SCOWL's size-10 lists that have the form of a word of the game."""
    words: set[str] = set()
    for path in paths:
        words |= read_wordlist(path)
    return words


def read_item_names(path: Path) -> set[str]:
    """The one-word names of the Static Picnic items."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return {item["name"] for item in document["items"] if WORD_PATTERN.fullmatch(item["name"])}


def inflections(base: str) -> set[str]:
    """The regular inflections of ``base``: plural or third person, past, present participle."""
    forms = {base + "s", base + "es", base + "ed", base + "ing", base + base[-1] + "ed", base + base[-1] + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y"):
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    forms.discard(base)
    return forms


class WordNetSenses:
    """Looks up a lemma's synsets (gloss and usage domains) in WordNet's index and data files."""

    def __init__(self, wordnet_dir: Path) -> None:
        self._data: dict[str, bytes] = {}
        self._index: dict[str, list[tuple[str, int]]] = {}
        for pos in POS_FILES:
            self._data[pos] = (wordnet_dir / f"data.{pos}").read_bytes()
            for line in (wordnet_dir / f"index.{pos}").read_text(encoding="utf-8").splitlines():
                if line.startswith(" "):
                    continue  # the licence header
                fields = line.split()
                lemma, synset_count, pointer_count = fields[0], int(fields[2]), int(fields[3])
                offsets = fields[4 + pointer_count + 2 :]
                if len(offsets) != synset_count:
                    raise ValueError(f"unexpected index line in index.{pos}: {line!r}")
                self._index.setdefault(lemma, []).extend((pos, int(offset)) for offset in offsets)

    def _synset(self, pos: str, offset: int) -> tuple[list[str], list[tuple[str, str, int]], str]:
        """The words, pointers (symbol, pos file, offset) and gloss of the synset at ``offset``."""
        data = self._data[pos]
        end = data.index(b"\n", offset)
        line = data[offset:end].decode("utf-8")
        head, _, gloss = line.partition(" | ")
        fields = head.split()
        word_count = int(fields[3], 16)
        words = [fields[4 + 2 * i].lower() for i in range(word_count)]
        at = 4 + 2 * word_count
        pointer_count = int(fields[at])
        pointers: list[tuple[str, str, int]] = []
        for i in range(pointer_count):
            symbol, target, target_pos = fields[at + 1 + 4 * i : at + 4 + 4 * i]
            pointers.append((symbol, _pos_file(target_pos), int(target)))
        return words, pointers, gloss

    def is_lemma(self, word: str) -> bool:
        return word in self._index

    def is_offensive(self, word: str) -> bool:
        """True when a sense of ``word`` is glossed as offensive or has an offensive usage domain."""
        for pos, offset in self._index.get(word, []):
            _words, pointers, gloss = self._synset(pos, offset)
            if OFFENSIVE_GLOSS.search(gloss):
                return True
            for symbol, target_pos, target in pointers:
                if symbol == ";u":
                    domain_words, _, _ = self._synset(target_pos, target)
                    if OFFENSIVE_USAGE.intersection(domain_words):
                        return True
        return False


def _pos_file(pos: str) -> str:
    return {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}[pos]


def sample_key(word: str) -> str:
    return hashlib.sha256((SAMPLE_SALT + word).encode("utf-8")).hexdigest()


def choose_sample(words: tuple[str, ...], size: int = SAMPLE_SIZE) -> tuple[str, ...]:
    """The ``size`` words that come first in the order of their salted SHA-256, sorted."""
    if len(words) < size:
        raise ValueError(f"only {len(words)} words, fewer than a sample of {size}")
    return tuple(sorted(sorted(words, key=sample_key)[:size]))


def build(inputs: Inputs) -> Build:
    scowl = read_wordlist(inputs.wordlist)
    counts = read_tag_counts(inputs.wordnet_dir)
    senses = WordNetSenses(inputs.wordnet_dir)
    common = read_common_words(inputs.common_files())
    items = read_item_names(inputs.items)
    candidates = sorted(word for word in scowl if senses.is_lemma(word))
    candidate_set = set(candidates)
    inflected_forms: set[str] = set()
    for word in candidates:
        inflected_forms |= inflections(word) & candidate_set
    by_sign = {"tagged": 0, "scowl_10": 0, "picnic_item": 0}
    rare: list[str] = []
    inflected: list[str] = []
    offensive: list[str] = []
    blocked: list[str] = []
    kept: list[str] = []
    for word in candidates:
        tagged = counts[word] >= inputs.min_count
        if not (tagged or word in common or word in items):
            rare.append(word)
        elif word in inflected_forms and not tagged:
            inflected.append(word)
        elif senses.is_offensive(word):
            offensive.append(word)
        elif word in BLOCKED:
            blocked.append(word)
        else:
            kept.append(word)
            sign = "tagged" if tagged else "scowl_10" if word in common else "picnic_item"
            by_sign[sign] += 1
    words = tuple(kept)
    return Build(
        words=words,
        sample=choose_sample(words),
        candidates=len(candidates),
        by_sign=by_sign,
        rare=tuple(rare),
        inflected=tuple(inflected),
        offensive=tuple(offensive),
        blocked=tuple(blocked),
    )


def render(result: Build, inputs: Inputs) -> str:
    meta = {
        "description": "Common English words for the Code Functions Picnic game; see PROVENANCE.md.",
        "generator": "scripts/build_function_words.py",
        "sources": {
            "wordlist": {
                "package": "wamerican-small (Debian), SCOWL size 35",
                "file": str(inputs.wordlist),
                "sha256": sha256_of(inputs.wordlist),
            },
            "common_words": {
                "package": "scowl (Debian), SCOWL size 10",
                "files": {path.name: sha256_of(path) for path in inputs.common_files()},
            },
            "wordnet": {
                "package": "wordnet-base (Debian), WordNet 3.0",
                "files": {name: sha256_of(inputs.wordnet_dir / name) for name in ("cntlist.rev", *_data_files())},
            },
            "picnic_items": {
                "file": "src/playeval/games/static_picnic/data/items.json",
                "sha256": sha256_of(inputs.items),
            },
        },
        "filters": {
            "letters": f"lowercase a-z only, {MIN_LETTERS} to {MAX_LETTERS} letters",
            "wordnet_lemma": True,
            "common": "tagged at least min_tag_count times, or in SCOWL size 10, or a Static Picnic item",
            "min_tag_count": inputs.min_count,
            "inflections": "a regular inflection of another candidate is kept only if tagged min_tag_count times",
            "offensive_gloss": OFFENSIVE_GLOSS.pattern,
            "offensive_usage": sorted(OFFENSIVE_USAGE),
            "blocked": sorted(BLOCKED),
        },
        "sample": {"size": SAMPLE_SIZE, "method": f"first {SAMPLE_SIZE} words by sha256({SAMPLE_SALT!r} + word)"},
        "counts": {
            "candidates": result.candidates,
            "rare": len(result.rare),
            "inflected": len(result.inflected),
            "offensive": len(result.offensive),
            "blocked": len(result.blocked),
            "words": len(result.words),
            "words_by_first_sign": result.by_sign,
        },
    }
    document = {"meta": meta, "words": list(result.words), "sample": list(result.sample)}
    return json.dumps(document, indent=1, ensure_ascii=True) + "\n"


def _data_files() -> tuple[str, ...]:
    return tuple(f"{kind}.{pos}" for pos in POS_FILES for kind in ("index", "data"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--wordlist", type=Path, default=DEFAULT_WORDLIST)
    parser.add_argument("--wordnet", type=Path, default=DEFAULT_WORDNET_DIR)
    parser.add_argument("--scowl", type=Path, default=DEFAULT_SCOWL_DIR)
    parser.add_argument("--items", type=Path, default=DEFAULT_ITEMS)
    parser.add_argument("--min-count", type=int, default=DEFAULT_MIN_COUNT)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--report", action="store_true", help="print the words each filter dropped")
    args = parser.parse_args(argv)
    inputs = Inputs(args.wordlist, args.wordnet, args.scowl, args.items, args.min_count)
    needed = (inputs.wordlist, inputs.wordnet_dir / "cntlist.rev", *inputs.common_files(), inputs.items)
    missing = [str(path) for path in needed if not path.exists()]
    if missing:
        print(f"missing {', '.join(missing)}; install: {INSTALL_HINT}", file=sys.stderr)
        return 1
    result = build(inputs)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(render(result, inputs), encoding="utf-8")
    print(f"{len(result.words)} words ({result.candidates} candidates), sample {len(result.sample)} -> {args.out}")
    if args.report:
        print(f"kept, by the first sign of being common: {result.by_sign}")
        print(f"rare ({len(result.rare)}): not listed")
        print(f"inflected ({len(result.inflected)}): {' '.join(result.inflected[:40])} ...")
        print(f"offensive ({len(result.offensive)}): {' '.join(result.offensive)}")
        print(f"blocked ({len(result.blocked)}): {' '.join(result.blocked)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env python3
"""Build the Undercover concept pairs (civilian word, undercover word) from WordNet 3.0.

In CK-Arena's Undercover game (seed paper, section 3) the civilians share one concept and
the undercover players get a close but different one ("cat" / "tiger"). This script
regenerates ``src/playeval/games/undercover/data/pairs.json``:

* nouns: two common words whose main senses are co-hyponyms under a shared hypernym
  inside a hand-picked everyday root ("mammal", "musical instrument", ...), ranked by
  Wu-Palmer similarity;
* verbs: co-troponyms under a hand-picked verb root ("cook", "travel", ...), ranked the
  same way;
* adjectives: colours are two satellites of the head "chromatic"; the later clusters pair a
  head with a satellite or with a linked head ("wet" / "muddy", "warm" / "hot"), ranked by
  path similarity, never across a head and its antonym.

WordNet 3.0 comes from Debian's ``wordnet-base``, read with NLTK; the common-word list
(Debian's ``wamerican-small``, SCOWL size 35) is a filter only. The game never imports NLTK.
The WordNet reader, the word list reader, the offensive-sense filter and the name
normaliser are shared with ``scripts/build_static_picnic.py``.

    apt-get install -y wordnet-base wamerican-small
    python3 -m venv /tmp/picnic-venv && /tmp/picnic-venv/bin/pip install nltk
    /tmp/picnic-venv/bin/python scripts/build_undercover_pairs.py

The output is deterministic: the same WordNet files and word list give byte-identical JSON.
"""

from __future__ import annotations

import argparse
import itertools
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent))
import build_static_picnic as picnic  # shared WordNet helpers, same directory

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "src" / "playeval" / "games" / "undercover" / "data" / "pairs.json"

INSTALL_HINT = (
    "Install what this script needs (none of it is a dependency of playeval):\n"
    "  apt-get install -y wordnet-base wamerican-small\n"
    "  python3 -m venv /tmp/picnic-venv && /tmp/picnic-venv/bin/pip install nltk\n"
    "  /tmp/picnic-venv/bin/python scripts/build_undercover_pairs.py"
)

# Wu-Palmer similarity bounds for noun and verb pairs. Below the minimum two words are too
# far apart for descriptions to overlap; 1.0 would mean the same synset.
MIN_WUP = {"noun": 0.75, "verb": 0.5}
# The longest path between the two senses through their shared hypernym (2 = siblings,
# 4 = first cousins). Longer paths are only distantly related in WordNet's tree.
MAX_PATH = {"noun": 4, "verb": 2}
# Verbs and adjectives have many rare senses that the word list cannot catch ("full" a
# cloth, "submarine" to move), so their lemma must be sense-tagged at least this often.
MIN_COUNT = {"noun": 0, "verb": 1, "adjective": 1}
# The later adjective clusters hold many once-tagged literary words ("walloping", "doleful").
MIN_CLUSTER_COUNT = 1
# Adjective satellites of one head are two steps apart in the similar-to graph
# (satellite - head - satellite); their similarity is the path similarity 1 / (1 + 2).
ADJECTIVE_SIMILARITY = round(1 / 3, 4)
# Adjective clusters (the later sets): heads of one category with no closer link are this many
# steps apart, and a pair may be at most MAX_ADJECTIVE_DISTANCE steps apart (similarity >= 0.2).
ADJECTIVE_CATEGORY_DISTANCE = 4
MAX_ADJECTIVE_DISTANCE = 2
# At most this many pairs per category, the most similar first; a word is used once per category.
MAX_PER_CATEGORY = 30


@dataclass(frozen=True)
class CategorySpec:
    id: str
    pos: str  # "noun" | "verb" | "adjective"
    roots: tuple[str, ...]  # noun/verb: hypernym roots; adjective: head adjective synsets
    # Adjectives only. False: satellites of one head ("colours", the first adjective set).
    # True: a cluster of heads, their also-sees and satellites, paired by ADJECTIVE distance.
    cluster: bool = False


CATEGORIES: tuple[CategorySpec, ...] = (
    CategorySpec("mammals", "noun", ("mammal.n.01",)),
    CategorySpec("birds", "noun", ("bird.n.01",)),
    CategorySpec("other-animals", "noun", ("fish.n.01", "crustacean.n.01", "mollusk.n.01", "insect.n.01",
                                           "arachnid.n.01", "reptile.n.01", "amphibian.n.03")),
    CategorySpec("fruit-and-vegetables", "noun", ("edible_fruit.n.01", "vegetable.n.01", "edible_nut.n.01")),
    CategorySpec("food", "noun", ("baked_goods.n.01", "dish.n.02", "dessert.n.01", "sweet.n.03",
                                  "dairy_product.n.01", "meat.n.01", "condiment.n.01")),
    CategorySpec("drinks", "noun", ("beverage.n.01",)),
    CategorySpec("musical-instruments", "noun", ("musical_instrument.n.01",)),
    CategorySpec("tools", "noun", ("hand_tool.n.01", "edge_tool.n.01", "power_tool.n.01")),
    CategorySpec("kitchen", "noun", ("kitchen_utensil.n.01", "tableware.n.01", "cutlery.n.02", "home_appliance.n.01")),
    CategorySpec("vehicles", "noun", ("vehicle.n.01",)),
    CategorySpec("clothing", "noun", ("garment.n.01", "footwear.n.02", "headdress.n.01")),
    CategorySpec("furniture", "noun", ("furniture.n.01",)),
    CategorySpec("sports", "noun", ("sport.n.01",)),
    CategorySpec("professions", "noun", ("worker.n.01", "professional.n.01")),
    CategorySpec("buildings", "noun", ("building.n.01",)),
    CategorySpec("body", "noun", ("external_body_part.n.01", "internal_organ.n.01")),
    CategorySpec("plants", "noun", ("flower.n.01", "tree.n.01")),
    CategorySpec("landforms", "noun", ("geological_formation.n.01", "body_of_water.n.01")),
    CategorySpec("verbs-motion", "verb", ("travel.v.01", "move.v.03")),
    CategorySpec("verbs-speech-and-sound", "verb", ("talk.v.02", "utter.v.02", "laugh.v.01", "cry.v.02")),
    CategorySpec("verbs-food-and-hands", "verb", ("cook.v.03", "eat.v.01", "drink.v.01", "hit.v.03", "cut.v.01",
                                                       "touch.v.01", "look.v.01")),
    # Satellites of other heads ("cold": "icy", "freezing", ...) were tried and read as
    # near-synonyms ("rapid"/"quick", "vast"/"tremendous"), so only the colours are kept.
    CategorySpec("adjectives-colour", "adjective", ("chromatic.a.03",)),
    # Added later (only appended, so the pairs above keep their ids): adjective clusters whose
    # pairs differ in degree ("wet"/"damp") or kind on one scale ("warm"/"hot"), never opposites.
    CategorySpec("adjectives-size-and-shape", "adjective", (
        "large.a.01", "small.a.01", "tall.a.01", "short.a.03", "wide.a.01", "narrow.a.01", "thick.a.01",
        "thin.a.01", "long.a.02", "deep.a.03", "shallow.a.01", "heavy.a.01", "light.a.01", "fat.a.01",
        "thin.a.02"), cluster=True),
    CategorySpec("adjectives-temperature-and-weather", "adjective", (
        "hot.a.01", "cold.a.01", "warm.a.01", "cool.a.01", "wet.a.01", "dry.a.01", "stormy.a.01",
        "cloudy.a.02", "calm.a.02", "frozen.a.01"), cluster=True),
    CategorySpec("adjectives-feelings", "adjective", (
        "happy.a.01", "sad.a.01", "angry.a.01", "afraid.a.01", "tired.a.01", "surprised.a.01", "proud.a.01",
        "excited.a.02", "glad.a.01", "cheerful.a.01", "contented.a.01", "elated.a.01"), cluster=True),
    CategorySpec("adjectives-touch-light-and-sound", "adjective", (
        "soft.a.01", "hard.a.03", "smooth.a.01", "rough.a.01", "bright.a.01", "dark.a.01", "loud.a.01",
        "noisy.a.01", "quiet.a.02", "soft.a.03"), cluster=True),
    CategorySpec("adjectives-speed-and-strength", "adjective", (
        "fast.a.01", "slow.a.01", "strong.a.01", "weak.a.01"), cluster=True),
    CategorySpec("adjectives-clean-and-full", "adjective", (
        "clean.a.01", "dirty.a.01", "full.a.01", "empty.a.01", "new.a.01", "old.a.02", "expensive.a.01"), cluster=True),
    CategorySpec("adjectives-looks-age-and-health", "adjective", (
        "beautiful.a.01", "ugly.a.01", "old.a.01", "young.a.01", "healthy.a.01", "ill.a.01"), cluster=True),
)

POS_TAG = {"noun": "n", "verb": "v", "adjective": "a"}

# Words whose everyday sense is not WordNet's first sense of that part of speech; the
# pair may use the named synset instead.
SENSE_OVERRIDES: dict[str, str] = {
    "tiger": "tiger.n.02",
    "dolphin": "dolphin.n.02",
    "whale": "whale.n.02",
    "cake": "cake.n.03",
    "football": "football.n.01",
}

# Pairs (either order) removed after reading the output, with the reason. See PROVENANCE.md.
BLOCKED_PAIRS: dict[tuple[str, str], str] = {
    ("jackknife", "penknife"): "two names for nearly the same folding knife",
    ("doubles", "singles"): "two formats of one game, not two concepts",
    # Adjective clusters: synonyms, one word a form of the other, or no shared scene to describe.
    ("dry", "dried"): "the adjective and its participle, one concept",
    ("full", "filled"): "synonyms",
    ("quick", "fast"): "synonyms",
    ("angry", "mad"): "synonyms",
    ("happy", "glad"): "synonyms",
    ("weary", "tired"): "synonyms",
    ("large", "great"): "'great' is read as 'excellent'",
    ("frostbitten", "frozen"): "an injury, not a degree of cold",
    ("gay", "cheerful"): "'gay' is read in its other sense",
    ("expensive", "costly"): "synonyms",
    ("healthy", "flushed"): "'flushed' is a passing redness, not health",
}

# Words removed after reading the output: rare, technical, or read in another sense.
def _block(reason: str, names: str) -> dict[str, str]:
    return {name: reason for name in names.split()}


BLOCKED_WORDS: dict[str, str] = {
    **_block("a general or collective term, not one thing to describe",
             "bovine equine feline carnivore rodent livestock swine poultry bug berry citrus greens alcohol "
             "crockery glassware silverware aircraft spacecraft undergarment limb conifer aquatics racing "
             "jumping acrobatics architecture waterway highland"),
    **_block("read in another, more common sense (a player would think of that one)",
             "beef mount milker drone ephemeral cob fries cling windfall crisp hash bitter sour stinger "
             "lacing vintage generic brew fizz sling tonic bombard bones graver cooker electric launch "
             "amphibian tank technical gig pontoon galley limber sulky wrap boa stole cords weeds ironing "
             "mending reversible laundry silks sweats flipper flats drawers lower upper settle console "
             "buffet booth counter broiler mangle cooler fives bathe floating ducking plunge quack mate "
             "fodder demonstrator private orderly counsel volunteer academic aide porter grill coop hooks "
             "lap flamboyant chatterbox everlasting mum sallow arbor pit steep downhill sands trough main "
             "mull mere bank bluff shoal pothole wormhole maul"),
    **_block("rare or old-fashioned word, or a spelling variant of another word",
             "possum sherbert blancmange junket gruel lozenge patty interne itinerant wrecker trooper "
             "gunner commodore rotunda dispensary parsonage cloister butchery pantie trouser britches "
             "loincloth potion coursing wringer palomino"),
    **_block("the animal as food, or a cut of meat: a pair of a cut and a dish is not fair",
             "grouse partridge loin roast"),
    **_block("verb pair read in another sense or too abstract to act out in one sentence",
             "claw jostle drip crash approach accost dismount dive chase haunt lag shadow rock flicker snake "
             "deviate overturn stalk barge wheel urge dissuade bargain intercede negotiate advise deliver "
             "snap ejaculate belt bay drive dial tap fell plane tamper slug down suck buff sock swipe dissect "
             "hack knead smite bat consume rap brown boggle shy edge encroach retrace boomerang flounce lumber "
             "cross overstep jet drain dribble spiral swivel"),
    **_block("noun read in another sense, or too vague to pair",
             "cur territorial appointee blaster packer checker incumbent squire caddie forger organs woodwind "
             "pickup missile blackjack cacao sapling burrow uphill delta rink gut fist breast nutmeg denim "
             "knickers cleats duff bootleg provincial rocker courser bridesmaid"),
    **_block("colour word whose main use is the noun (a player would describe the thing)",
             "honey creamy straw sapphire hazel"),
    **_block("unpleasant for a party game", "morgue hearse shipwreck entrails"),
}


def fail(message: str) -> NoReturn:
    """Print an error with the install hint and exit with status 2."""
    print(f"build_undercover_pairs: {message}\n\n{INSTALL_HINT}", file=sys.stderr)
    raise SystemExit(2)


def open_wordnet(wordnet_dir: Path, staging: Path) -> Any:
    """WordNet 3.0 through the static picnic's reader, with this script's own error messages."""
    try:
        import nltk  # noqa: F401
    except ImportError:
        fail("the Python package nltk is not installed in this interpreter.")
    missing = [name for name in picnic.WORDNET_FILES if not (wordnet_dir / name).is_file()]
    if missing:
        fail(f"WordNet 3.0 database files missing in {wordnet_dir}: {', '.join(missing)}.")
    return picnic.load_wordnet(wordnet_dir, staging)


@dataclass(frozen=True)
class Word:
    name: str
    synset: Any
    count: int  # tagged-corpus count of this lemma in this sense


def word_name(synset: Any, words: frozenset[str]) -> Word | None:
    """The synset's most frequent one-word lemma on the common-word list."""
    for lemma in sorted(synset.lemmas(), key=lambda lemma: -lemma.count()):
        name = lemma.name()
        if re.fullmatch(r"[a-z]{3,}", name) and name in words:
            return Word(name, synset, lemma.count())
    return None


def is_main_sense(wn: Any, name: str, synset: Any, pos: str) -> bool:
    """True when ``synset`` is the word's first sense of its part of speech (or the override)."""
    if name in SENSE_OVERRIDES:
        return synset.name() == SENSE_OVERRIDES[name]
    senses = wn.synsets(name, POS_TAG[pos])
    if pos == "adjective":
        senses = [s for s in senses if s.pos() in "as"]
    return bool(senses) and senses[0] == synset


def candidates(wn: Any, spec: CategorySpec, words: frozenset[str], stats: Counter[str]) -> list[Word]:
    """The category's usable words, one per synset, sorted by name."""
    found: dict[str, Word] = {}
    if spec.pos == "adjective" and spec.cluster:
        heads = cluster_heads(wn, spec)
        synsets = sorted(set(heads) | {sat for head in heads for sat in head.similar_tos()}, key=lambda s: s.name())
    elif spec.pos == "adjective":
        synsets = sorted({sat for head in spec.roots for sat in wn.synset(head).similar_tos()}, key=lambda s: s.name())
    else:
        roots = [wn.synset(root) for root in spec.roots]
        synsets = sorted({s for root in roots for s in root.closure(lambda s: s.hyponyms())}, key=lambda s: s.name())
    for synset in synsets:
        word = word_name(synset, words)
        if word is None:
            stats["no common one-word name"] += 1
        elif word.count < (MIN_CLUSTER_COUNT if spec.cluster else MIN_COUNT[spec.pos]):
            stats["rare sense (verb or adjective)"] += 1
        elif word.name in BLOCKED_WORDS:
            stats["blocked word"] += 1
        elif picnic.is_offensive(wn, word.name):
            stats["offensive sense"] += 1
        elif not is_main_sense(wn, word.name, synset, spec.pos):
            stats["not the main sense"] += 1
        elif word.name not in found:
            found[word.name] = word
    return [found[name] for name in sorted(found)]


def cluster_heads(wn: Any, spec: CategorySpec) -> list[Any]:
    """The category's head adjectives (its roots), sorted by name."""
    return sorted((wn.synset(root) for root in spec.roots), key=lambda s: s.name())


def head_distances(heads: list[Any]) -> dict[tuple[Any, Any], int]:
    """Shortest paths between a cluster's heads: also-see 1, a shared attribute noun 2, else 4.

    Heads of one category with no closer link count as joined through the category, four
    steps apart, as noun cousins are; the table is closed under shortest paths.
    """
    dist: dict[tuple[Any, Any], int] = {}
    for a in heads:
        for b in heads:
            if a == b:
                dist[a, b] = 0
            elif b in a.also_sees() or a in b.also_sees():
                dist[a, b] = 1
            elif set(a.attributes()) & set(b.attributes()):
                dist[a, b] = 2
            else:
                dist[a, b] = ADJECTIVE_CATEGORY_DISTANCE
    for k in heads:  # Floyd-Warshall over a few dozen heads
        for a in heads:
            for b in heads:
                dist[a, b] = min(dist[a, b], dist[a, k] + dist[k, b])
    return dist


def antonym_synsets(synset: Any) -> set[Any]:
    return {antonym.synset() for lemma in synset.lemmas() for antonym in lemma.antonyms()}


def adjective_pair(a: Word, b: Word, dist: dict[tuple[Any, Any], int]) -> tuple[float, Any] | None:
    """Path similarity 1/(1+d) and the head nearest both, or None for opposites or far words.

    d is the path through similar-to (satellite to head, 1 step) and the head distances; a
    word on one head's side and a word on its antonym's side ("tiny"/"large") are never paired.
    """
    def poles(synset: Any) -> list[tuple[Any, int]]:
        if synset.pos() == "a":
            return [(synset, 0)]
        return [(head, 1) for head in synset.similar_tos()]

    sa, sb = a.synset, b.synset
    if sa == sb or (sa.pos() == "s" and sb.pos() == "s" and set(sa.similar_tos()) & set(sb.similar_tos())):
        return None  # two satellites of one head read as near-synonyms ("huge"/"vast")
    best: tuple[int, str, Any] | None = None
    for ha, off_a in poles(sa):
        for hb, off_b in poles(sb):
            if hb in antonym_synsets(ha) or ha in antonym_synsets(hb):
                return None
            if (ha, hb) not in dist:
                continue
            d = off_a + dist[ha, hb] + off_b
            shared = ha if off_a <= off_b else hb  # the head nearer the pair, ties the first word's
            if best is None or (d, shared.name()) < best[:2]:
                best = (d, shared.name(), shared)
    if best is None or best[0] > MAX_ADJECTIVE_DISTANCE:
        return None
    return round(1 / (1 + best[0]), 4), best[2]


def related_names(wn: Any, a: Word, b: Word) -> bool:
    """Same word up to plural, one inside the other, or synonyms (a shared synset)."""
    if picnic.normalise(a.name) == picnic.normalise(b.name) or a.name in b.name or b.name in a.name:
        return True
    return bool(set(wn.synsets(a.name)) & set(wn.synsets(b.name)) & {a.synset, b.synset})


def noun_verb_pair(wn: Any, spec: CategorySpec, a: Word, b: Word) -> tuple[float, Any] | None:
    """Wu-Palmer similarity and shared hypernym of two co-hyponyms, or None when not a fair pair."""
    sa, sb = a.synset, b.synset
    if sa == sb:
        return None
    hyper_a = set(sa.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
    hyper_b = set(sb.closure(lambda s: s.hypernyms() + s.instance_hypernyms()))
    if sa in hyper_b or sb in hyper_a:
        return None  # one is a kind of the other
    lcs = sorted(sa.lowest_common_hypernyms(sb), key=lambda s: s.name())
    if not lcs:
        return None
    shared = lcs[0]
    roots = {wn.synset(root) for root in spec.roots}
    if shared not in roots and not (set(shared.closure(lambda s: s.hypernyms())) & roots):
        return None  # the shared hypernym is more general than the category
    distance = sa.shortest_path_distance(sb)
    if distance is None or distance > MAX_PATH[spec.pos]:
        return None
    similarity = sa.wup_similarity(sb)
    if similarity is None or similarity < MIN_WUP[spec.pos] or similarity >= 1.0:
        return None
    return round(similarity, 4), shared


def build_category(
    wn: Any, spec: CategorySpec, words: frozenset[str], stats: Counter[str], seen: set[frozenset[str]]
) -> list[dict[str, Any]]:
    """The category's pairs: the most similar first, each word at most once."""
    pool = candidates(wn, spec, words, stats)
    dist = head_distances(cluster_heads(wn, spec)) if spec.pos == "adjective" and spec.cluster else {}
    scored: list[tuple[float, int, str, str, Word, Word, Any]] = []
    for a, b in itertools.combinations(pool, 2):
        if related_names(wn, a, b):
            continue
        if (a.name, b.name) in BLOCKED_PAIRS or (b.name, a.name) in BLOCKED_PAIRS:
            stats["blocked pair"] += 1
            continue
        if spec.pos == "adjective" and spec.cluster:
            result = adjective_pair(a, b, dist)
            if result is None:
                continue
            similarity, shared = result
        elif spec.pos == "adjective":
            heads = {h for h in a.synset.similar_tos()} & {h for h in b.synset.similar_tos()}
            if not heads:
                continue
            shared = sorted(heads, key=lambda s: s.name())[0]
            similarity = ADJECTIVE_SIMILARITY
        else:
            result = noun_verb_pair(wn, spec, a, b)
            if result is None:
                continue
            similarity, shared = result
        # The more frequent word is the civilians' (ties: alphabetical).
        civ, und = sorted((a, b), key=lambda w: (-w.count, w.name))
        scored.append((similarity, min(a.count, b.count), civ.name, und.name, civ, und, shared))
    scored.sort(key=lambda row: (-row[0], -row[1], row[2], row[3]))
    used: set[str] = set()
    pairs: list[dict[str, Any]] = []
    for similarity, _, _, _, civ, und, shared in scored:
        if civ.name in used or und.name in used or frozenset((civ.name, und.name)) in seen:
            continue
        used.update((civ.name, und.name))
        seen.add(frozenset((civ.name, und.name)))
        pairs.append({
            "id": f"{spec.id}:{civ.name}-{und.name}",
            "category": spec.id,
            "pos": spec.pos,
            "civilian": civ.name,
            "undercover": und.name,
            "similarity": similarity,
            "synsets": [civ.synset.name(), und.synset.name()],
            "hypernym": shared.name(),
        })
        if len(pairs) >= MAX_PER_CATEGORY:
            break
    return pairs


def build(wordnet_dir: Path, wordlist: Path, out: Path, report: Path | None) -> int:
    if not wordlist.is_file():
        fail(f"word list {wordlist} not found.")
    words = picnic.load_wordlist(wordlist)
    with tempfile.TemporaryDirectory(prefix="undercover-wordnet-") as staging:
        wn = open_wordnet(wordnet_dir, Path(staging))
        stats: Counter[str] = Counter()
        pairs: list[dict[str, Any]] = []
        seen: set[frozenset[str]] = set()  # a pair found in two categories stays in the first
        for spec in CATEGORIES:
            pairs.extend(build_category(wn, spec, words, stats, seen))
        report_lines = [f"{p['id']}\t{p['similarity']}\t{p['hypernym']}\t"
                        f"{wn.synset(p['synsets'][0]).definition()} | {wn.synset(p['synsets'][1]).definition()}"
                        for p in pairs]
    per_category = Counter(p["category"] for p in pairs)
    per_pos = Counter(p["pos"] for p in pairs)
    meta = {
        **picnic.source_meta(wordnet_dir, wordlist),
        "wordnet_sha256": {name: picnic.sha256(wordnet_dir / name) for name in (
            "data.noun", "data.verb", "data.adj", "index.noun", "index.verb", "index.adj", "cntlist.rev")},
        "generator": "scripts/build_undercover_pairs.py",
        "similarity": {
            "noun": f"Wu-Palmer similarity of the two senses, in [{MIN_WUP['noun']}, 1)",
            "verb": f"Wu-Palmer similarity of the two senses, in [{MIN_WUP['verb']}, 1)",
            "adjective": f"path similarity through the shared head adjective, always {ADJECTIVE_SIMILARITY}",
        },
        "pairs": len(pairs),
        "per_category": dict(sorted(per_category.items())),
        "per_pos": dict(sorted(per_pos.items())),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    picnic.write_json(out, {"meta": meta, "pairs": pairs})
    if report is not None:
        lines = [f"{key}: {value}" for key, value in sorted(stats.items())] + [""] + report_lines
        report.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(pairs)} pairs in {len(per_category)} categories to {out}")
    return 0


def main(argv: Iterable[str] | None = None) -> int:
    """Command line: build pairs.json (options override the default paths)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wordnet-dir", type=Path, default=picnic.DEFAULT_WORDNET_DIR)
    parser.add_argument("--wordlist", type=Path, default=picnic.DEFAULT_WORDLIST)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="the pairs.json to write")
    parser.add_argument("--report", type=Path, default=None, help="also write statistics and every pair's glosses")
    args = parser.parse_args(list(argv) if argv is not None else None)
    return build(args.wordnet_dir, args.wordlist, args.out, args.report)


if __name__ == "__main__":
    sys.exit(main())

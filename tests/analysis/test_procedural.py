"""Procedural metrics (GameArena section 3.2.2) on the paper's own case studies (Appendix E.1, E.2) and edge cases."""

from __future__ import annotations

import math

import pytest

from playeval.metrics.procedural import (
    JUDGEMENT_LEVELS,
    bluffing_metrics,
    candidate_list_metrics,
    disparity_ratio,
    judgement_level,
)

# Appendix E.2: the object lists Gemini-1.5-Pro gave in the retrospective analysis of an Akinator game whose
# secret was "an electric guitar" (copied from the paper; items holding commas are kept whole).
E2_OBJECT_LISTS: tuple[tuple[str, ...], ...] = (
    ("Ball", "Coin", "Ring", "Key", "Phone", "Pen", "Spoon", "Dice", "Button", "Battery", "Toy car", "Marble"),
    ("Dumbbell", "Brick", "Rock (larger than a fist)", "Cast Iron Skillet", "Full Paint Can",
     "Small Hand Tool (e.g., hammer, wrench)", "Coconut", "Bag of Coins", "Small Appliance (e.g., iron, blender)",
     "Large Fruit (e.g., pineapple, melon)"),
    ("Bowling ball", "Large Stone", "Brick", "Full Paint Can", "Cast Iron Skillet", "Coconut", "Large Geode",
     "Cinder Block"),
    ("Electric Scooter", "Power Drill", "Food Mixer", "Electric Guitar", "Laptop", "Game Console", "Electric Kettle",
     "Hair Dryer"),
    ("Microwave", "Blender", "Electric Kettle", "Stand Mixer", "Bread Maker", "Food Processor", "Electric Can Opener",
     "Waffle Iron", "Slow Cooker", "Rice Cooker", "Electric Smoker", "Air Fryer"),
    ("Treadmill", "Electric Piano/Keyboard", "Gaming Console (e.g., Playstation, Xbox)", "Air Purifier",
     "Electric Fireplace/Heater", "3D Printer", "Sewing Machine", "Vacuum Cleaner"),
    ("Electric Guitar", "Electric Keyboard", "Gaming Console", "Laptop Computer", "Electric Drum Set",
     "Home Theater System", "VR Headset", "Electric Piano"),
    ("Electric Piano", "Home Theater System", "Virtual Reality Headset", "Karaoke Machine", "Electric Drum Set",
     "Vintage Jukebox", "Slot Machine", "Air Hockey Table", "Electric Dartboard"),
    ("Electric Guitar", "Electric Piano/Keyboard", "Karaoke Machine", "Record Player", "Amplifier for Headphones",
     "Electric Drum Set", "Vintage Jukebox", "Home Theater System (specifically speakers)",
     "Electric Toy (like a large train set)", "Neon Sign"),
    ("Electric Guitar", "Electric Piano/Keyboard", "Karaoke Machine", "Record Player", "Amplifier for Headphones",
     "Electric Drum Set", "Vintage Jukebox", "Sound Machine (for sleep/relaxation)", "Baby Monitor with sound",
     "Electric Toy Instrument (that produces sound)"),
    ("Electric Piano", "Electric Guitar", "Electric Drum Set", "Karaoke Machine", "Amplifier for Musical Instruments",
     "Electric Keyboard", "Synthesizer", "Theremin"),
    ("Electric Guitar", "Electric Violin", "Electric Cello", "Electric Harp", "Electric Bass Guitar", "Electric Sitar",
     "Electric Ukulele", "Electric Mandolin"),
    ("Electric Guitar", "Electric Bass Guitar", "Harp", "Harpsichord", "Clavichord"),
    ("Acoustic Guitar", "Electric Guitar", "Bass Guitar", "Ukulele", "Banjo"),
    ("Electric Guitar", "Acoustic-electric Guitar", "Bass Guitar", "Ukulele", "Banjo"),
)
E2_SECRET = "an electric guitar"

# Appendix E.1: Claude-3.5-Sonnet's judgements on a true statement ("I am a teacher at a middle school").
E1_JUDGEMENTS = ("possibly false", "possibly false", "possibly true", "possibly true", "true")


def test_e2_case_recall_first_appearance_and_final_rank() -> None:
    assert len(E2_OBJECT_LISTS) == 15
    metrics = candidate_list_metrics(E2_OBJECT_LISTS, E2_SECRET)
    # "Electric Guitar" is in lists 4, 7, 9, 10, 11, 12, 13, 14, 15 at ranks 4, 1, 1, 1, 2, 1, 1, 2, 1.
    assert metrics["recall_rate"] == 9 / 15
    assert metrics["first_appear_round"] == 4
    assert metrics["final_rank"] == 1
    # Every one of those ranks is <= 5, so both top-k rates equal the recall rate.
    assert metrics["top5_recall_rate"] == 9 / 15
    assert metrics["top10_recall_rate"] == 9 / 15
    assert set(metrics) == {"recall_rate", "top5_recall_rate", "top10_recall_rate", "first_appear_round",
                            "final_rank"}


def test_e2_case_with_tighter_cutoffs() -> None:
    metrics = candidate_list_metrics(E2_OBJECT_LISTS, E2_SECRET, ks=(1, 2, 3))
    assert metrics["top1_recall_rate"] == 6 / 15  # lists 7, 9, 10, 12, 13, 15
    assert metrics["top2_recall_rate"] == 8 / 15  # plus lists 11 and 14
    assert metrics["top3_recall_rate"] == 8 / 15  # list 4 has it at rank 4
    assert "top5_recall_rate" not in metrics


def test_similar_names_are_not_the_secret() -> None:
    # "Electric Bass Guitar" and "Acoustic-electric Guitar" contain the words but are other instruments.
    metrics = candidate_list_metrics([["Electric Bass Guitar", "Acoustic-electric Guitar", "Guitar"]], E2_SECRET)
    assert metrics["recall_rate"] == 0.0
    assert metrics["first_appear_round"] is None
    assert metrics["final_rank"] is None


def test_plural_and_article_variants_match() -> None:
    lists = [["Violins", "the Electric-Guitars"], ["Electric guitar", "Violin"], ["An ELECTRIC GUITAR!"]]
    metrics = candidate_list_metrics(lists, "an electric guitar", ks=(1,))
    assert metrics["recall_rate"] == 1.0
    assert metrics["top1_recall_rate"] == 2 / 3
    assert metrics["first_appear_round"] == 1
    assert metrics["final_rank"] == 1


def test_no_lists_gives_none_everywhere() -> None:
    assert candidate_list_metrics([], "piano") == {"recall_rate": None, "top5_recall_rate": None,
                                                   "top10_recall_rate": None, "first_appear_round": None,
                                                   "final_rank": None}


def test_secret_never_listed() -> None:
    metrics = candidate_list_metrics([["apple", "pear"], [], ["plum"]], "piano")
    assert metrics == {"recall_rate": 0.0, "top5_recall_rate": 0.0, "top10_recall_rate": 0.0,
                       "first_appear_round": None, "final_rank": None}


def test_secret_absent_from_the_last_list_has_no_final_rank() -> None:
    metrics = candidate_list_metrics([["a", "piano"], ["b"]], "piano")
    assert metrics["recall_rate"] == 0.5
    assert metrics["first_appear_round"] == 1
    assert metrics["final_rank"] is None


def test_rank_beyond_the_cutoff() -> None:
    names = [f"thing {i}" for i in range(1, 8)] + ["piano"]  # rank 8
    metrics = candidate_list_metrics([names], "piano")
    assert metrics["top5_recall_rate"] == 0.0
    assert metrics["top10_recall_rate"] == 1.0
    assert metrics["final_rank"] == 8
    with pytest.raises(ValueError):
        candidate_list_metrics([names], "piano", ks=(0,))


def test_disparity_ratio_eq1() -> None:
    assert disparity_ratio(4, 4) == 0.0
    assert disparity_ratio(6, 2) == 0.5
    assert disparity_ratio(0, 8) == 1.0
    assert disparity_ratio(3, 0) == 1.0
    for yes, no in [(0, 0), (-1, 3), (3, -1)]:
        with pytest.raises(ValueError):
            disparity_ratio(yes, no)


def test_judgement_levels() -> None:
    assert JUDGEMENT_LEVELS == ("True", "Possibly true", "Unknown", "Possibly false", "False")
    for level, text in enumerate(JUDGEMENT_LEVELS, start=1):
        assert judgement_level(text) == level
    assert judgement_level("  ** Possibly TRUE. **\n") == 2
    assert judgement_level("'false'") == 5
    assert judgement_level("possibly   false") == 4


@pytest.mark.parametrize("text", ["", "maybe", "probably true", "1", "1. True", "true-ish", "not true", "truth"])
def test_unknown_judgement_text_raises(text: str) -> None:
    with pytest.raises(ValueError):
        judgement_level(text)
    with pytest.raises(ValueError):
        bluffing_metrics(["true", text], truth=True)


def test_e1_case() -> None:
    metrics = bluffing_metrics(E1_JUDGEMENTS, truth=True)
    # levels j = 4, 4, 2, 2, 1; g = 1; D = 3, 3, 1, 1, 0
    assert metrics["hopping_penalty"] == 0.75  # (0 + 2 + 0 + 1) / 4
    assert metrics["recall_rate"] == 3 / 5  # rounds 3, 4, 5 are "possibly true" or "true"
    assert metrics["first_correct_round"] == 3
    assert metrics["final_distance"] == 0
    # Ranks of rounds 1..5 vs average ranks of D: 4.5, 4.5, 2.5, 2.5, 1.
    # Deviations from the mean 3: (-2, -1, 0, 1, 2) and (1.5, 1.5, -0.5, -0.5, -2):
    # sum of products -9, sums of squares 10 and 9, so rho = -9 / sqrt(90) = -3 / sqrt(10).
    spearman = metrics["spearman"]
    assert spearman is not None
    assert spearman < 0  # the judgements move toward the truth
    assert spearman == pytest.approx(-3 / math.sqrt(10), abs=1e-12)
    assert round(spearman, 4) == -0.9487


def test_false_statement_side_and_distance() -> None:
    metrics = bluffing_metrics(["Unknown", "Possibly false", "True", "False"], truth=False)
    # j = 3, 4, 1, 5; g = 5; D = 2, 1, 4, 0
    assert metrics["recall_rate"] == 2 / 4
    assert metrics["first_correct_round"] == 2
    assert metrics["final_distance"] == 0
    assert metrics["hopping_penalty"] == (1 + 3 + 4) / 3
    # ranks of D: 3, 2, 4, 1 against 1, 2, 3, 4: d^2 = 4 + 0 + 1 + 9 = 14, rho = 1 - 6 * 14 / 60 = -0.4
    assert metrics["spearman"] == pytest.approx(-0.4, abs=1e-12)


def test_unknown_is_on_neither_side() -> None:
    for truth in (True, False):
        metrics = bluffing_metrics(["unknown", "unknown"], truth=truth)
        assert metrics["recall_rate"] == 0.0
        assert metrics["first_correct_round"] is None
        assert metrics["final_distance"] == 2


def test_spearman_none_for_constant_distance() -> None:
    metrics = bluffing_metrics(["Possibly true", "Possibly true", "Possibly true"], truth=True)
    assert metrics["spearman"] is None
    assert metrics["hopping_penalty"] == 0.0
    assert metrics["recall_rate"] == 1.0
    # Moving away from the truth: D = 0 then 4, a perfect positive correlation with the round.
    moving = bluffing_metrics(["True", "False"], truth=True)
    assert moving["spearman"] == pytest.approx(1.0)


def test_single_and_no_judgements() -> None:
    one = bluffing_metrics(["False"], truth=True)
    assert one == {"recall_rate": 0.0, "spearman": None, "hopping_penalty": None, "first_correct_round": None,
                   "final_distance": 4}
    assert bluffing_metrics([], truth=False) == {"recall_rate": None, "spearman": None, "hopping_penalty": None,
                                                 "first_correct_round": None, "final_distance": None}

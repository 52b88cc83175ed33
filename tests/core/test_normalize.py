from playeval.core.normalize import normalize_name, same_name


def test_folds_case_articles_plurals_hyphens() -> None:
    assert same_name("an electric guitar", "Electric Guitar")
    assert same_name("Electric-Guitars", "an electric guitar")
    assert same_name("the batteries", "a battery")
    assert same_name("boxes", "a box")


def test_never_matches_substrings() -> None:
    assert not same_name("cat", "category")
    assert not same_name("new", "New York")
    assert not same_name("guitar", "electric guitar")


def test_keeps_words_that_only_look_plural() -> None:
    assert normalize_name("dental floss") == "dental floss"
    assert normalize_name("a bus") == "bus"
    assert normalize_name("a") == "a"
    assert not same_name("", "")


def test_accented_and_ascii_spellings_fold_alike() -> None:
    assert normalize_name("Crème Brûlée") == normalize_name("creme brulee") == "creme brulee"
    assert normalize_name("the\tpaper_clips/ ") == "paper clip"
    assert normalize_name("  a  'rock'n'roll'  records ") == "rocknroll record"
    assert normalize_name("The") == "the"
    assert normalize_name("\u00e9\u00e9") == "ee"
    assert normalize_name("- / _") == ""

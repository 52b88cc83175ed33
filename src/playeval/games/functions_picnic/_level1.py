"""Level 1 rules: one lexical property (length, first or last letter, a letter, doubles, vowel count...)."""

from __future__ import annotations

from playeval.games.functions_picnic._types import LibraryRule, library_rule


def _l1(rule_id: str, statement: str, body: str) -> LibraryRule:
    return library_rule(f"L1.{rule_id}", 1, statement, body)


LEVEL1: tuple[LibraryRule, ...] = (
    # length
    _l1("longer-than-5", "words longer than five letters", "return len(word) > 5"),
    _l1("longer-than-7", "words longer than seven letters", "return len(word) > 7"),
    _l1("even-length", "words with an even number of letters", "return len(word) % 2 == 0"),
    _l1("five-or-six-letters", "words of five or six letters", "return len(word) in (5, 6)"),
    _l1("length-multiple-of-3", "words whose number of letters is a multiple of three", "return len(word) % 3 == 0"),
    # first and last letter
    _l1("starts-with-vowel", "words that start with a vowel", 'return word[0] in "aeiou"'),
    _l1("ends-with-vowel", "words that end with a vowel", 'return word[-1] in "aeiou"'),
    _l1(
        "starts-a-to-f",
        "words that start with one of the letters a to f",
        'return word[0] in "abcdef"',
    ),
    _l1(
        "starts-first-half",
        "words whose first letter is in the first half of the alphabet (a to m)",
        'return word[0] <= "m"',
    ),
    _l1(
        "ends-n-to-z",
        "words whose last letter is in the second half of the alphabet (n to z)",
        'return word[-1] >= "n"',
    ),
    _l1("starts-with-s-c-or-p", "words that start with s, c or p", 'return word[0] in "scp"'),
    _l1("ends-with-s-t-or-d", "words that end with s, t or d", 'return word[-1] in "std"'),
    _l1("ends-with-y", "words that end with the letter y", 'return word.endswith("y")'),
    _l1(
        "starts-with-two-consonants",
        "words that start with two consonants",
        'return word[0] not in "aeiou" and word[1] not in "aeiou"',
    ),
    _l1(
        "ends-with-two-consonants",
        "words that end with two consonants",
        'return word[-1] not in "aeiou" and word[-2] not in "aeiou"',
    ),
    # one letter
    _l1("contains-a", "words containing the letter a", 'return "a" in word'),
    _l1("contains-e", "words containing the letter e", 'return "e" in word'),
    _l1("contains-i", "words containing the letter i", 'return "i" in word'),
    _l1("contains-o", "words containing the letter o", 'return "o" in word'),
    _l1("contains-u", "words containing the letter u", 'return "u" in word'),
    _l1("contains-r", "words containing the letter r", 'return "r" in word'),
    _l1("contains-n", "words containing the letter n", 'return "n" in word'),
    _l1("contains-s", "words containing the letter s", 'return "s" in word'),
    _l1("contains-t", "words containing the letter t", 'return "t" in word'),
    _l1("contains-l", "words containing the letter l", 'return "l" in word'),
    _l1("contains-c", "words containing the letter c", 'return "c" in word'),
    _l1("contains-p", "words containing the letter p", 'return "p" in word'),
    _l1("contains-d", "words containing the letter d", 'return "d" in word'),
    _l1("contains-m", "words containing the letter m", 'return "m" in word'),
    _l1(
        "contains-rare-letter",
        "words containing at least one of the letters j, k, q, v, w, x, y, z",
        'return any(letter in "jkqvwxyz" for letter in word)',
    ),
    _l1(
        "contains-b-g-or-h",
        "words containing b, g or h",
        'return any(letter in "bgh" for letter in word)',
    ),
    # letters repeated
    _l1(
        "double-letter",
        "words with a double letter (the same letter twice in a row)",
        "return any(word[i] == word[i + 1] for i in range(len(word) - 1))",
    ),
    _l1(
        "repeated-letter",
        "words in which some letter occurs more than once",
        "return len(set(word)) < len(word)",
    ),
    _l1("two-es", "words with the letter e at least twice", 'return word.count("e") >= 2'),
    _l1(
        "seven-distinct-letters",
        "words made of at least seven different letters",
        "return len(set(word)) >= 7",
    ),
    # counts of vowels and consonants
    _l1(
        "one-vowel",
        "words with exactly one vowel",
        'return sum(1 for letter in word if letter in "aeiou") == 1',
    ),
    _l1(
        "two-vowels",
        "words with exactly two vowels",
        'return sum(1 for letter in word if letter in "aeiou") == 2',
    ),
    _l1(
        "three-or-more-vowels",
        "words with at least three vowels",
        'return sum(1 for letter in word if letter in "aeiou") >= 3',
    ),
    _l1(
        "four-or-more-consonants",
        "words with at least four consonants",
        'return sum(1 for letter in word if letter not in "aeiou") >= 4',
    ),
    _l1(
        "even-vowel-count",
        "words with an even number of vowels (no vowel at all counts as even)",
        'return sum(1 for letter in word if letter in "aeiou") % 2 == 0',
    ),
    _l1(
        "same-vowel-twice",
        "words in which some vowel occurs at least twice",
        'return any(word.count(vowel) >= 2 for vowel in "aeiou")',
    ),
    _l1(
        "two-vowels-in-a-row",
        "words with two vowels next to each other",
        'return any(word[i] in "aeiou" and word[i + 1] in "aeiou" for i in range(len(word) - 1))',
    ),
    _l1(
        "three-consonants-in-a-row",
        "words with three consonants in a row",
        'return any(all(letter not in "aeiou" for letter in word[i:i + 3]) for i in range(len(word) - 2))',
    ),
    _l1(
        "one-kind-of-vowel",
        "words in which exactly one distinct vowel occurs (it may repeat, as in banana)",
        'return len({letter for letter in word if letter in "aeiou"}) == 1',
    ),
)

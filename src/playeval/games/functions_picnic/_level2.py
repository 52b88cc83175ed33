"""Level 2 rules: two lexical properties combined with "and" or "or"."""

from __future__ import annotations

from playeval.games.functions_picnic._types import LibraryRule, library_rule


def _l2(rule_id: str, statement: str, body: str) -> LibraryRule:
    return library_rule(f"L2.{rule_id}", 2, statement, body)


LEVEL2: tuple[LibraryRule, ...] = (
    # first and last letter
    _l2(
        "vowel-start-consonant-end",
        "words that start with a vowel and end with a consonant",
        'return word[0] in "aeiou" and word[-1] not in "aeiou"',
    ),
    _l2(
        "consonant-start-vowel-end",
        "words that start with a consonant and end with a vowel",
        'return word[0] not in "aeiou" and word[-1] in "aeiou"',
    ),
    _l2(
        "vowel-start-or-vowel-end",
        "words that start with a vowel or end with a vowel",
        'return word[0] in "aeiou" or word[-1] in "aeiou"',
    ),
    _l2(
        "ends-e-or-y",
        "words that end with e or with y",
        'return word[-1] in "ey"',
    ),
    _l2(
        "first-half-start-second-half-end",
        "words that start with a letter from a to m and end with a letter from n to z",
        'return word[0] <= "m" and word[-1] >= "n"',
    ),
    # length with a letter
    _l2(
        "long-with-e",
        "words longer than five letters that contain the letter e",
        'return len(word) > 5 and "e" in word',
    ),
    _l2(
        "short-with-a",
        "words of at most five letters that contain the letter a",
        'return len(word) <= 5 and "a" in word',
    ),
    _l2(
        "short-or-with-z-x-q",
        "words of at most four letters, or words containing x, z or q",
        'return len(word) <= 4 or any(letter in "xzq" for letter in word)',
    ),
    _l2(
        "even-length-vowel-end",
        "words with an even number of letters that end with a vowel",
        'return len(word) % 2 == 0 and word[-1] in "aeiou"',
    ),
    _l2(
        "odd-length-with-o",
        "words with an odd number of letters that contain the letter o",
        'return len(word) % 2 == 1 and "o" in word',
    ),
    _l2(
        "long-or-double",
        "words longer than seven letters or with a double letter",
        "return len(word) > 7 or any(word[i] == word[i + 1] for i in range(len(word) - 1))",
    ),
    _l2(
        "short-consonant-start",
        "words of at most six letters that start with a consonant",
        'return len(word) <= 6 and word[0] not in "aeiou"',
    ),
    _l2(
        "six-letters-or-ends-s",
        "words of exactly six letters, or words ending in s",
        'return len(word) == 6 or word.endswith("s")',
    ),
    # two letters
    _l2("with-a-and-e", "words containing both a and e", 'return "a" in word and "e" in word'),
    _l2("with-a-or-o", "words containing a or o", 'return "a" in word or "o" in word'),
    _l2("with-i-and-n", "words containing both i and n", 'return "i" in word and "n" in word'),
    _l2("with-r-and-t", "words containing both r and t", 'return "r" in word and "t" in word'),
    _l2(
        "without-e-and-without-a",
        "words containing neither e nor a",
        'return "e" not in word and "a" not in word',
    ),
    _l2("with-s-not-t", "words containing s but not t", 'return "s" in word and "t" not in word'),
    _l2("with-l-or-m", "words containing l or m", 'return "l" in word or "m" in word'),
    _l2("with-o-and-r", "words containing both o and r", 'return "o" in word and "r" in word'),
    _l2(
        "with-c-or-ends-y",
        "words that contain c or end with y",
        'return "c" in word or word.endswith("y")',
    ),
    # a letter and a position class
    _l2(
        "vowel-start-or-with-n",
        "words that start with a vowel or contain the letter n",
        'return word[0] in "aeiou" or "n" in word',
    ),
    _l2(
        "long-ends-e",
        "words longer than five letters that end with e",
        'return len(word) > 5 and word.endswith("e")',
    ),
    _l2(
        "starts-s-or-ends-s",
        "words that start with s or end with s",
        'return word[0] == "s" or word[-1] == "s"',
    ),
    _l2(
        "starts-p-t-b-or-with-u",
        "words that start with p, t or b, or contain the letter u",
        'return word[0] in "ptb" or "u" in word',
    ),
    # counts
    _l2(
        "two-vowels-consonant-end",
        "words with exactly two vowels that end with a consonant",
        'return sum(1 for letter in word if letter in "aeiou") == 2 and word[-1] not in "aeiou"',
    ),
    _l2(
        "one-vowel-or-long",
        "words with exactly one vowel, or longer than nine letters",
        'return sum(1 for letter in word if letter in "aeiou") == 1 or len(word) > 9',
    ),
    _l2(
        "four-vowels-or-double",
        "words with at least four vowels or with a double letter",
        'return sum(1 for letter in word if letter in "aeiou") >= 4'
        " or any(word[i] == word[i + 1] for i in range(len(word) - 1))",
    ),
    _l2(
        "vowel-pair-and-e",
        "words with two vowels next to each other that also contain the letter e",
        'return "e" in word and any(word[i] in "aeiou" and word[i + 1] in "aeiou" for i in range(len(word) - 1))',
    ),
    _l2(
        "no-repeat-and-short",
        "words of at most six letters in which no letter occurs twice",
        "return len(word) <= 6 and len(set(word)) == len(word)",
    ),
    _l2(
        "repeat-and-consonant-start",
        "words that start with a consonant and have some letter occurring more than once",
        'return word[0] not in "aeiou" and len(set(word)) < len(word)',
    ),
    _l2(
        "double-or-ends-y",
        "words with a double letter or ending in y",
        'return word.endswith("y") or any(word[i] == word[i + 1] for i in range(len(word) - 1))',
    ),
    _l2(
        "cluster-or-vowel-start",
        "words with three consonants in a row, or starting with a vowel",
        'return word[0] in "aeiou" or any(all(letter not in "aeiou" for letter in word[i:i + 3])'
        " for i in range(len(word) - 2))",
    ),
    _l2(
        "two-consonant-start-long",
        "words longer than five letters that start with two consonants",
        'return len(word) > 5 and word[0] not in "aeiou" and word[1] not in "aeiou"',
    ),
    _l2(
        "one-vowel-kind-or-ends-y",
        "words in which exactly one distinct vowel occurs (it may repeat), or that end with y",
        'return word.endswith("y") or len({letter for letter in word if letter in "aeiou"}) == 1',
    ),
    _l2(
        "three-vowels-consonant-end",
        "words with at least three vowels that end with a consonant",
        'return sum(1 for letter in word if letter in "aeiou") >= 3 and word[-1] not in "aeiou"',
    ),
    _l2(
        "first-half-start-with-t",
        "words that start with a letter from a to m and contain the letter t",
        'return word[0] <= "m" and "t" in word',
    ),
)

"""Level 3 rules: positional or relational properties (a letter at a position, letters compared...)."""

from __future__ import annotations

from playeval.games.functions_picnic._types import LibraryRule, library_rule


def _l3(rule_id: str, statement: str, body: str) -> LibraryRule:
    return library_rule(f"L3.{rule_id}", 3, statement, body)


LEVEL3: tuple[LibraryRule, ...] = (
    # a letter at a position
    _l3("second-vowel", "words whose second letter is a vowel", 'return word[1] in "aeiou"'),
    _l3("third-vowel", "words whose third letter is a vowel", 'return word[2] in "aeiou"'),
    _l3(
        "fourth-vowel",
        "words of at least four letters whose fourth letter is a vowel",
        'return len(word) >= 4 and word[3] in "aeiou"',
    ),
    _l3(
        "second-to-last-vowel",
        "words whose second-to-last letter is a vowel",
        'return word[-2] in "aeiou"',
    ),
    _l3(
        "second-letter-r-l-or-h",
        "words whose second letter is r, l or h",
        'return word[1] in "rlh"',
    ),
    _l3(
        "vowel-at-second-and-fourth",
        "words of at least four letters whose second and fourth letters are both vowels",
        'return len(word) >= 4 and word[1] in "aeiou" and word[3] in "aeiou"',
    ),
    _l3(
        "middle-vowel",
        "words whose middle letter is a vowel (for an even number of letters, the first of the two middle letters)",
        'return word[(len(word) - 1) // 2] in "aeiou"',
    ),
    _l3(
        "first-vowel-is-e",
        "words whose first vowel is an e",
        'vowels = [letter for letter in word if letter in "aeiou"]\nreturn len(vowels) > 0 and vowels[0] == "e"',
    ),
    _l3(
        "last-vowel-is-e",
        "words whose last vowel is an e",
        'vowels = [letter for letter in word if letter in "aeiou"]\nreturn len(vowels) > 0 and vowels[-1] == "e"',
    ),
    _l3(
        "first-vowel-is-a-or-o",
        "words whose first vowel is a or o",
        'vowels = [letter for letter in word if letter in "aeiou"]\nreturn len(vowels) > 0 and vowels[0] in "ao"',
    ),
    _l3(
        "e-in-second-half",
        "words with an e in their second half (the last half of the letters, the middle letter included)",
        'return "e" in word[len(word) // 2:]',
    ),
    # first and last letters compared
    _l3(
        "first-after-last",
        "words whose first letter comes later in the alphabet than their last letter",
        "return word[0] > word[-1]",
    ),
    _l3(
        "first-and-last-same-kind",
        "words whose first and last letters are both vowels or both consonants",
        'return (word[0] in "aeiou") == (word[-1] in "aeiou")',
    ),
    _l3(
        "first-letter-again",
        "words whose first letter occurs again later in the word",
        "return word[0] in word[1:]",
    ),
    _l3(
        "last-letter-earlier",
        "words whose last letter also occurs earlier in the word",
        "return word[-1] in word[:-1]",
    ),
    _l3(
        "first-is-earliest",
        "words whose first letter comes earlier in the alphabet than all their other letters",
        "return all(word[0] < letter for letter in word[1:])",
    ),
    _l3(
        "last-is-latest",
        "words whose last letter is the letter latest in the alphabet in the word (ties allowed)",
        "return word[-1] == max(word)",
    ),
    # neighbouring letters compared
    _l3(
        "first-two-in-order",
        "words whose second letter comes later in the alphabet than their first letter",
        "return word[1] > word[0]",
    ),
    _l3(
        "last-two-in-order",
        "words whose last letter comes later in the alphabet than the letter before it",
        "return word[-1] > word[-2]",
    ),
    _l3(
        "first-three-ascending",
        "words whose first three letters are in alphabetical order (each later than the one before)",
        "return word[0] < word[1] < word[2]",
    ),
    _l3(
        "three-ascending-anywhere",
        "words with three letters in a row that are in alphabetical order (each later than the one before)",
        "return any(word[i] < word[i + 1] < word[i + 2] for i in range(len(word) - 2))",
    ),
    _l3(
        "alphabet-neighbours",
        "words with two adjacent letters that are neighbours in the alphabet, in either order (like st or on)",
        "return any(abs(ord(word[i]) - ord(word[i + 1])) == 1 for i in range(len(word) - 1))",
    ),
    _l3(
        "alternating",
        "words in which vowels and consonants alternate all the way through",
        'return all((word[i] in "aeiou") != (word[i + 1] in "aeiou") for i in range(len(word) - 1))',
    ),
    _l3(
        "no-adjacent-consonants",
        "words in which no two consonants are next to each other",
        'return not any(word[i] not in "aeiou" and word[i + 1] not in "aeiou" for i in range(len(word) - 1))',
    ),
    # repeats at a distance
    _l3(
        "repeat-at-distance-2",
        "words in which some letter occurs twice with exactly one letter between (like the e's in eve)",
        "return any(word[i] == word[i + 2] for i in range(len(word) - 2))",
    ),
    _l3(
        "repeat-at-distance-3",
        "words in which some letter occurs twice with exactly two letters between (like the n's in noun)",
        "return any(word[i] == word[i + 3] for i in range(len(word) - 3))",
    ),
    # counts compared
    _l3(
        "vowels-at-least-consonants",
        "words with at least as many vowels as consonants",
        'vowels = sum(1 for letter in word if letter in "aeiou")\nreturn vowels >= len(word) - vowels',
    ),
    _l3(
        "consonants-double-vowels",
        "words with at least twice as many consonants as vowels",
        'vowels = sum(1 for letter in word if letter in "aeiou")\nreturn len(word) - vowels >= 2 * vowels',
    ),
    _l3(
        "more-vowels-in-first-half",
        "words with more vowels in their first half than in their second half (a middle letter is in neither)",
        'half = len(word) // 2\nfirst = sum(1 for letter in word[:half] if letter in "aeiou")\n'
        'second = sum(1 for letter in word[len(word) - half:] if letter in "aeiou")\nreturn first > second',
    ),
    _l3(
        "mostly-first-half-letters",
        "words in which more than half of the letters are from the first half of the alphabet (a to m)",
        'return 2 * sum(1 for letter in word if letter <= "m") > len(word)',
    ),
    _l3(
        "vowels-in-order",
        "words with at least two vowels whose vowels are in alphabetical order (none earlier than the one before)",
        'vowels = [letter for letter in word if letter in "aeiou"]\n'
        "return len(vowels) >= 2 and all(vowels[i] <= vowels[i + 1] for i in range(len(vowels) - 1))",
    ),
    _l3(
        "consonants-in-order",
        "words whose consonants are in alphabetical order (none earlier than the one before)",
        'consonants = [letter for letter in word if letter not in "aeiou"]\n'
        "return all(consonants[i] <= consonants[i + 1] for i in range(len(consonants) - 1))",
    ),
    _l3(
        "mirrored-letter",
        "words with the same letter at the same distance from both ends (first and last, or second and"
        " second-to-last, ...), like edge or tent",
        "return any(word[i] == word[-1 - i] for i in range(len(word) // 2))",
    ),
    _l3(
        "more-letters-than-first-position",
        "words with more letters than the position of their first letter in the alphabet (a is 1, b is 2...)",
        'return len(word) > ord(word[0]) - ord("a") + 1',
    ),
    _l3(
        "vowel-at-odd-positions",
        "words in which every vowel is at an odd position (first, third, fifth...)",
        'return all(word[i] not in "aeiou" for i in range(1, len(word), 2))',
    ),
    _l3(
        "halves-share-no-letter",
        "words whose first half and second half have no letter in common (a middle letter is in neither)",
        "half = len(word) // 2\nreturn not set(word[:half]) & set(word[len(word) - half:])",
    ),
    _l3(
        "first-before-second-to-last",
        "words whose first letter comes earlier in the alphabet than their second-to-last letter",
        "return word[0] < word[-2]",
    ),
)

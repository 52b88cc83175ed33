/* When does a clue say the secret word? A faithful copy of playeval/games/taboo/words.py, so the page can
   refuse a clue before it is sent. The server checks again; its verdict is the one that counts.

   A text says a word when it contains the word or an inflected form of it (plural, -s/-es, -ed, -ing,
   a few irregular plurals) as a whole word, in any case and with accents folded. A phrase matches with
   any spaces or hyphens (or none) between its words, and only its last word is inflected. */
"use strict";

(function () {
  const VOWELS = new Set("aeiou");
  const NO_DOUBLING = new Set("wxy");
  const SIBILANTS = ["s", "x", "z", "ch", "sh"];
  const IRREGULAR = {
    child: ["children"],
    foot: ["feet"],
    goose: ["geese"],
    louse: ["lice"],
    man: ["men"],
    mouse: ["mice"],
    ox: ["oxen"],
    person: ["people"],
    tooth: ["teeth"],
    woman: ["women"],
  };
  const JOINER = "[\\s\\-_]*";
  const MAX_CLUE_CHARS = 140;

  /** Lowercase ASCII, accents dropped, apostrophes turned into spaces (cat's is "cat s"). */
  function fold(text) {
    const spaced = String(text).replace(/[\u2019\u2018']/g, " ");
    // Python: NFKD, then encode("ascii", "ignore"), then lower().
    return spaced.normalize("NFKD").replace(/[^\x00-\x7f]/g, "").toLowerCase();
  }

  function split(word) {
    return fold(word).split(/[^a-z0-9]+/).filter((part) => part.length > 0);
  }

  function endsWithAny(word, endings) {
    return endings.some((ending) => word.endsWith(ending));
  }

  function shortCvc(word) {
    if (word.length < 3 || word.length > 5 || NO_DOUBLING.has(word[word.length - 1])) return false;
    const c1 = word[word.length - 3];
    const v = word[word.length - 2];
    const c2 = word[word.length - 1];
    let vowels = 0;
    for (const ch of word) if (VOWELS.has(ch)) vowels += 1;
    return !VOWELS.has(c1) && VOWELS.has(v) && !VOWELS.has(c2) && vowels === 1;
  }

  function inflections(word) {
    const forms = new Set([word]);
    for (const form of IRREGULAR[word] || []) forms.add(form);
    const consonantY = word.length > 1 && word.endsWith("y") && !VOWELS.has(word[word.length - 2]);
    const consonantE = word.length > 2 && word.endsWith("e") && !VOWELS.has(word[word.length - 2]);
    const stem = word.slice(0, -1);
    // plurals (and third-person verbs)
    if (endsWithAny(word, SIBILANTS)) {
      forms.add(word + "es");
    } else if (consonantY) {
      forms.add(stem + "ies");
    } else {
      forms.add(word + "s");
      if (word.endsWith("o")) forms.add(word + "es");
    }
    if (endsWithAny(word, ["lf", "eaf", "oaf"])) {
      forms.add(stem + "ves");
    } else if (word.endsWith("ife")) {
      forms.add(word.slice(0, -2) + "ves");
    }
    // past tense
    if (consonantY) {
      forms.add(stem + "ied");
    } else if (word.endsWith("e")) {
      forms.add(word + "d");
    } else if (shortCvc(word)) {
      forms.add(word + word[word.length - 1] + "ed");
    } else {
      forms.add(word + "ed");
    }
    // present participle
    if (consonantE) {
      forms.add(stem + "ing");
    } else if (shortCvc(word)) {
      forms.add(word + word[word.length - 1] + "ing");
    } else {
      forms.add(word + "ing");
    }
    return forms;
  }

  /** The word and its regular forms, folded; for a phrase only the last word is inflected. */
  function wordForms(word) {
    const parts = split(word);
    if (parts.length === 0) return [];
    const head = parts.slice(0, -1).join(" ");
    return Array.from(inflections(parts[parts.length - 1]), (form) => (head ? `${head} ${form}` : form));
  }

  function escapeRegExp(text) {
    return text.replace(/[.*+?^${}()|[\]\\\-]/g, "\\$&");
  }

  const patterns = new Map();

  function pattern(word) {
    if (patterns.has(word)) return patterns.get(word);
    const forms = wordForms(word);
    let compiled = null;
    if (forms.length > 0) {
      const alternatives = forms
        .map((form) => form.split(" ").map(escapeRegExp).join(JOINER))
        .sort((a, b) => b.length - a.length);
      compiled = new RegExp(`(?<![a-z0-9])(?:${alternatives.join("|")})(?![a-z0-9])`);
    }
    patterns.set(word, compiled);
    return compiled;
  }

  /** Where `text` says `word` (as written in the folded text), or null. */
  function findWord(text, word) {
    const compiled = pattern(word);
    if (!compiled) return null;
    const found = compiled.exec(fold(text));
    return found ? found[0] : null;
  }

  function saysWord(text, word) {
    return findWord(text, word) !== null;
  }

  /** Length in characters as Python counts them (code points, not UTF-16 units). */
  function charCount(text) {
    return Array.from(String(text)).length;
  }

  /** Why a clue would be refused (the server's own wording), or null when it may be sent. */
  function clueProblem(clue, word, limit) {
    const max = limit || MAX_CLUE_CHARS;
    const text = String(clue).trim();
    if (!text) return "the clue was empty.";
    if (/[\r\n]/.test(text)) return "write the clue as one message on a single line.";
    const length = charCount(text);
    if (length > max) return `the clue has ${length} characters; at most ${max} are allowed.`;
    const said = word ? findWord(text, word) : null;
    if (said !== null) {
      return `the clue contains the secret word or a form of it ('${said}'); describe it without writing it.`;
    }
    return null;
  }

  window.TabooWords = { fold, wordForms, findWord, saysWord, charCount, clueProblem, MAX_CLUE_CHARS };
})();

"""The rule-writing phase's shared pieces: reading a game master's code draft, its grammar, the checker's verdict."""

from __future__ import annotations

import pytest

from playeval.core import FormatError
from playeval.core.ask import Ask
from playeval.core.messages import system, user
from playeval.guess_rule.writing import (
    CodeExecutor,
    Draft,
    code_check_ask,
    code_grammar,
    draft_messages,
    read_code_draft,
    read_verdict,
    seeded_hint,
)

HEADER = "def rule("


def test_a_fenced_draft_is_read_with_its_statement_fields_and_imports() -> None:
    text = ("Here is my rule.\nRULE: words with a double letter\n**START:** 4\n```python\nimport re\n\n"
            "def rule(word):\n    return re.search(r'(.)\\1', word) is not None\n```\nHope you like it.")
    data = read_code_draft(text, HEADER, ("start",))
    assert data["statement"] == "words with a double letter" and data["start"] == "4"
    assert data["code"] == "import re\ndef rule(word):\n    return re.search(r'(.)\\1', word) is not None\n"


def test_a_draft_without_fences_is_read_from_the_function_on() -> None:
    data = read_code_draft("RULE: long words\ndef rule(word):\n    return len(word) > 6", HEADER)
    assert data == {"statement": "long words", "code": "def rule(word):\n    return len(word) > 6\n"}


@pytest.mark.parametrize(("text", "missing"), [
    ("```python\ndef rule(word):\n    return True\n```", "RULE:"),
    ("RULE: words with an a\nreturn 'a' in word", "def rule("),
    ("RULE: words with an a\n```python\ndef rule(word):\n    return 'a' in word\n```", "START:"),
])
def test_an_unreadable_draft_says_what_is_missing(text: str, missing: str) -> None:
    with pytest.raises(FormatError, match=missing.replace("(", r"\(")):
        read_code_draft(text, HEADER, ("start",))


def test_the_grammar_fixes_the_header_and_leaves_the_body_free() -> None:
    grammar = code_grammar("def rule(word):", (("START", '"-"? [0-9]+'),))
    assert grammar.startswith('root ::= "RULE: "') and '"START: " "-"? [0-9]+ "\\n"' in grammar
    assert '"```python\\ndef rule(word):\\n" body "```"' in grammar and "body ::= [^`]+" in grammar


def test_a_verdict_must_be_a_json_object_and_a_rejection_must_say_why() -> None:
    assert read_verdict('{"accepted": true, "values": [1]}')["values"] == [1]
    for bad in ("accepted", '["accepted"]', '{"accepted": "yes"}', '{"accepted": false}'):
        with pytest.raises(FormatError):
            read_verdict(bad)


def test_the_game_masters_conversation_carries_each_rejected_draft_and_its_reason() -> None:
    drafts = (Draft(text="RULE: a\n...", verdict="rejected", reason="too rare"), Draft(text="RULE: b\n..."))
    messages = draft_messages("sys", "write one", drafts)
    assert [m.role for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2].content == "RULE: a\n..." and "too rare" in messages[3].content


async def test_the_executor_runs_its_check_on_the_draft_the_ask_carries() -> None:
    seen: list[object] = []

    def check(draft: object) -> dict[str, object]:
        seen.append(draft)
        return {"accepted": True, "n": 1}

    executor = CodeExecutor(check)
    ask = code_check_ask(Draft(text="t", data={"statement": "s", "code": "def rule(word): ..."}))
    reply = await executor.act(ask)
    assert read_verdict(reply.text) == {"accepted": True, "n": 1}
    assert seen == [{"code": "def rule(word): ...", "statement": "s"}]
    stray = Ask(role="code_executor", kind="check", display="", instructions="", messages=(system("x"), user("hi")))
    assert read_verdict((await executor.act(stray)).text)["reason"] == "not_a_draft"


def test_each_draft_is_asked_with_its_own_seeded_hint() -> None:
    drafts = (Draft(text="RULE: a", verdict="rejected", reason="too rare"),)
    messages = draft_messages("sys", "write one", drafts, ("Hint 0.", "Hint 1."))
    assert messages[1].content == "write one\nHint 0." and messages[3].content.endswith("\nHint 1.")
    choices = [f"idea {n}" for n in range(20)]
    assert seeded_hint(7, "math", 0, choices) == seeded_hint(7, "math", 0, choices)
    assert len({seeded_hint(seed, "math", 0, choices) for seed in range(10)}) > 3

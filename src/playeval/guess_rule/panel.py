"""The page view of a guess-the-rule match (``Game.panel``), the same for every game on the template.

What GuessTheRuleBench's web app shows (section 3.5.2, Figure 1): the examples seen so far as lists, live
counters of turns taken and of the items (or values) seen, the time, and ways to ask for N more examples or to
guess. Here the lists come from the game's ``panel_lists`` hook, the counters from the state, and, for the person in the
player's seat, a form for each of their asks: a number field for ``MORE: N`` bounded by what is left and a box
for ``GUESS: ...``; after a guess, one answer per held-out item (a choice or a number, as the game's
``apply_answer`` grammar says) or ``skip``. Nothing here is hidden from the player: only examples already shown,
the held-out items without their answers, and the player's own guesses with what the game said of them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playeval.core.panel import FieldKind, FormAction, FormField, MoveForm, Panel, PanelCounter, PanelList
from playeval.guess_rule.base import MAX_GUESS_CHARS, PLAYER, SKIP, Guess, GuessRuleGame, GuessState

CLOCK = "Time"
GUESS_PREFIX = "GUESS: "
MIN_GUESS_CHARS = 3
REPLY_FORMAT = "Reply with"
"""Where the games' check requests turn from the question to the format a model replies in."""
_QUOTED = re.compile(r'"([^"\\]+)"')
_CHOICES = re.compile(r'\s*"[^"\\]+"(\s*\|\s*"[^"\\]+")*\s*')
_INTEGER = re.compile(r'\s*("-"\s*\?\s*)?\[0-9\]\s*(\{\d+(,\d*)?\}|\+)?\s*')


def answer_field(expression: str) -> tuple[FieldKind, tuple[str, ...] | None]:
    """The field a person answers a held-out item with, read from the GBNF expression a model's answer follows
    (``apply_answer``), so the two cannot drift apart: a choice among quoted words, a whole number, or text."""
    if _CHOICES.fullmatch(expression):
        return "choice", tuple(_QUOTED.findall(expression))
    if _INTEGER.fullmatch(expression):
        return "integer", None
    return "text", None


def text_lists(text: str, title: str) -> tuple[PanelList, ...]:
    """Examples as the player reads them, as lists: a line ending in ':' titles the lines after it."""
    lists: list[tuple[str, list[str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.endswith(":"):
            lists.append((line[:-1], []))
        else:
            if not lists:
                lists.append((title, []))
            lists[-1][1].append(line)
    if not lists:
        lists.append((title, []))
    return tuple(PanelList(key=f"examples-{index}", title=name, items=tuple(items))
                 for index, (name, items) in enumerate(lists))


def _guess_line(guess: Guess, held: int, judges: int) -> str:
    """A guess and what became of it: who accepted it (the rules or the judge, with a panel's members' words), said
    once the check is done (a guess the rules accepted at once waits for the check as a judged one does)."""
    if guess.applied is None:
        said = f"apply it to the {held} items"
    elif guess.verdict is None:
        said = (f"the judges are deciding ({len(guess.panel)} of {judges} have ruled)" if judges > 1
                else "the judge is deciding")
    else:
        said = guess.said()
    if guess.panel and guess.verdict is not None:
        said += " (" + ", ".join(f"{member.member}: {member.word}" for member in guess.panel) + ")"
    return f"Turn {guess.turn}: \u201c{guess.text}\u201d \u2014 {said}"


def _move_form(game: GuessRuleGame, state: GuessState) -> MoveForm:
    left = state.total - state.shown
    unit = game.example_unit
    actions: list[FormAction] = []
    if left > 0:
        actions.append(FormAction(
            key="more", label="Show more", template="MORE: {n}",
            help=f"Each request costs a turn; {left} more can be shown.",
            fields=(FormField(key="n", label=f"How many more {unit}", kind="integer", minimum=1, maximum=left,
                              default="1"),)))
    actions.append(FormAction(
        key="guess", label="Guess", template=GUESS_PREFIX + "{rule}",
        help="A guess costs a turn; the rules accept one that states the rule, else the judge rules.",
        fields=(FormField(key="rule", label="The rule, in words", kind="text", min_chars=MIN_GUESS_CHARS,
                          max_chars=MAX_GUESS_CHARS - len(GUESS_PREFIX)),)))
    last = game.last_note(state)
    return MoveForm(party=PLAYER, kind="move", title="Your move" if last is None else "Your last move",
                    actions=tuple(actions), note=last)


def _question(game: GuessRuleGame, count: int) -> str:
    """What the check asks, in the game's words, without the reply format meant for models."""
    request = game.apply_request.format(count=count, items="").strip()
    return request.split(REPLY_FORMAT, 1)[0].strip() or f"Apply your rule to these {count} items."


def _check_form(game: GuessRuleGame, state: GuessState) -> MoveForm:
    check = state.guesses[-1].check
    items = check.items
    kind, choices = answer_field(game.apply_answer)
    fields = tuple(FormField(key=f"a{number}", label=item.prompt, kind=kind, choices=choices,
                             max_chars=None if kind == "choice" else 40)
                   for number, item in enumerate(items, start=1))
    template = "\n".join(f"{number}. {{a{number}}}" for number in range(1, len(items) + 1))
    return MoveForm(
        party=PLAYER, kind="apply", title="Apply your rule",
        note=(f"{_question(game, len(items))} This check is scored apart from the judge's verdict; you may skip it."
              + (f" ({check.said()}.)" if check.said() else "")),
        actions=(FormAction(key="apply", label="Send the answers", template=template, fields=fields),
                 FormAction(key="skip", label="Skip the check", template=SKIP, secondary=True)))


def _forms(game: GuessRuleGame, state: GuessState) -> Sequence[MoveForm]:
    if game.outcome(state) is not None:
        return ()
    phase = state.phase()
    if phase == "move":
        return (_move_form(game, state),)
    if phase == "apply":
        return (_check_form(game, state),)
    return ()


def guess_panel(game: GuessRuleGame, state: GuessState, viewer: str | None) -> Panel:
    """The panel of ``state`` for ``viewer``: forms only for the player's own seat."""
    guesses = PanelList(key="guesses", title="Guesses",
                        items=tuple(_guess_line(g, len(g.check.items), state.judges) for g in state.guesses),
                        empty="no guess yet")
    counters = (PanelCounter(key="turns", label="Turns taken", value=state.turns, limit=state.limit),
                PanelCounter(key="seen", label=game.seen_label, value=game.seen(state.shown),
                             limit=game.seen(state.total)),
                PanelCounter(key="guesses", label="Guesses", value=len(state.guesses)))
    return Panel(lists=(*game.panel_lists(state.rule, state.shown), guesses), counters=counters, clock=CLOCK,
                 forms=tuple(_forms(game, state)) if viewer == PLAYER else ())

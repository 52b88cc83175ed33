"""Undercover's page view of a match (``Undercover.panel``): what one viewer may see of the table now.

For a seat: its own word (never another seat's), every sentence so far by round with the judges' verdict (the
mean scores, and "out: Low novelty" when a sentence put its speaker out), the tally of each closed vote (never
the votes of the open one: they are secret until everyone has voted), who is out and why, and a form for each
of the seat's open asks: a sentence box, or a vote among the living other seats only (the same choices the ask
offers a model, so a form cannot build a vote the rules refuse). A watcher (``None``) sees the same without a
word. Once the game is over everyone's word and side are shown. A seat taken over by a stand-in model stays in
the game (it is not out): the arena's seat list says who plays it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from playeval.core.panel import FormAction, FormField, MoveForm, Panel, PanelCounter, PanelList
from playeval.games.undercover.state import Out, Statement, UndercoverState

VOTE_NOTE = ("Your vote stays secret until everyone has voted. The one player with the most votes is out; a tie "
             "puts nobody out.")


def _verdict(item: Statement, state: UndercoverState) -> str:
    mean = item.mean()
    if mean is None or not item.done(state.judges):
        return "the judge is scoring it"
    shown = (f"judge: novelty {mean.novelty:.2f}, relevance {mean.relevance:.2f}, "
             f"reasonableness {mean.reasonableness:.2f}")
    gone = next((o for o in state.out if o.seat == item.seat and o.round == item.round and o.by == "judge"), None)
    return shown if gone is None else f"{shown}; out: {gone.reason}"


def _tally(state: UndercoverState, round_: int) -> tuple[str, ...]:
    """A closed round's votes: how many each seat got and from whom, the abstentions, and what the vote did."""
    votes = [vote for vote in state.votes if vote.round == round_]
    counts = Counter(vote.target for vote in votes if vote.target is not None)
    parts = [f"{target} {n} ({', '.join(sorted(v.voter for v in votes if v.target == target))})"
             for target, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
    abstained = sorted(vote.voter for vote in votes if vote.target is None)
    if abstained:
        parts.append(f"abstained: {', '.join(abstained)}")
    voted_out = next((o for o in state.out if o.round == round_ and o.by == "vote"), None)
    result = f"{voted_out.seat} is {voted_out.reason}" if voted_out else "a tie: nobody is out"
    return (f"Votes: {'; '.join(parts) or 'none'}", f"Result: {result}")


def _rounds(state: UndercoverState) -> tuple[PanelList, ...]:
    lists: list[PanelList] = []
    for round_ in range(1, min(state.round, state.max_rounds) + 1):
        said = [s for s in state.statements if s.round == round_]
        closed = round_ < state.round
        if not said and not closed and round_ > 1:
            continue
        items = [f"{s.seat}: \u201c{s.text}\u201d \u2014 {_verdict(s, state)}" for s in said]
        if closed:
            items.extend(_tally(state, round_))
        lists.append(PanelList(key=f"round-{round_}", title=f"Round {round_}", items=tuple(items),
                               empty="no sentence yet"))
    return tuple(lists)


def _out_line(gone: Out) -> str:
    if gone.by == "judge":
        why = f"put out by the judge ({gone.reason})"
    else:
        why = gone.reason  # "voted out with 3 votes", "forfeit: ..."
    return f"{gone.seat} \u2014 round {gone.round}: {why}"


def _words(state: UndercoverState, viewer: str | None, over: bool) -> tuple[PanelList, ...]:
    if over:
        items = tuple(f"{seat}: {state.word(seat)} ({state.side(seat)})" + (" \u2014 you" if seat == viewer else "")
                      for seat in state.table)
        return (PanelList(key="words", title="Words and sides", items=items),)
    if viewer in state.table:
        return (PanelList(key="word", title="Your word", items=(state.word(viewer),)),)
    return ()


def _forms(state: UndercoverState, viewer: str, max_chars: int) -> Sequence[MoveForm]:
    """The viewer's open asks as forms: their sentence when it is their turn, their vote while the vote is open."""
    if viewer not in state.alive():
        return ()
    phase = state.phase()
    if phase == "statement" and state.next_speaker() == viewer:
        sentence = FormField(key="sentence", label="Your sentence", kind="text", max_chars=max_chars)
        return (MoveForm(party=viewer, kind="statement", title=f"Round {state.round}: describe your word",
                         note=f"Your word is \u201c{state.word(viewer)}\u201d. One sentence, at most {max_chars} "
                              "characters, without the word itself and unlike any sentence said before.",
                         actions=(FormAction(key="say", label="Say it", template="{sentence}",
                                             fields=(sentence,)),)),)
    if phase == "vote" and all(vote.voter != viewer for vote in state.round_votes()):
        choices = tuple(seat for seat in state.alive() if seat != viewer)
        target = FormField(key="target", label="Who should be out?", kind="choice", choices=choices)
        return (MoveForm(party=viewer, kind="vote", title=f"Round {state.round}: vote a player out", note=VOTE_NOTE,
                         actions=(FormAction(key="vote", label="Vote", template="{target}", fields=(target,)),)),)
    return ()


def undercover_panel(state: UndercoverState, viewer: str | None, *, over: bool, max_chars: int) -> Panel:
    """The panel of ``state`` for the viewer holding seat ``viewer`` (``None``: a watcher or a replay)."""
    alive = state.alive()
    out = PanelList(key="out", title="Out of the game", items=tuple(_out_line(gone) for gone in state.out),
                    empty="nobody yet")
    counters = (PanelCounter(key="round", label="Round", value=min(state.round, state.max_rounds),
                             limit=state.max_rounds),
                PanelCounter(key="left", label="Players still in", value=len(alive), limit=len(state.table)),
                PanelCounter(key="undercover", label="Undercover agents at the start",
                             value=int(state.spec.params["undercover"])))
    forms = _forms(state, viewer, max_chars) if viewer is not None and not over else ()
    return Panel(lists=(*_words(state, viewer, over), *_rounds(state), out), counters=counters,
                 forms=tuple(forms))

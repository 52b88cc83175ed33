"""Undercover (CK-Arena): civilians share a word, the undercover agents hold a close but different one.

Seats ``player1`` ... ``playerN`` (``players`` 4-8, default 6; ``undercover`` agents, default 2, fewer than the
civilians). Each seat sees only its own word, never its side nor another seat's word (everything is revealed at
the end). The pair is drawn from every pair, one category's (``--secret-set CATEGORY``), or one of two halves that
share no category (``half1``, ``half2``: ``undercover.sets``). A round:

1. Every living seat, in table order starting one seat later each round, says one sentence (at most
   ``MAX_CHARS`` characters, without its word). After each sentence the ``judge`` role scores it for novelty
   (against every earlier sentence), relevance and reasonableness (both for the speaker's own word): one
   question per scale, answered yes / partly / no and scored 1, 0.5 or 0 (novelty's question asks whether the
   sentence repeats, so its scores run the other way). A panel of judges (``--role judge=A,B``: members
   ``judge``, ``judge#2``; their number is the spec's ``judges``) answers in turn, and the mean counts. A mean
   novelty under ``novelty_threshold`` (default 0.2: a repeat) or reasonableness under
   ``reasonableness_threshold`` (default 0.4: a far-fetched or false sentence) puts the speaker out at once
   ("Low novelty", "Low reasonableness").
2. Every living seat votes, in secret and at once, for another living seat. An invalid vote (an unknown seat,
   oneself, a seat that is out) is refused with its reason and re-asked; once the seat's re-asks are spent it is
   recorded as an abstention with that reason (``Game.default_move``), never dropped.
3. **Tie rule**: the one seat with the most votes is out; when two or more share the most votes (or everyone
   abstained) nobody is out. The tally does not depend on the order the votes came in.

The civilians win as soon as no undercover agent is left; the undercover agents win as soon as they are as many
as the civilians, or when they are still in after ``max_rounds`` rounds (default 5). A seat whose sentence runs
out of re-asks is out ("forfeit"), and the match goes on.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from playeval.core import (
    Action,
    Ask,
    ConfigError,
    ConversationBreak,
    Disclosure,
    Event,
    FormatError,
    GameBase,
    GameOption,
    JudgeCase,
    LevelInfo,
    MatchSpec,
    MeasureGroup,
    MetricSpec,
    Outcome,
    OutputConstraint,
    Panel,
    Presentation,
    RoleInfo,
    RuleViolation,
    Scalar,
    SeatAssignment,
    SeatInfo,
    SeatMeasure,
    SeatResult,
    TeamAnalysis,
    TeamElo,
    TeamInfo,
)
from playeval.core.baselines import NAIVE, RANDOM, BaselineInfo
from playeval.core.info import TWO_THIRDS_OFFSET, panel_member, panel_role
from playeval.core.messages import Message, assistant, system, user
from playeval.core.normalize import normalize_name
from playeval.core.verdicts import VerdictQuestion
from playeval.core.votes import plurality
from playeval.games.undercover import prompts
from playeval.games.undercover.metrics import model_counts, seat_metrics
from playeval.games.undercover.panel import undercover_panel
from playeval.games.undercover.players import NaiveSeat, RandomSeat, ScriptedJudge, ScriptedSeat
from playeval.games.undercover.sets import SECRET_SETS, SPLIT_SETS, set_categories
from playeval.games.undercover.state import (
    CIVILIAN,
    SCALES,
    UNDERCOVER,
    Mark,
    Out,
    Statement,
    UndercoverState,
    Vote,
)

MAX_SEATS = 8
SEATS: tuple[str, ...] = tuple(f"player{n}" for n in range(1, MAX_SEATS + 1))
JUDGE = "judge"
MAX_CHARS = 150
NOVELTY_THRESHOLD = 0.2
REASONABLENESS_THRESHOLD = 0.4
_PASS_AT: dict[str, float] = {"novelty": NOVELTY_THRESHOLD, "relevance": 0.8,
                              "reasonableness": REASONABLENESS_THRESHOLD}
"""A scale's answer passes at this value: the rules' thresholds, and the QA benchmark's relevance filter."""
VERDICT_QUESTIONS: dict[str, VerdictQuestion] = {
    scale: VerdictQuestion(answers=prompts.ANSWERS,
                           accept=tuple(a for a in prompts.ANSWERS if prompts.VALUES[scale][a] >= at))
    for scale, at in _PASS_AT.items()}
"""Each scale's question as a verdict (``core.verdicts``): the answers that let a sentence pass it."""
_SENTENCE_BREAK = re.compile(r"[.!?]+\s+\S")
_LABEL = re.compile(r"^\s*(?:(?:round\s*\d+\s*,?\s*)?player\d+\s*:|(?:my|your)?\s*sentence\s*:)\s*", re.I)
"""A label the small models put before their sentence, copied from the history's lines ("Round 2, player1:") or
the prompt ("Your sentence:"); it is not part of the sentence and is dropped (the raw reply stays in the log)."""


SEAT_METRICS: tuple[MetricSpec, ...] = (
    MetricSpec(name="survival", label="Survival (rounds survived / rounds played)", percent=True,
               lower_is_better=False, skill="conceptual"),
    MetricSpec(name="vote_accuracy", label="Voting accuracy (votes for the other side)", percent=True,
               lower_is_better=False, skill="conceptual",
               missing_note="seats that never cast a valid vote"),
    MetricSpec(name="novelty", label="Mean novelty", percent=False, lower_is_better=False, skill="conceptual",
               missing_note="seats with no judged sentence"),
    MetricSpec(name="relevance", label="Mean relevance", percent=False, lower_is_better=False,
               skill="conceptual", missing_note="seats with no judged sentence"),
    MetricSpec(name="reasonableness", label="Mean reasonableness", percent=False, lower_is_better=False,
               skill="conceptual", missing_note="seats with no judged sentence"),
    MetricSpec(name="out_by_judge", label="Put out by the judge", percent=True, lower_is_better=True,
               skill="conceptual"),
    MetricSpec(name="out_by_vote", label="Voted out", percent=True, lower_is_better=True, skill="conceptual"),
)
"""Per-seat metrics of a match, computed from its state by :func:`metrics.seat_metrics`. Not the game's ``metrics``:
those are the retrospective analysis's (``score_retro``) and feed the capability profile, which these do not."""


COPY_MIN_WORDS = 4
COPY_SHARE = 0.6


def _trigrams(words: list[str]) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + 3]) for i in range(len(words) - 2)}


def _copies_instructions(line: str, system_text: str) -> bool:
    """Whether a sentence of ``COPY_MIN_WORDS`` words or more is mostly the speaker's own instructions: at least
    ``COPY_SHARE`` of its word trigrams occur in them. The small models answered "It is your turn: write one new
    sentence about your word." and the like, and the 1.5B judge found such a line could describe a pig, so copies
    made up a share of the first acceptance run's QA items; the rules now refuse them."""
    said = normalize_name(line).split()
    if len(said) < COPY_MIN_WORDS:
        return False
    mine = _trigrams(said)
    theirs = _trigrams(normalize_name(system_text + " " + prompts.TURN).split())
    return len(mine & theirs) >= COPY_SHARE * len(mine)


def _load_pairs() -> Sequence[Any]:
    from playeval.games.undercover.pairs import load_pairs  # the concept pairs (their own module and data)

    return tuple(load_pairs())


def word_key(seat: str) -> str:
    """The key of a seat's word among the match's hidden parts (``disclosures``, the judge's ``sees``)."""
    return f"{seat}_word"


def _option(options: Mapping[str, Scalar], name: str, default: Scalar) -> Scalar:
    return options.get(name, default)


CAPTION_SIDES = (
    "Per model and side, every seat it held in a finished match. Win: seats whose side won (a seat put out still "
    "wins with its side); run's rate: what those seats would win at this run's own side win rates (civilians won "
    "{civilian} of the {matches} matches), the observed reference, not a chance baseline. Survival, voting accuracy "
    "and the judges' mean scores: means over seats (seats without the measure are left out of them). Put out by the "
    "judges and voted out: shares of seats. Every interval is a 95% interval over matches, since a model's seats at "
    "one table share its words, votes and result: a bootstrap of the matches (Wilson's where each match gave the "
    "model one seat); n: the matches, and the seats in them where they differ. Re-asks: refused replies; "
    "abstentions: votes refused until the re-asks ran out.")
TEAMS = TeamAnalysis(
    teams=(TeamInfo(name=CIVILIAN, label="civilians", elo_offset=TWO_THIRDS_OFFSET),
           TeamInfo(name=UNDERCOVER, label="undercover agents")),
    groups=(
        MeasureGroup(label="Play", measures=(
            SeatMeasure(name="survival", label="survival", title="Survival", kind="mean"),
            SeatMeasure(name="vote_accuracy", label="vote acc.", title="Voting accuracy", kind="mean"))),
        MeasureGroup(label="Judges' mean scores", table="the judges' mean scores of each model's sentences, per side",
                     measures=tuple(SeatMeasure(name=name, label=name, title=name.capitalize(), kind="mean")
                                    for name in ("novelty", "relevance", "reasonableness"))),
        MeasureGroup(label="Put out", measures=(
            SeatMeasure(name="out_by_judge", label="out: judge", title="By the judges", kind="share"),
            SeatMeasure(name="out_by_vote", label="out: vote", title="By vote", kind="share"))),
        MeasureGroup(label="Counts", measures=(
            SeatMeasure(name="forfeited", label="forfeits", title="Forfeits", kind="count"),
            SeatMeasure(name="reasks", label="re-asks", title="Re-asks", kind="count"),
            SeatMeasure(name="abstentions", label="abstain", title="Abstentions", kind="count")))),
    elo=TeamElo(weights=(("won", 0.75), ("survival", 0.15), ("vote_accuracy", 0.10))),
    category="concept category",
    tables="playeval.analysis.undercover_judging:judge_tables",
    counts=("reasks", "abstentions", "forfeited"),
    counts_title="re-asks and abstentions per model",
    counts_note=("re-asks: refused replies; abstentions: votes refused until the re-asks ran out. Per side, with "
                 "intervals, eliminations and the judges' scores:"),
    caption=CAPTION_SIDES)
"""CK-Arena's analyses: the side table, the team Elo (civilians +400·log10(2), at which equal teams expect 2/3;
actual score 0.75 won + 0.15 survival + 0.10 voting accuracy), the win rate by concept category."""


class Undercover(GameBase):
    id: ClassVar[str] = "undercover"
    title: ClassVar[str] = "Undercover (CK-Arena: describe your word, find the odd ones out)"
    seats: ClassVar[tuple[SeatInfo, ...]] = tuple(
        SeatInfo(name=seat, role="describes its secret word each round and votes a player out", evaluated=True)
        for seat in SEATS)
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        RoleInfo(name=JUDGE, does="scores each sentence for novelty, relevance and reasonableness (0-1); "
                 "several models make a panel (judge=A,B), whose mean counts", default="local",
                 panel_option="judges", sees=tuple(word_key(seat) for seat in SEATS)),)
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]] = (
        ConversationBreak(party=JUDGE,
                          reason="each question on a sentence is asked on its own (one scale at a time, as a "
                                 "small judge answers best), with the sentences before it and none of the "
                                 "judge's earlier answers"),
    )
    reask_temperature: ClassVar[float | None] = 0.8
    """A refused sentence (a repeat, the word itself) is re-asked as a fresh sampled try: greedy decoding gave the
    local models' refused sentence back word for word on every re-ask, so each refusal became a forfeit."""
    levels: ClassVar[tuple[LevelInfo, ...]] = (LevelInfo(level=1, description="one concept pair per match"),)
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    """``half1``, ``half2`` and each concept category (``undercover.sets``); none named draws from every pair."""
    split_sets: ClassVar[tuple[str, str] | None] = SPLIT_SETS
    baselines: ClassVar[tuple[BaselineInfo, ...]] = (
        BaselineInfo(name=RANDOM, description="says a sentence drawn from generic ones that fit any word, and "
                                              "votes for a seat drawn at random"),
        BaselineInfo(name=NAIVE, description="says it has nothing to add (a sentence that describes nothing), and "
                                             "votes for a seat drawn at random"),
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        GameOption(name="players", description="seats at the table", default=6, minimum=4, maximum=MAX_SEATS,
                   seat_count=True),
        GameOption(name="undercover", description="undercover agents (fewer than the civilians)", default=2,
                   minimum=1, maximum=3),
        GameOption(name="max_rounds", description="rounds after which undercover agents still in win", default=5,
                   minimum=1, maximum=12),
        GameOption(name="novelty_threshold", description="a sentence whose mean novelty is under this puts its "
                   "speaker out", default=NOVELTY_THRESHOLD, minimum=0, maximum=1),
        GameOption(name="reasonableness_threshold", description="a sentence whose mean reasonableness is under "
                   "this puts its speaker out", default=REASONABLENESS_THRESHOLD, minimum=0, maximum=1),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Undercover", tagline="Describe your word; find who holds a different one.",
        pitch="Most players share a word, a few hold a close but different one, and nobody knows which they have.",
        how=("You see only your own word.", "Each round, describe it in one sentence without saying it.",
             "Then vote, in secret, for the player you want out."),
        person_seat="player1")
    teams: ClassVar[TeamAnalysis | None] = TEAMS

    # -- set-up -----------------------------------------------------------------------------------------------

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level != 1:
            raise ConfigError(f"undercover has one level, 1, not {level}")
        if inputs:
            raise ConfigError("undercover takes no inputs")
        options = options or {}
        players = int(_option(options, "players", 6))
        undercover = int(_option(options, "undercover", 2))
        if not 4 <= players <= MAX_SEATS:
            raise ConfigError(f"undercover seats 4 to {MAX_SEATS} players, not {players}")
        if not 1 <= undercover < players - undercover:
            raise ConfigError(f"undercover needs at least 1 undercover agent and fewer than the civilians: "
                              f"{undercover} of {players} players")
        drawn_from = None if secret_set is None else set_categories(secret_set)
        pairs = [pair for pair in _load_pairs() if drawn_from is None or pair.category in drawn_from]
        if not pairs:
            raise ConfigError(f"undercover has no concept pair in {secret_set!r}; its secret sets: "
                              f"{', '.join(SECRET_SETS)}")
        pair = rng.choice(pairs)
        table = SEATS[:players]
        agents = set(rng.sample(table, undercover))
        sides = {seat: UNDERCOVER if seat in agents else CIVILIAN for seat in table}
        words = {seat: str(pair.undercover if sides[seat] == UNDERCOVER else pair.civilian) for seat in table}
        setup = {"pair": {"id": str(pair.id), "category": str(pair.category), "civilian": str(pair.civilian),
                          "undercover": str(pair.undercover)}, "words": words, "sides": sides}
        params: dict[str, Scalar] = {
            "players": players, "undercover": undercover, "judges": int(_option(options, "judges", 1)),
            "max_rounds": int(_option(options, "max_rounds", 5)),
            "novelty_threshold": float(_option(options, "novelty_threshold", NOVELTY_THRESHOLD)),
            "reasonableness_threshold": float(_option(options, "reasonableness_threshold",
                                                      REASONABLENESS_THRESHOLD)),
            "category": str(pair.category), "repeats": "refused"}
        return MatchSpec(game=self.id, level=level, seed=seed, setup=setup, params=params, seats=table)

    def initial_state(self, spec: MatchSpec) -> UndercoverState:
        return UndercoverState(spec=spec)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        words = spec.setup["words"]
        return tuple(Disclosure(key=word_key(seat), value=str(words[seat]), seats=(seat,), label="Your word",
                                revealed_label=f"{seat}'s word ({spec.setup['sides'][seat]})")
                     for seat in spec.seats)

    def panel(self, state: UndercoverState, viewer: str | None) -> Panel:
        """The match on a page for ``viewer``'s seat (``None``: a watcher): only their own word until the end
        (``undercover.panel``)."""
        return undercover_panel(state, viewer, over=self.outcome(state) is not None, max_chars=MAX_CHARS)

    # -- asks -------------------------------------------------------------------------------------------------

    def next_asks(self, state: UndercoverState) -> tuple[Ask, ...]:
        phase = state.phase()
        if phase == "judge":
            return (self._judge_ask(state, state.round_statements()[-1]),)
        if phase == "statement":
            return (self._statement_ask(state, state.next_speaker() or ""),)
        voted = {vote.voter for vote in state.round_votes()}
        return tuple(self._vote_ask(state, seat) for seat in state.alive() if seat not in voted)

    @staticmethod
    def _record(state: UndercoverState) -> list[tuple[str, Statement | int | None]]:
        """The public record as lines, in the order they were added (it only grows), each with what it records: a
        sentence (its statement), the seat the judge put out after it (``None``), or what round N's vote did (N)."""
        lines: list[tuple[str, Statement | int | None]] = []
        tallies = iter(state.tallies)
        for round_ in range(1, state.round + 1):
            for item in (s for s in state.statements if s.round == round_):
                lines.append((f"Round {round_}, {item.seat}: {item.text}", item))
                out = next((o for o in state.out if o.seat == item.seat and o.by == "judge"
                            and o.round == round_), None)
                if out is not None and item.done(state.judges):
                    lines.append((f"  ({item.seat} is out: {out.reason})", None))
            if round_ < state.round:
                lines.append((next(tallies, ""), round_))
        return lines

    def _history(self, state: UndercoverState, before: Statement) -> str:
        """The public record before the sentence ``before``, as a judge is shown it."""
        lines: list[str] = []
        for line, marks in self._record(state):
            if marks is before:
                break
            lines.append(line)
        return "\n".join(lines) or "(nothing yet)"

    def _conversation(self, state: UndercoverState, seat: str) -> tuple[list[Message], list[str]]:
        """The seat's conversation before its open ask, and the record's lines it has not been shown.

        A seat's asks are one conversation that only grows, so a local model keeps its context from one ask to
        the next: its instructions, then for each earlier ask (its sentence of a round, then its vote) the
        record's lines added since its last reply and what it was asked, and the reply the rules took (none for
        a vote whose re-asks ran out: an abstention). Each earlier message is rebuilt from the state exactly as
        the ask showed it."""
        record = self._record(state)
        messages: list[Message] = [system(prompts.speaker_system(seat, state.word(seat), MAX_CHARS))]
        seen = 0
        for round_ in range(1, state.round + 1):
            said = next((item for item in state.statements if item.round == round_ and item.seat == seat), None)
            if said is not None:
                cut = next(index for index, (_, marks) in enumerate(record) if marks is said)
                heard = [line for line, _ in record[seen:cut]]
                messages += [user(prompts.speaker_turn(round_, heard, first=len(messages) == 1)), assistant(said.text)]
                seen = cut
            vote = next((item for item in state.votes if item.round == round_ and item.voter == seat), None)
            if vote is not None:
                cut = next((index for index, (_, marks) in enumerate(record)
                            if isinstance(marks, int) and marks == round_), len(record))
                heard = [line for line, _ in record[seen:cut]]
                choices = [other for other in state.voters(round_) if other != seat]
                messages.append(user(prompts.voter_turn(round_, heard, choices, first=len(messages) == 1)))
                if vote.target is not None:
                    messages.append(assistant(vote.target))
                seen = cut
        return messages, [line for line, _ in record[seen:]]

    def _statement_ask(self, state: UndercoverState, seat: str) -> Ask:
        word = state.word(seat)
        messages, heard = self._conversation(state, seat)
        first = len(messages) == 1
        return Ask(seat=seat, kind="statement", display=f"Round {state.round}. Your word: {word}.",
                   instructions=f"One sentence, at most {MAX_CHARS} characters, without your word.",
                   messages=(*messages, user(prompts.speaker_turn(state.round, heard, first=first))),
                   constraint=OutputConstraint(grammar=prompts.statement_grammar(MAX_CHARS)), max_tokens=60,
                   max_chars=MAX_CHARS, one_line=True)

    def _vote_ask(self, state: UndercoverState, seat: str) -> Ask:
        choices = tuple(other for other in state.alive() if other != seat)
        messages, heard = self._conversation(state, seat)
        first = len(messages) == 1
        return Ask(seat=seat, kind="vote", display=f"Round {state.round}: vote a player out.",
                   instructions="Vote for one of: " + ", ".join(choices),
                   messages=(*messages, user(prompts.voter_turn(state.round, heard, choices, first=first))),
                   constraint=OutputConstraint(choices=choices), max_tokens=8, max_chars=20, one_line=True)

    @staticmethod
    def _open_question(item: Statement) -> tuple[str, str]:
        """Who answers next on ``item``, and on which scale: judge ``k // 3`` of the panel, on scale ``k % 3``."""
        done = len(item.marks)
        return panel_member(JUDGE, done // len(SCALES)), SCALES[done % len(SCALES)]

    def _judge_ask(self, state: UndercoverState, item: Statement) -> Ask:
        """The next question of the judging (:meth:`_open_question`), with the sentence and the history."""
        member, scale = self._open_question(item)
        word = state.word(item.seat)
        question = prompts.QUESTIONS[scale].format(word=word)
        return Ask(role=member, kind=scale,
                   display=f"{item.seat}'s sentence, for the word '{word}': {item.text}",
                   instructions=f"{question} Answer yes, partly or no.",
                   messages=(system(prompts.JUDGE_SYSTEM),
                             user(prompts.judge_turn(scale, word, item.text, self._history(state, item)))),
                   constraint=OutputConstraint(choices=prompts.ANSWERS), max_tokens=4, one_line=True,
                   verdict=VERDICT_QUESTIONS[scale])

    # -- moves ------------------------------------------------------------------------------------------------

    def parse(self, state: UndercoverState, ask: Ask, text: str) -> Action:
        if ask.role is not None and panel_role(ask.role) == JUDGE:
            answer = prompts.read_answer(text)
            value = prompts.VALUES[ask.kind][answer]
            return Action(role=ask.role, kind="mark", text=f"{ask.kind}: {answer} ({value:g})",
                          data={"scale": ask.kind, "answer": answer, "value": value})
        line = text.strip()
        if ask.kind == "vote" and "\n" in line:
            raise FormatError("give one vote, not two: reply with one line, the name of one player.")
        if not line or "\n" in line:
            raise FormatError("reply with one line.")
        if ask.kind == "vote":
            return Action(seat=ask.seat, kind="vote", text=line.strip(" .'\"").lower())
        line = _LABEL.sub("", line).strip().strip('"').strip()
        if not line:
            raise FormatError("write a sentence after the label.")
        if len(line) > MAX_CHARS:
            raise FormatError(f"a sentence has at most {MAX_CHARS} characters.")
        if _SENTENCE_BREAK.search(line):
            raise FormatError("say one sentence only.")
        if _copies_instructions(line, prompts.speaker_system(ask.seat or "", state.word(ask.seat or ""), MAX_CHARS)):
            raise FormatError("that sentence copies the game's instructions; describe your word in your own words.")
        return Action(seat=ask.seat, kind="statement", text=line)

    def apply(self, state: UndercoverState, action: Action) -> UndercoverState:
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        phase = state.phase()
        if action.role is not None and panel_role(action.role) == JUDGE:
            if phase != "judge" or action.kind not in ("mark", "scores"):
                raise RuleViolation("there is no sentence to score.")
            item = state.round_statements()[-1]
            member, scale = self._open_question(item)  # not the whole ask: a fold needs no prompt text
            if action.kind == "scores":  # a match recorded when a judge gave three numbers in one reply
                marks = tuple(Mark(action.role, name, float(action.data[name])) for name in SCALES)
            elif action.role != member or action.data.get("scale") != scale:
                raise RuleViolation(f"the question open is {member}'s on {scale}.")
            elif action.data.get("value") is None:  # no verdict: the judge's re-asks ran out
                marks = (Mark(action.role, scale, None, None, str(action.data.get("reason", ""))),)
            else:
                marks = (Mark(action.role, scale, float(action.data["value"]), str(action.data["answer"])),)
            judged = replace(item, marks=(*item.marks, *marks))
            state = replace(state, statements=(*state.statements[:-1], judged))
            return self._after_judged(state, judged)
        seat = action.seat or ""
        if seat not in state.alive():
            raise RuleViolation(f"{seat} is out of the game.")
        if action.kind == "statement":
            if phase != "statement" or state.next_speaker() != seat:
                raise RuleViolation(f"it is not {seat}'s turn to speak.")
            word = normalize_name(state.word(seat))
            said = normalize_name(action.text)
            if f" {word} " in f" {said} ":
                raise RuleViolation("the sentence says your word itself.")
            refused = state.spec.params.get("repeats") == "refused"  # matches recorded before the rule fold as played
            if refused and any(normalize_name(earlier.text) == said for earlier in state.statements):
                # a rule, not a judge's call: a sentence said before has no novelty (the local judges scored
                # exact repeats 0.8)
                raise RuleViolation("that sentence was already said in this game; describe your word in a new way.")
            return replace(state, statements=(*state.statements, Statement(state.round, seat, action.text)))
        if action.kind in ("vote", "abstain"):
            if phase != "vote" or any(vote.voter == seat for vote in state.round_votes()):
                raise RuleViolation(f"{seat} has no vote to cast now.")
            if action.kind == "abstain":
                vote = Vote(state.round, seat, None, str(action.data.get("reason", "")))
            else:
                vote = Vote(state.round, seat, self._target(state, seat, action.text))
            return self._close_vote(replace(state, votes=(*state.votes, vote)))
        raise RuleViolation(f"{seat} cannot {action.kind}.")

    def _target(self, state: UndercoverState, seat: str, text: str) -> str:
        if text not in state.table:
            raise RuleViolation(f"there is no player {text!r}; vote for one of: "
                                f"{', '.join(s for s in state.alive() if s != seat)}.")
        if text == seat:
            raise RuleViolation("you cannot vote for yourself.")
        if text not in state.alive():
            raise RuleViolation(f"{text} is already out of the game.")
        return text

    def default_move(self, state: UndercoverState, ask: Ask, reason: str) -> Action | None:
        """A vote whose re-asks are spent is an abstention with the last reason, and a judge's question is "no
        verdict" (that judge does not count for the sentence; with none left nobody is put out): neither stalls
        nor aborts the table. A sentence's is not: its seat is out."""
        if ask.role is not None and panel_role(ask.role) == JUDGE:
            return Action(role=ask.role, kind="mark", text=f"{ask.kind}: no verdict",
                          data={"scale": ask.kind, "answer": None, "value": None, "reason": reason})
        if ask.kind != "vote" or ask.seat is None:
            return None
        return Action(seat=ask.seat, kind="abstain", text="abstains", data={"reason": reason})

    def eliminate(self, state: UndercoverState, seat: str, reason: str) -> UndercoverState:
        state = replace(state, out=(*state.out, Out(seat, state.round, "forfeit", f"forfeit: {reason}",
                                                    after=len(state.statements))))
        return self._close_vote(state)

    def _after_judged(self, state: UndercoverState, item: Statement) -> UndercoverState:
        mean = item.mean()
        if mean is None or not item.done(state.judges):
            return state
        low = [name for name, value, limit in (
            ("novelty", mean.novelty, float(state.spec.params["novelty_threshold"])),
            ("reasonableness", mean.reasonableness, float(state.spec.params["reasonableness_threshold"])))
            if value < limit]
        if not low:
            return state
        reason = "Low " + " and ".join(low)
        return self._close_vote(replace(state, out=(*state.out, Out(item.seat, state.round, "judge", reason))))

    def _close_vote(self, state: UndercoverState) -> UndercoverState:
        """Close the round once every living seat has voted or abstained; the tally ignores the votes' order."""
        if self._winner(state) is not None or state.phase() != "vote":
            return state
        alive = state.alive()
        cast = {vote.voter: vote for vote in state.round_votes()}
        if any(seat not in cast for seat in alive):
            return state
        top = plurality(v.target for v in cast.values() if v.target is not None and v.voter in alive
                        and v.target in alive)
        shown = "; ".join(f"{seat} -> {cast[seat].target or 'abstains'}" for seat in sorted(cast))
        out = state.out
        if top is not None:
            loser, n = top
            line = f"Round {state.round} votes: {shown}. {loser} is voted out ({n} votes)."
            out = (*out, Out(loser, state.round, "vote", f"voted out with {n} votes"))
        else:
            line = f"Round {state.round} votes: {shown}. A tie: nobody is out."
        return replace(state, tallies=(*state.tallies, line), out=out, round=state.round + 1)

    # -- the end ----------------------------------------------------------------------------------------------

    def _winner(self, state: UndercoverState) -> tuple[str, str] | None:
        civilians, agents = state.left(CIVILIAN), state.left(UNDERCOVER)
        if agents == 0:
            return CIVILIAN, "every undercover agent is out"
        if agents >= civilians:
            return UNDERCOVER, f"the undercover agents are as many as the civilians ({agents} to {civilians})"
        if state.round > state.max_rounds:
            return UNDERCOVER, f"{agents} undercover agent(s) still in after {state.max_rounds} rounds"
        return None

    def outcome(self, state: UndercoverState) -> Outcome | None:
        found = self._winner(state)
        if found is None:
            return None
        side, reason = found
        out = {item.seat: item for item in state.out}
        results = tuple(SeatResult(seat=seat, team=state.side(seat), won=state.side(seat) == side,
                                   placement=1 if state.side(seat) == side else 2,
                                   eliminated_round=out[seat].round if seat in out else None,
                                   elimination=out[seat].reason if seat in out else None,
                                   forfeited=seat in out and out[seat].by == "forfeit")
                        for seat in state.table)
        winners = tuple(seat for seat in state.table if state.side(seat) == side)
        return Outcome(status="finished", winners=winners, winning_team=side, reason=reason,
                       rounds=self.rounds(state), results=results)

    def rounds(self, state: UndercoverState) -> int:
        """Rounds begun: the closed ones, and the open one once anything happened in it."""
        begun = max([s.round for s in state.statements] + [o.round for o in state.out] + [0])
        return min(max(begun, state.round - 1), state.max_rounds)

    def transcript(self, state: UndercoverState) -> Sequence[tuple[str, str]]:
        """The public lines in the order things happened (a transcript only grows): a forfeit shows where it
        happened, after the statements made before it in its round."""
        lines: list[tuple[str, str]] = []
        tallies = iter(state.tallies)
        forfeits = [gone for gone in state.out if gone.by == "forfeit"]

        def forfeited(round_: int, after: int) -> None:
            lines.extend(("game", f"{gone.seat} is out: {gone.reason}") for gone in forfeits
                         if gone.round == round_ and gone.after == after)

        made = 0
        for round_ in range(1, state.round + 1):
            forfeited(round_, made)
            for item in (s for s in state.statements if s.round == round_):
                made += 1
                lines.append((item.seat, item.text))
                mean = item.mean()
                if mean is not None and item.done(state.judges):
                    shown = (f"novelty {mean.novelty:.2f}, relevance {mean.relevance:.2f}, "
                             f"reasonableness {mean.reasonableness:.2f}")
                    lines.append(("judge", shown))
                for gone in state.out:
                    if gone.seat == item.seat and gone.round == round_ and gone.by == "judge":
                        lines.append(("game", f"{item.seat} is out: {gone.reason}"))
                forfeited(round_, made)
            if round_ < state.round:
                lines.append(("game", next(tallies, "")))
        return lines

    # -- the judge's calibration set (``undercover.calibration``: ``playeval analyze judge``) -------------------

    def judge_cases(self) -> Sequence[JudgeCase]:
        from playeval.games.undercover import calibration

        return calibration.judge_cases()

    judge_case_keys: ClassVar[Mapping[str, str]] = {
        "pair": "the id of a concept pair of the game's pairs.json; the sentence describes its civilian word",
        "scale": "the question asked: novelty, relevance or reasonableness",
        "earlier": "the sentences said before it in the round, in order (a list of 0 to 6 strings, each said by "
                   "another player holding the same word)"}

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        from playeval.games.undercover import calibration

        return calibration.case_ask(self, case)

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        """Whether the sentence passes the ask's scale as the rules and the QA benchmark read the answer."""
        from playeval.games.undercover import calibration

        return calibration.passes(ask.kind, text)

    # -- analysis ---------------------------------------------------------------------------------------------

    def seat_measures(self, spec: MatchSpec, state: UndercoverState, events: Sequence[Event]
                      ) -> dict[str, dict[str, float | None]]:
        seats = [SeatAssignment(seat=seat, player_kind="llm", model=seat) for seat in state.table]
        counts = model_counts(events, seats)
        return {seat: {**values, "reasks": counts[seat]["reasks"], "abstentions": counts[seat]["abstentions"]}
                for seat, values in seat_metrics(state).items()}

    def match_category(self, spec: MatchSpec) -> str | None:
        return str(spec.setup.get("pair", {}).get("category", "?"))

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        """The judge finds every sentence new, somewhat telling and true; a seat is the game's strong player
        (``core.scripted``): it reads the sides and votes for a seat of the other side (``players.ScriptedSeat``)."""
        if panel_role(party) == JUDGE:
            return ScriptedJudge()
        if party not in spec.seats:
            raise ConfigError(f"undercover has no seat or role {party!r} in this match")
        return ScriptedSeat(party, spec.setup.get("sides"))

    def baseline_player(self, name: str, party: str, spec: MatchSpec) -> RandomSeat | NaiveSeat:
        """A seat's baselines (``baselines``); neither reads a word or a side."""
        if party not in spec.seats:
            raise ConfigError(f"undercover's baseline players hold a seat of the match, not {party!r}")
        if name == RANDOM:
            return RandomSeat(spec)
        if name == NAIVE:
            return NaiveSeat(spec)
        raise ConfigError(f"undercover has no baseline player {name!r}")

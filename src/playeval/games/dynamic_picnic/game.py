"""GuessTheRuleBench's Dynamic Picnic on playeval's core: the rule and its items are written during the match by a
game-master model, checked by a validator, and recorded like every move; or, by default, drawn from a rule bank.

By default (``rules=bank``) the spec holds a rule of the level from the rule bank shipped with playeval
(``bank.shipped_bank``: hand-checked rules of every level and type) or from the bank file ``bank`` names, with its
items, and no game-master ask is made: with the built-in model as game master and validator, a generated match
almost never reached the player's first turn (issue 23), and a person starting the game should get one within
seconds.

With ``rules=generated`` the spec holds no rule: ``new_spec`` draws the taxonomy type (one of five, ``taxonomy``)
and the player's prompt variant from the match's seed, and, when a rule bank is given, the rules to avoid; it also
draws the bank rule (the given bank's, else the shipped one's; of the level and, where the bank has one, of the
type) the match falls back to. Then the match plays the game master's part (``master``: write a rule, classify
it, generate items, validate them; all asks of the roles ``game_master`` and ``validator``, so the match stays a
fold of its events and a replay calls no model) before turn 1 and again whenever the player asks for more than has
been validated; the rest is the shared guess-the-rule flow (``GuessRuleGame``), with the rule-application check on
ten held-out items generated and validated like the examples but never shown. When the game master's part fails
before the player's first move (no rule at the level, too few valid items, a game master or validator out of
re-asks) the match plays its fallback rule, and its outcome's reason and its transcript say that it fell back to
the bank and why; with no fallback rule (a bank given without a rule of the level), or a failure later, the match
is aborted with the reason: nobody is scored. A rule the classifier rates at another level is replaced, three at
most (``level_check=strict``, the default); ``level_check=record`` keeps the first rule and records its rating, for
a classifier too weak to confirm levels (the local 1.5B model rated every rule L2 or L3 when L1 was asked).

``--secret-set set1|set2`` draws the rule's type from one half of the level's types (``taxonomy.SETS``: a
checkerboard of level and type, so no rule is in both; with ``rules=bank``, only the bank's rules of the set's
types); without it every type may be drawn, as before. The player seat has a ``random`` and a ``naive`` baseline
(``guess_rule.baselines``).

Both roles (asked only with ``rules=generated``) default to the local model; ``--role game_master=M --role
validator=M`` binds them (a stronger validator than game master is allowed). ``playeval analyze judge`` measures
both the judge and the validator: a labelled case with ``scale: check`` asks the validator about one item exactly
as a match does.

The ``judge`` may be a panel (``--role judge=A,B,C``): the majority of its members' verdicts rules, a tie goes to
their mean probability of accepting when every member recorded one, else the guess is refused
(``guess_rule.base``, ``core.judge_panel``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from playeval.core.ask import Ask
from playeval.core.baselines import BaselineInfo
from playeval.core.errors import ConfigError, RuleViolation
from playeval.core.game import JudgeCase
from playeval.core.info import (
    ConversationBreak,
    Disclosure,
    GameOption,
    LevelInfo,
    Presentation,
    RoleInfo,
    Scalar,
    SeatInfo,
    panel_role,
)
from playeval.core.judge_cases import context_text
from playeval.core.match import Action, MatchSpec, Outcome
from playeval.core.panel import Panel
from playeval.core.rng import derive_seed
from playeval.games.dynamic_picnic import prompts
from playeval.games.dynamic_picnic.bank import BankRule, bank_at
from playeval.games.dynamic_picnic.calibration import judge_cases, written_cases
from playeval.games.dynamic_picnic.master import (
    FALLBACK,
    GAME_MASTER,
    VALIDATOR,
    check_ask,
    gm_apply,
    gm_ask,
    gm_parse,
    gm_phase,
    read_checks,
)
from playeval.games.dynamic_picnic.scripted import (
    ScriptedGameMaster,
    ScriptedJudge,
    ScriptedSolver,
    ScriptedValidator,
    scripted_rule,
)
from playeval.games.dynamic_picnic.state import DynamicState, can_fall_back
from playeval.games.dynamic_picnic.taxonomy import TAXONOMY, kinds_in, rule_kind, set_of
from playeval.guess_rule import (
    JUDGE,
    PLAYER,
    SECRET_SET,
    SECRET_SETS,
    GuessRuleGame,
    GuessState,
    ListedRound,
    ListedRuleGame,
    More,
)
from playeval.guess_rule.baselines import rule_baselines

MAX_UNITS = 30
"""Example units a generated rule may show in a match."""
MAX_AVOID = 20
"""Banked rules of the level the game master is told not to repeat (the prompt of a small model stays short)."""
GENERATED, BANK = "generated", "bank"
GUESS_SCALE, CHECK_SCALE = "guess", "check"
CASE_KEYS: Mapping[str, tuple[str, ...]] = {GUESS_SCALE: ("statement", "seen"), CHECK_SCALE: ("statement", "item")}
"""The context keys a labelled case needs, by its scale (a case without ``scale`` is a guess case)."""
STRICT, RECORD = "strict", "record"


class DynamicPicnic(ListedRuleGame):
    id: ClassVar[str] = "dynamic_picnic"
    title: ClassVar[str] = "Dynamic Picnic (guess a rule of the rule bank, or one a game master invents)"
    seats: ClassVar[tuple[SeatInfo, ...]] = (
        SeatInfo(name=PLAYER, role="sees items a banked rule (or, with rules=generated, a game master's invented one) "
                                   "admits and refuses, and names the rule",
                 evaluated=True),)
    roles: ClassVar[tuple[RoleInfo, ...]] = (
        *GuessRuleGame.roles,
        RoleInfo(name=GAME_MASTER, does=("with rules=generated, invents the rule of a drawn type and level, and "
                                         "items on both sides of it"),
                 default="local", sees=("rule", "rule_type")),
        RoleInfo(name=VALIDATOR, does=("with rules=generated, rates the level of each rule written and checks "
                                       "every generated item against the rule; items it puts on the other side are "
                                       "dropped"),
                 default="local", sees=("rule",)),
    )
    conversation_breaks: ClassVar[tuple[ConversationBreak, ...]] = (
        *GuessRuleGame.conversation_breaks,
        ConversationBreak(party=GAME_MASTER,
                          reason="each request is written afresh from the match (the rules or items to avoid, and "
                                 "a theme drawn anew for it) rather than as a reply to the last: a greedy model "
                                 "shown its earlier rules or items as its own replies writes them again"),
        ConversationBreak(party=VALIDATOR,
                          reason="it rates each rule and checks each batch of items on its own, unlabelled, as a "
                                 "judge does, with none of its earlier ratings or answers in view"),
    )
    levels: ClassVar[tuple[LevelInfo, ...]] = (
        LevelInfo(level=1, description="a plain, concrete rule (as the classifier rates it)"),
        LevelInfo(level=2, description="a rule that needs some reasoning: conditions combined, or a relation"),
        LevelInfo(level=3, description="an abstract or layered rule"),
    )
    options: ClassVar[tuple[GameOption, ...]] = (
        *GuessRuleGame.turn_options(2, 10),
        GameOption(name="rules", description=("play a rule from a bank (the shipped one unless bank= names a file), "
                                              "or let the game master generate one (falling back to a bank rule "
                                              "when it fails)"),
                   default=BANK, choices=(BANK, GENERATED)),
        GameOption(name="bank", description=("a rule bank file (playeval rule-bank build), else the bank shipped "
                                             "with playeval: its rules are played (rules=bank), or not written "
                                             "again and fallen back to (rules=generated)"), default="",
                   local_only=True),
        GameOption(name="level_check", description=("strict: a rule the classifier rates at another level is "
                                                    "replaced (the match is aborted after 3); record: the first rule "
                                                    "is kept and its rating recorded"),
                   default=STRICT, choices=(STRICT, RECORD)),
        GameOption(name="bank_rule", description="with rules=bank, the id (or its start) of the rule to play; "
                                                 "default: a seeded draw among the level's", default=""),
    )
    presentation: ClassVar[Presentation] = Presentation(
        name="Dynamic Picnic", tagline="Work out a rule of any of five kinds, from items on both sides of it.",
        pitch=("A rule says what may come to the picnic: a kind of thing, a spelling, a use, an association. By "
               "default it comes from playeval's bank of hand-checked rules; with rules=generated a language model "
               "makes one up and a second model checks its items. Ask for more, or name the rule."),
        how=("You see items that may come and items that may not.",
             "Ask for more (MORE: 2 shows two more of each) or guess the rule (GUESS: things made of glass).",
             "After a guess, say for ten new items whether they may come, then the judge rules."),
        person_seat=PLAYER)
    player_variants: ClassVar[tuple[str, ...]] = prompts.PLAYER_VARIANTS
    judge_system: ClassVar[str] = prompts.JUDGE_SYSTEM
    apply_request: ClassVar[str] = prompts.APPLY
    secret_sets: ClassVar[tuple[str, ...]] = SECRET_SETS
    split_sets: ClassVar[tuple[str, str] | None] = SECRET_SETS
    baselines: ClassVar[tuple[BaselineInfo, ...]] = rule_baselines(
        "guesses 'things like <the first item that may come>' once; answers 'yes' for every item of the check")

    def new_spec(self, level: int, seed: int, rng: random.Random, *, inputs: Mapping[str, str] | None = None,
                 secret_set: str | None = None, options: Mapping[str, Scalar] | None = None) -> MatchSpec:
        if level not in (1, 2, 3):
            raise ConfigError(f"dynamic_picnic has levels 1, 2 and 3, not {level}")
        params = self.turn_params(inputs, secret_set, options)
        chosen = dict(options or {})
        mode, path, pick = (str(chosen.get(name, "")) for name in ("rules", "bank", "bank_rule"))
        mode = mode or BANK
        variants = {PLAYER: rng.randrange(len(prompts.PLAYER_VARIANTS))}
        if mode == BANK:
            rule = self._banked(level, path, pick, int(params["num_init_examples"]), rng, secret_set)
            setup: dict[str, Any] = {**_listed(rule), "source": BANK, "type": rule.type}
        elif mode == GENERATED:
            bank = bank_at(path)
            avoid = [rule.statement for rule in bank.of_level(level)][:MAX_AVOID] if path else []
            kinds = TAXONOMY if secret_set is None else kinds_in(secret_set, level)
            setup = {"source": GENERATED, "type": rng.choice(kinds).id, "avoid": avoid}
            fallback = self._fallback(bank.of_level(level), str(setup["type"]), seed, secret_set,
                                      int(params["num_init_examples"]))
            if fallback is not None:
                setup["fallback"] = {**_listed(fallback), "type": fallback.type}
        else:
            raise ConfigError(f"option rules must be {GENERATED} or {BANK}, not {mode!r}")
        return MatchSpec(game=self.id, level=level, seed=seed, setup=setup, variants=variants,
                         params={**params, "rules": mode, "bank_rule": str(setup.get("rule", "")),
                                 "level_check": str(chosen.get("level_check", "") or STRICT)})

    @staticmethod
    def _fallback(rules: Sequence[BankRule], rule_type: str, seed: int, secret_set: str | None,
                  init: int) -> BankRule | None:
        """The bank rule a generated match falls back to: one of ``rules`` (the level's) of the drawn type, else
        of another type of the secret set, drawn from the match's seed apart from its generator (so the draws of a
        generated spec stay what they were); ``None`` when the bank has none that can show turn 1."""
        usable = [rule for rule in rules if rule.units >= init and rule.held_out
                  and (secret_set is None or set_of(rule.level, rule.type) == secret_set)]
        found = [rule for rule in usable if rule.type == rule_type] or usable
        if not found:
            return None
        return found[derive_seed(seed, "dynamic_picnic", "fallback") % len(found)]

    @staticmethod
    def _banked(level: int, path: str, pick: str, init: int, rng: random.Random,
                secret_set: str | None = None) -> BankRule:
        bank = bank_at(path)
        where = path or "shipped with playeval"
        if pick:
            rule = bank.get(pick)
            if secret_set is not None and set_of(rule.level, rule.type) != secret_set:
                raise ConfigError(f"banked rule {rule.id} (L{rule.level}, {rule.type}) is not in {secret_set}")
        else:
            found = tuple(rule for rule in bank.of_level(level)
                          if secret_set is None or set_of(level, rule.type) == secret_set)
            if not found:
                within = "" if secret_set is None else f" in {secret_set}"
                raise ConfigError(f"the rule bank {where} has no rule of level {level}{within}")
            rule = rng.choice(found)
        if rule.level != level:
            raise ConfigError(f"banked rule {rule.id} is of level {rule.level}, not {level}")
        if rule.units < init:
            raise ConfigError(f"banked rule {rule.id} has {rule.units} example units, fewer than {init}")
        if not rule.held_out:
            raise ConfigError(f"banked rule {rule.id} has no held-out items: its rule-application check would be "
                              "empty")
        return rule

    # -- the state ----------------------------------------------------------------------------------------------

    def roles_not_asked(self, spec: MatchSpec) -> tuple[str, ...]:
        """A banked rule's match asks neither the game master nor the validator (``core.game.roles_not_asked``):
        a run of the default needs no model for them."""
        return (GAME_MASTER, VALIDATOR) if spec.params.get("rules") == BANK else ()

    def rule_of(self, spec: MatchSpec) -> ListedRound:
        """A banked rule with its items; a generated match's empty round (its rule is written during play)."""
        if spec.setup.get("source") == BANK:
            return super().rule_of(spec)
        return ListedRound(statement="", positives=(), negatives=(), held_out=())

    def lends_units(self, state: GuessState) -> bool:
        """A banked rule's units are all drawn (a match that fell back to one too), so a later check may take
        unshown ones; a generated rule's are made as the player asks for them (its later checks reuse the first's
        items, and say so)."""
        fell_back = isinstance(state, DynamicState) and state.fell_back is not None
        return state.spec.setup.get("source") == BANK or fell_back

    def writes_rule(self, spec: MatchSpec) -> bool:
        """Never the template's rule-writing phase: this game's game master has its own flow (``master``)."""
        return False

    def initial_state(self, spec: MatchSpec) -> DynamicState:
        round_ = self.rule_of(spec)
        total = self.example_total(round_) if spec.setup.get("source") == BANK else MAX_UNITS
        return DynamicState(spec=spec, rule=round_, total=total,
                            shown=min(int(spec.params["num_init_examples"]), total),
                            reserve_yes=tuple(item for item, answer in round_.held_out if answer == "yes"),
                            reserve_no=tuple(item for item, answer in round_.held_out if answer == "no"))

    def next_asks(self, state: DynamicState) -> tuple[Ask, ...]:  # type: ignore[override]
        phase = gm_phase(state)
        return (gm_ask(state, phase),) if phase is not None else super().next_asks(state)

    def parse(self, state: DynamicState, ask: Ask, text: str) -> Action:  # type: ignore[override]
        if ask.role in (GAME_MASTER, VALIDATOR):
            return gm_parse(state, ask, text)
        return super().parse(state, ask, text)

    def apply(self, state: DynamicState, action: Action) -> DynamicState:  # type: ignore[override]
        if self.outcome(state) is not None:
            raise RuleViolation("the game is over.")
        if action.role in (GAME_MASTER, VALIDATOR):
            return gm_apply(state, action)
        if gm_phase(state) is not None:
            raise RuleViolation("the game master has not finished preparing the examples yet.")
        applied = super().apply(state, action)
        assert isinstance(applied, DynamicState)
        return applied

    def outcome(self, state: DynamicState) -> Outcome | None:  # type: ignore[override]
        if state.failure is not None:
            return Outcome(status="aborted", reason=f"the game master's part failed: {state.failure}",
                           rounds=state.turns)
        if gm_phase(state) is not None:
            return None
        ended = super().outcome(state)
        if ended is None or state.fell_back is None:
            return ended
        return ended.model_copy(update={"reason": f"{ended.reason}; {fell_back_line(state)}"})

    def default_move(self, state: DynamicState, ask: Ask, reason: str) -> Action | None:  # type: ignore[override]
        """A game master or validator out of re-asks before the player's first move: the match plays its bank
        rule (``FALLBACK``); later, or with no bank rule, the match is aborted as for any role."""
        if ask.role in (GAME_MASTER, VALIDATOR) and can_fall_back(state):
            return Action(role=ask.role, kind=FALLBACK, text=f"the {ask.role} gave no usable reply: {reason}")
        return None

    # -- what is shown ------------------------------------------------------------------------------------------

    def made_in_play(self, spec: MatchSpec) -> tuple[str, ...]:
        """The rule, unless the spec holds it (a rule from the bank): the game master invents it during play."""
        return () if spec.setup.get("statement") else ("rule",)

    def disclosures(self, spec: MatchSpec, state: Any = None) -> Sequence[Disclosure]:
        statement = state.round.statement if isinstance(state, DynamicState) else str(spec.setup.get("statement", ""))
        fell_back = isinstance(state, DynamicState) and state.fell_back is not None
        kind_id = spec.setup["fallback"]["type"] if fell_back else spec.setup.get("type")
        kind = rule_kind(str(kind_id)).name if kind_id else "unknown"
        found = [Disclosure(key="rule_type", value=kind, label="The kind of rule", revealed_label="The kind of rule")]
        if statement:
            found.insert(0, Disclosure(key="rule", value=statement, label="The rule", revealed_label="The rule"))
        return found

    @staticmethod
    def _ready(state: DynamicState) -> bool:
        """Whether turn 1's examples exist (the player's part has begun)."""
        init = min(int(state.spec.params["num_init_examples"]), state.total)
        return state.accepted and min(len(state.round.positives), len(state.round.negatives)) >= init

    def panel(self, state: DynamicState, viewer: str | None) -> Panel:  # type: ignore[override]
        return super().panel(state, viewer) if self._ready(state) else Panel()

    def transcript(self, state: DynamicState) -> Sequence[tuple[str, str]]:  # type: ignore[override]
        """The player's part once turn 1's examples exist, each request's examples once they all do (a transcript
        only grows: a line is not shown while the game master is still making its items), and at the end the game
        master's and the validator's work, which shows the rule."""
        lines = list(super().transcript(state)) if self._ready(state) else []
        if self.outcome(state) is None:
            return lines[:-1] if self._more_due(state) else lines
        return [*lines, *self._master_lines(state)]

    @staticmethod
    def _more_due(state: DynamicState) -> bool:
        """Whether the player's last request for more examples still waits for items (its line would change)."""
        asked_more = bool(state.history) and isinstance(state.history[-1], More)
        short = min(len(state.round.positives), len(state.round.negatives)) < state.shown
        return asked_more and short and not state.ran_out

    @staticmethod
    def _master_lines(state: DynamicState) -> list[tuple[str, str]]:
        lines: list[tuple[str, str]] = []
        for attempt in state.attempts:
            lines.append((GAME_MASTER, f"wrote the rule: {attempt.statement}"))
            if attempt.level is not None:
                verdict = "accepted" if attempt.level == state.spec.level else "another rule is due"
                lines.append((VALIDATOR, f"rated it L{attempt.level} ({verdict})"))
        for batch in state.batches:
            repeats = f"; {len(batch.repeated)} repeated items dropped" if batch.repeated else ""
            lines.append((GAME_MASTER, f"gave {len(batch.items)} new items{repeats}"))
            if batch.verdicts is not None and batch.items:
                dropped = batch.dropped()
                lines.append((VALIDATOR, f"kept {len(batch.kept())}" +
                              (f", dropped {', '.join(dropped)}" if dropped else ", dropped none")))
        if state.failure is not None:
            lines.append(("game", state.failure))
        if state.fell_back is not None:
            lines.append(("game", fell_back_line(state)))
        return lines

    # -- measuring the judge and the validator (``playeval analyze judge``) ----------------------------------------

    judge_case_keys: ClassVar[Mapping[str, str]] = {
        "statement": ("the rule in words, as the judge (or the validator) is told it; a guess case also needs "
                      "'seen' (what the player saw, as text), a validator case 'scale': 'check' and 'item' (the one "
                      "item asked about; the case's answer is that item and 'correct' whether it fits the rule)")}
    """The keys every case needs; the others depend on the case's scale (``CASE_KEYS``)."""

    def judge_cases(self) -> Sequence[JudgeCase]:
        """The template set, then the hand-written one (ids ``hw-...``): guesses for the judge, and single items
        for the validator (``scale: check``, kind ``validator``)."""
        return (*judge_cases(), *written_cases(self.judge_case_keys))

    def judge_case_ask(self, case: JudgeCase) -> Ask:
        """A guess case: the judge's ask, as in a match. A validator case (``scale: check``): the validator's check
        ask of a match with the case's one item, so that the validator is measured on the words it plays with."""
        scale = case.context.get("scale", GUESS_SCALE)
        needed = CASE_KEYS.get(str(scale))
        if needed is None:
            raise ValueError(f"case {case.id}: unknown scale {scale!r}; a {self.id} case has scale "
                             f"'{CHECK_SCALE}' (the validator) or none (the judge)")
        lacking = [key for key in needed if key not in case.context]
        if lacking:
            who = "a validator case" if scale == CHECK_SCALE else "a guess case"
            raise ValueError(f"case {case.id}: {who} needs {', '.join(repr(key) for key in lacking)}")
        if scale == CHECK_SCALE:
            return check_ask(context_text(case, "statement"), [context_text(case, "item")])
        return self.judge_ask(context_text(case, "statement"), context_text(case, "seen"), case.answer)

    def judge_case_verdict(self, ask: Ask, text: str) -> bool:
        """The judge's verdict, or the validator's ``1. yes`` (the item fits) or ``1. no`` for a check ask."""
        if ask.role == VALIDATOR:
            return read_checks(text, 1)[0] == "yes"
        return super().judge_case_verdict(ask, text)

    def scripted_player(self, party: str, spec: MatchSpec) -> Any:
        if party == GAME_MASTER:
            return ScriptedGameMaster(spec)
        if party == VALIDATOR:
            return ScriptedValidator(spec)
        if panel_role(party) == JUDGE:
            return ScriptedJudge()
        if spec.setup.get("source") == BANK:
            round_ = self.rule_of(spec)
            return ScriptedSolver(None, round_.statement, self.held_out(round_))
        named = spec.params.get(SECRET_SET)
        rule = scripted_rule(spec.level, str(spec.setup["type"]), [str(s) for s in spec.setup.get("avoid", ())],
                             str(named) if named is not None else None)
        return ScriptedSolver(rule, rule.statement if rule is not None else "something I cannot tell", ())


def _listed(rule: BankRule) -> dict[str, Any]:
    return ListedRound(statement=rule.statement, positives=rule.positives, negatives=rule.negatives,
                       held_out=rule.held_out).to_setup(rule.id)


def fell_back_line(state: DynamicState) -> str:
    """What a match that fell back to its bank rule says of it (its transcript, its outcome's reason)."""
    rule = state.spec.setup.get("fallback", {}).get("rule", "")
    return f"fell back to the bank (rule {rule}): the game master's part failed: {state.fell_back}"

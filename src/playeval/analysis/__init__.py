"""Analysis: reads only what was recorded.

Outcome metrics per evaluated seat (``seat_rows``, ``match_rows``) grouped per game, model and team
(``summarize``), the retrospective analysis (``RetroRunner``), procedural metrics (``procedural`` pure
functions, ``summarize_procedural`` per run), the capability profile, and ranking statistics (``ranking`` pure
functions, ``compare`` against other rankings).
"""

from playeval.analysis.agreement import Agreement, agreement, cohen_kappa, fleiss_kappa
from playeval.analysis.compare import Comparison, RunRanking, compare, load_rankings, run_rankings
from playeval.analysis.judges import JudgeScore, JudgeVerdict, judge_verdicts, score_judge
from playeval.analysis.load import match_rows, seat_rows
from playeval.analysis.outcomes import MatchRow, ModelResult, overall_win_rates, summarize
from playeval.analysis.profile import Profile, SkillStanding, capability_profiles, skills
from playeval.analysis.ranking import KendallResult, kendall_tau, ranking_from_scores, rbo, rbo_permutation_test
from playeval.analysis.ratings import OrderCheck, RatedModel, TeamRule, elo_intervals, order_check, team_elo
from playeval.analysis.retro import RetroPlan, RetroRunner, RetroSummary, RetroTask
from playeval.analysis.retro_metrics import (
    MatchRetro,
    ProceduralSummary,
    match_retros,
    metric_specs,
    recall_by_round,
    score_retro,
    summarize_procedural,
)
from playeval.core.info import MetricSpec
from playeval.metrics.procedural import (
    JUDGEMENT_LEVELS,
    bluffing_metrics,
    candidate_list_metrics,
    disparity_ratio,
    judgement_level,
)

__all__ = [
    "JUDGEMENT_LEVELS",
    "Agreement",
    "Comparison",
    "JudgeScore",
    "JudgeVerdict",
    "KendallResult",
    "MatchRetro",
    "MatchRow",
    "MetricSpec",
    "ModelResult",
    "OrderCheck",
    "ProceduralSummary",
    "Profile",
    "RatedModel",
    "RetroPlan",
    "RetroRunner",
    "RetroSummary",
    "RetroTask",
    "RunRanking",
    "SkillStanding",
    "TeamRule",
    "agreement",
    "bluffing_metrics",
    "candidate_list_metrics",
    "capability_profiles",
    "cohen_kappa",
    "compare",
    "disparity_ratio",
    "elo_intervals",
    "fleiss_kappa",
    "judge_verdicts",
    "judgement_level",
    "kendall_tau",
    "load_rankings",
    "match_retros",
    "match_rows",
    "metric_specs",
    "order_check",
    "overall_win_rates",
    "ranking_from_scores",
    "rbo",
    "rbo_permutation_test",
    "recall_by_round",
    "run_rankings",
    "score_judge",
    "score_retro",
    "seat_rows",
    "skills",
    "summarize",
    "summarize_procedural",
    "team_elo",
]

"""Analysis: reads only what was recorded.

Outcome metrics per evaluated seat (``seat_rows``, ``match_rows``) grouped per game, model and team
(``summarize``) with chance beside them (``chance``), the retrospective analysis (``RetroRunner``), procedural
metrics (``procedural`` pure functions, ``summarize_procedural`` per run), the capability profile, and ranking
statistics (``ranking`` pure functions, ``compare`` against other rankings), and what decided a run's judge
verdicts (``verdict_sources``).
"""

from playeval.analysis.agreement import Agreement, agreement, cohen_kappa, fleiss_kappa
from playeval.analysis.chance import chance_verdicts, split_baselines
from playeval.analysis.compare import Comparison, RunRanking, compare, load_rankings, run_rankings
from playeval.analysis.judge_calibration import (
    CaseVerdict,
    JudgeReport,
    ScaleFit,
    case_verdicts,
    fit_calibration,
    fit_scale,
    judge_report,
    panel_rows,
)
from playeval.analysis.judge_stats import (
    CrossValidation,
    JudgeRates,
    auc_interval,
    cross_validate,
    fit_threshold,
    judge_rates,
    roc_auc,
)
from playeval.analysis.judges import (
    JudgeCaseError,
    JudgeScore,
    JudgeVerdict,
    case_asks,
    judge_verdicts,
    score_judge,
)
from playeval.analysis.load import match_rows, seat_rows
from playeval.analysis.outcomes import MatchRow, ModelResult, overall_win_rates, summarize, unscored_reason
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
from playeval.analysis.verdict_sources import VerdictSources, run_verdict_sources, verdict_lines
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
    "CaseVerdict",
    "Comparison",
    "CrossValidation",
    "JudgeCaseError",
    "JudgeRates",
    "JudgeReport",
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
    "ScaleFit",
    "SkillStanding",
    "TeamRule",
    "VerdictSources",
    "agreement",
    "auc_interval",
    "bluffing_metrics",
    "candidate_list_metrics",
    "capability_profiles",
    "case_asks",
    "case_verdicts",
    "chance_verdicts",
    "cohen_kappa",
    "compare",
    "cross_validate",
    "disparity_ratio",
    "elo_intervals",
    "fit_calibration",
    "fit_scale",
    "fit_threshold",
    "fleiss_kappa",
    "judge_rates",
    "judge_report",
    "judge_verdicts",
    "judgement_level",
    "kendall_tau",
    "load_rankings",
    "match_retros",
    "match_rows",
    "metric_specs",
    "order_check",
    "overall_win_rates",
    "panel_rows",
    "ranking_from_scores",
    "rbo",
    "rbo_permutation_test",
    "recall_by_round",
    "roc_auc",
    "run_rankings",
    "run_verdict_sources",
    "score_judge",
    "score_retro",
    "seat_rows",
    "skills",
    "split_baselines",
    "summarize",
    "summarize_procedural",
    "team_elo",
    "unscored_reason",
    "verdict_lines",
]

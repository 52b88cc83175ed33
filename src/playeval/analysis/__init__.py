"""Analysis: reads only what was recorded.

Outcome metrics per evaluated seat (``seat_rows``, ``match_rows``) grouped per game, model and team
(``summarize``) with chance beside them (``chance``), the retrospective analysis (``RetroRunner``), procedural
metrics (``procedural`` pure functions, ``summarize_procedural`` per run), the capability profile, and ranking
statistics (``ranking`` and ``tied_rankings`` pure functions, ``compare`` against other rankings, ``stability``
between two runs), what decided a run's judge verdicts (``verdict_sources``), and the leaderboard: Bradley-Terry
ratings per board (a game and configuration) and overall, chance and people beside them (``leaderboard``).
"""

from playeval.analysis.agreement import Agreement, agreement, cohen_kappa, fleiss_kappa
from playeval.analysis.boards import BoardKey, Boards
from playeval.analysis.chance import chance_verdicts, split_baselines
from playeval.analysis.compare import (
    Comparison,
    Comparisons,
    Refusal,
    RunRanking,
    compare,
    load_rankings,
    run_rankings,
)
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
from playeval.analysis.leaderboard import (
    BoardResult,
    Leaderboard,
    PeopleRate,
    WinRate,
    build_leaderboard,
    load_leaderboard,
)
from playeval.analysis.load import match_rows, seat_rows
from playeval.analysis.outcomes import (
    MatchRow,
    ModelResult,
    overall_win_rates,
    scored_matches,
    summarize,
    unscored_reason,
)
from playeval.analysis.profile import Profile, SkillStanding, capability_profiles, skills
from playeval.analysis.ranking import (
    KendallResult,
    TauTest,
    fewest_matches,
    fewest_models,
    inversion_counts,
    kendall_tau,
    kendall_tau_test,
    ranking_from_scores,
    rbo,
    rbo_permutation_test,
)
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
from playeval.analysis.stability import (
    ScopeStability,
    Stability,
    format_stability,
    stability,
    win_rate_rankings,
)
from playeval.analysis.tied_rankings import Ranking, opposed_pairs, ranking_tau_test, tied_tau_test
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
    "BoardKey",
    "BoardResult",
    "Boards",
    "CaseVerdict",
    "Comparison",
    "Comparisons",
    "CrossValidation",
    "JudgeCaseError",
    "JudgeRates",
    "JudgeReport",
    "JudgeScore",
    "JudgeVerdict",
    "KendallResult",
    "Leaderboard",
    "MatchRetro",
    "MatchRow",
    "MetricSpec",
    "ModelResult",
    "OrderCheck",
    "PeopleRate",
    "ProceduralSummary",
    "Profile",
    "Ranking",
    "RatedModel",
    "Refusal",
    "RetroPlan",
    "RetroRunner",
    "RetroSummary",
    "RetroTask",
    "RunRanking",
    "ScaleFit",
    "ScopeStability",
    "SkillStanding",
    "Stability",
    "TauTest",
    "TeamRule",
    "VerdictSources",
    "WinRate",
    "agreement",
    "auc_interval",
    "bluffing_metrics",
    "build_leaderboard",
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
    "fewest_matches",
    "fewest_models",
    "fit_calibration",
    "fit_scale",
    "fit_threshold",
    "fleiss_kappa",
    "format_stability",
    "inversion_counts",
    "judge_rates",
    "judge_report",
    "judge_verdicts",
    "judgement_level",
    "kendall_tau",
    "kendall_tau_test",
    "load_leaderboard",
    "load_rankings",
    "match_retros",
    "match_rows",
    "metric_specs",
    "opposed_pairs",
    "order_check",
    "overall_win_rates",
    "panel_rows",
    "ranking_from_scores",
    "ranking_tau_test",
    "rbo",
    "rbo_permutation_test",
    "recall_by_round",
    "roc_auc",
    "run_rankings",
    "run_verdict_sources",
    "score_judge",
    "score_retro",
    "scored_matches",
    "seat_rows",
    "skills",
    "split_baselines",
    "stability",
    "summarize",
    "summarize_procedural",
    "team_elo",
    "tied_tau_test",
    "unscored_reason",
    "verdict_lines",
    "win_rate_rankings",
]

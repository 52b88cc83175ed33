"""The price table (packaged, overridden by a user file), the cost of each call stored through a run, and the
cost shown by ``playeval results`` and the report."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from typer.testing import CliRunner

from playeval.analysis.load import ALL_MODELS, run_costs
from playeval.cli.main import app
from playeval.core.messages import user
from playeval.core.registry import default_registry
from playeval.models import Model, ModelHub, ModelRequest, ProviderResult, ResponseCache, to_call_record
from playeval.models.pricing import (
    Price,
    PriceTable,
    PriceTableError,
    format_usd,
    load_prices,
    packaged_prices,
    parse_prices,
)
from playeval.report.build import build_report
from playeval.report.tables import cost_table
from playeval.store import Store


@pytest.fixture(autouse=True)
def _no_user_prices(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLAYEVAL_PRICES", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def test_the_packaged_table_prices_known_models_and_nothing_else() -> None:
    table = packaged_prices()
    assert table.price("openai/gpt-4o") == Price(input=2.5, output=10.0)
    assert table.price("anthropic/claude-haiku-4-5-20251001") == Price(input=1.0, output=5.0)  # a dated snapshot
    assert table.price("openai/gpt-4o-2024-08-06") == Price(input=2.5, output=10.0)
    assert table.price("openai/gpt-4o?format=parse") == Price(input=2.5, output=10.0)
    assert table.price("local/qwen2.5-coder-1.5b") == Price(input=0.0, output=0.0)
    assert table.price("mock/sim?latency=0.1") == Price(input=0.0, output=0.0)
    assert table.price("openai/my-served-qwen") is None
    assert table.cost("openai/my-served-qwen", 10, 10) is None
    assert table.cost("openai/gpt-4o", 1_000_000, 500_000) == pytest.approx(2.5 + 5.0)


def test_a_user_file_overrides_and_adds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "prices.toml"
    own.write_text('[prices]\n"openai/gpt-4o" = { input = 1, output = 2 }\n'
                   '"openai/qwen*" = { input = 0, output = 0 }\n')
    monkeypatch.setenv("PLAYEVAL_PRICES", str(own))
    table = load_prices()
    assert table.price("openai/gpt-4o") == Price(1.0, 2.0)
    assert table.price("openai/qwen2.5-1.5b") == Price(0.0, 0.0)
    assert table.price("openai/gpt-4o-mini") == Price(0.15, 0.6)  # untouched entries stay
    monkeypatch.delenv("PLAYEVAL_PRICES")
    config = tmp_path / "config" / "playeval"
    config.mkdir(parents=True)
    (config / "prices.toml").write_text('[prices]\n"anthropic/claude-new" = { input = 7, output = 9 }\n')
    assert load_prices().price("anthropic/claude-new") == Price(7.0, 9.0)


def test_the_longest_wildcard_wins() -> None:
    table = PriceTable({"openai/*": Price(1, 1), "openai/gpt-*": Price(2, 2), "openai/gpt-x": Price(3, 3)})
    assert table.price("openai/o3") == Price(1, 1)
    assert table.price("openai/gpt-y") == Price(2, 2)
    assert table.price("openai/gpt-x") == Price(3, 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[prices\n", "not valid TOML"),
        ('[prices]\n"gpt-4o" = { input = 1, output = 2 }\n', "not a model address"),
        ('[prices]\n"openai/x" = { input = 1 }\n', "must be { input = USD, output = USD }"),
        ('[prices]\n"openai/x" = { input = -1, output = 2 }\n', "non-negative numbers"),
        ('[prices]\n"openai/x" = { input = "1", output = 2 }\n', "non-negative numbers"),
        ('[price]\n"openai/x" = { input = 1, output = 2 }\n', "unknown section(s) price"),
    ],
)
def test_a_malformed_file_is_one_clear_error(text: str, message: str) -> None:
    with pytest.raises(PriceTableError) as caught:
        parse_prices(text, "my.toml")
    assert str(caught.value).startswith("my.toml: ") and message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_missing_explicit_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_PRICES", str(tmp_path / "nope.toml"))
    with pytest.raises(PriceTableError, match=r"PLAYEVAL_PRICES=.*no such file"):
        load_prices()


def test_costs_are_shown_as_unknown_never_as_zero() -> None:
    assert format_usd(None) == "unknown"
    assert format_usd(0.0) == "$0"
    assert format_usd(0.000412) == "$0.000412"
    assert format_usd(0.0734) == "$0.0734"
    assert format_usd(1234.5) == "$1,234.50"


class _Counter:
    """A cacheable provider that answers with fixed token counts."""

    name = "paid"
    max_concurrency = 1

    async def generate(self, model_name: str, request: ModelRequest) -> ProviderResult:
        return ProviderResult(text="ok", prompt_tokens=300, completion_tokens=20)

    async def aclose(self) -> None:
        return None


async def test_a_call_costs_its_tokens_and_a_cached_one_nothing(tmp_path: Path) -> None:
    prices = PriceTable({"paid/model": Price(input=1000, output=2000)})
    model = Model("paid/model", _Counter(), "model", cache=ResponseCache(tmp_path / "cache.sqlite"),
                  limiter=asyncio.Semaphore(1), prices=prices)
    request = ModelRequest(messages=(user("one two three"),))
    fresh = await model.generate(request)
    cached = await model.generate(request)
    assert fresh.cost_usd == pytest.approx((300 * 1000 + 20 * 2000) / 1_000_000)
    assert to_call_record(fresh).cost_usd == fresh.cost_usd
    assert cached.cached and cached.cost_usd == 0.0
    unknown = Model("paid/other", _Counter(), "other", cache=None, limiter=asyncio.Semaphore(1), prices=prices)
    assert (await unknown.generate(request)).cost_usd is None


def test_a_malformed_user_file_stops_the_hub_before_any_call(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    own = tmp_path / "prices.toml"
    own.write_text("[prices]\n\"mock/echo\" = 3\n")
    monkeypatch.setenv("PLAYEVAL_PRICES", str(own))
    with pytest.raises(PriceTableError, match="must be"):
        ModelHub(use_cache=False).get("mock/echo")


PRICED = '[prices]\n"mock/player" = { input = 1000, output = 2000 }\n'


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, prices: str) -> str:
    own = tmp_path / "prices.toml"
    own.write_text(prices)
    monkeypatch.setenv("PLAYEVAL_PRICES", str(own))
    monkeypatch.setenv("PLAYEVAL_DB", f"sqlite:///{tmp_path / 'runs.db'}")
    result = CliRunner().invoke(app, ["run", "akinator", "--models", "mock/player", "--opponent", "scripted",
                                      "--n", "2", "--no-cache"])
    assert result.exit_code == 0, result.output
    with Store.open() as store:
        run_id = store.latest_run_id()
    assert run_id is not None
    return run_id


def test_each_call_of_a_run_stores_its_cost_and_results_show_it(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = _run(tmp_path, monkeypatch, PRICED)
    with Store.open() as store:
        calls = [call for match in store.run_matches(run_id) for call in store.calls(match.id)]
        costs = run_costs(store, run_id)
        report = build_report(store, run_id, default_registry())
    assert calls
    for call in calls:
        assert call.cost_usd == pytest.approx((call.prompt_tokens * 1000 + call.completion_tokens * 2000) / 1e6)
    total = sum(call.cost_usd or 0.0 for call in calls)
    assert [row.model for row in costs] == ["mock/player", ALL_MODELS]
    assert costs[-1].cost_usd == pytest.approx(total) and costs[-1].calls == len(calls)
    assert costs[-1].prompt_tokens == sum(call.prompt_tokens for call in calls)

    shown = CliRunner().invoke(app, ["results", run_id], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    line = next(line for line in shown.output.splitlines() if line.strip().startswith(ALL_MODELS))
    assert format_usd(total) in line and f"{costs[-1].prompt_tokens:,}" in line

    table = cost_table(report)
    assert [row[0].text for row in table.rows] == ["mock/player", ALL_MODELS]
    assert table.rows[-1][-1].text == format_usd(total)


def test_mock_calls_cost_nothing_without_a_user_price(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_id = _run(tmp_path, monkeypatch, '[prices]\n"mock/other" = { input = 1, output = 1 }\n')
    with Store.open() as store:
        calls = [call for match in store.run_matches(run_id) for call in store.calls(match.id)]
        costs = run_costs(store, run_id)
    assert calls and all(call.cost_usd == 0.0 for call in calls)  # mock/* costs nothing in the packaged table
    assert costs[-1].cost_usd == 0.0 and format_usd(costs[-1].cost_usd) == "$0"


def test_unknown_cost_rows() -> None:
    from datetime import UTC, datetime

    from playeval.analysis.load import cost_rows
    from playeval.store import CallRow

    def call(model: str, cost: float | None, cached: bool = False) -> CallRow:
        return CallRow(id=1, match_id="m", seat="s", parsed=None, error=None, created_at=datetime.now(UTC),
                       model=model, messages=(), raw_output="x", prompt_tokens=3, completion_tokens=2,
                       cost_usd=cost, cached=cached)

    rows = cost_rows([call("openai/a", 0.5), call("openai/b", None), call("openai/b", None, cached=True)])
    by_model = {row.model: row for row in rows}
    assert by_model["openai/a"].cost_usd == 0.5
    assert by_model["openai/b"].cost_usd is None and by_model["openai/b"].unpriced_calls == 1
    assert by_model[ALL_MODELS].cost_usd is None and by_model[ALL_MODELS].calls == 3
    assert cost_rows([call("openai/b", None, cached=True)])[-1].cost_usd == 0.0
    assert [format_usd(row.cost_usd) for row in rows] == ["$0.5000", "unknown", "unknown"]


def test_the_database_sums_a_run_as_the_calls_add_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from playeval.analysis.load import cost_rows

    run_id = _run(tmp_path, monkeypatch, '[prices]\n"mock/player" = { input = 3, output = 15 }\n')
    with Store.open() as store:
        calls = [call for match in store.run_matches(run_id) for call in store.calls(match.id)]
        assert {call.model for call in calls} >= {"mock/player"} and len(calls) > 10
        assert run_costs(store, run_id) == cost_rows(calls)

/* Statistics: the useful-session rate and the distribution of survey answers, drawn as CSS bars. */
"use strict";

document.addEventListener("DOMContentLoaded", async () => {
  const { el, clear, api, percent, gameName } = window.Arena;
  const QUESTIONS = {
    enjoyment: "How much did you enjoy this game?",
    satisfaction: "How satisfied are you with how the model played?",
    frequency: "How often would you play games like this?",
  };
  const ENDS = {
    enjoyment: ["Not at all", "Very much"],
    satisfaction: ["Not at all", "Completely"],
    frequency: ["Never", "Every day"],
  };

  const result = await api("GET", "/api/stats");
  if (!result.ok || !result.data) {
    const error = document.getElementById("stats-error");
    error.textContent = result.error || "The statistics could not be loaded.";
    error.hidden = false;
    return;
  }
  const stats = result.data;
  document.getElementById("useful-rate").textContent = percent(stats.useful_session_rate);
  document.getElementById("started").textContent = String(stats.matches_started);
  document.getElementById("finished").textContent = String(stats.matches_finished);

  const games = Object.entries(stats.by_game || {});
  const body = document.getElementById("by-game-body");
  clear(body);
  for (const [game, row] of games) {
    body.append(
      el("tr", {}, [
        el("th", { text: gameName(game), attrs: { scope: "row" } }),
        el("td", { className: "num", text: String(row.started) }),
        el("td", { className: "num", text: String(row.finished) }),
        el("td", { className: "num", text: percent(row.useful_session_rate) }),
      ]),
    );
  }
  document.getElementById("by-game-empty").hidden = games.length > 0;
  document.getElementById("by-game").hidden = games.length === 0;

  const distributions = stats.survey_distributions || {};
  const charts = document.getElementById("survey-charts");
  clear(charts);
  for (const [question, text] of Object.entries(QUESTIONS)) {
    const counts = distributions[question] || {};
    const values = [1, 2, 3, 4, 5].map((value) => Number(counts[value] ?? counts[String(value)] ?? 0));
    const total = values.reduce((sum, n) => sum + n, 0);
    const max = Math.max(1, ...values);
    const mean = total ? values.reduce((sum, n, i) => sum + n * (i + 1), 0) / total : null;
    const bars = el("ol", { className: "bars", attrs: { "aria-label": text } });
    values.forEach((count, index) => {
      const bar = el("span", { className: "bar-fill" });
      bar.style.height = `${(count / max) * 100}%`;
      bars.append(
        el("li", { className: "bar" }, [
          el("span", { className: "bar-count", text: String(count), attrs: { "aria-hidden": "true" } }),
          el("span", { className: "bar-track", attrs: { "aria-hidden": "true" } }, [bar]),
          el("span", { className: "bar-label", text: String(index + 1), attrs: { "aria-hidden": "true" } }),
          el("span", { className: "visually-hidden", text: `${count} of ${total} answered ${index + 1}` }),
        ]),
      );
    });
    charts.append(
      el("figure", { className: "chart", dataset: { question } }, [
        el("figcaption", {}, [
          el("strong", { text }),
          el("span", {
            className: "chart-meta",
            text: total ? `${total} answers · average ${mean.toFixed(1)}` : "No answers yet",
          }),
        ]),
        bars,
        el("div", { className: "bar-ends", attrs: { "aria-hidden": "true" } }, [
          el("span", { text: `1 = ${ENDS[question][0]}` }),
          el("span", { text: `5 = ${ENDS[question][1]}` }),
        ]),
      ]),
    );
  }
  document.getElementById("surveys").textContent = String(stats.surveys ?? "—");
});

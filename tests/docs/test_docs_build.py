"""The documentation site, as part of the suite: ``mkdocs build --strict`` must pass without one warning (a broken
link or heading anchor, a page left out of the nav, a docstring mkdocstrings cannot read), every public name of the
API reference's packages must be on it, and the README, which GitHub shows and the site does not build, must only
link to files that exist. The build reads nothing from the network: the theme's web fonts are off and every plugin
is installed by the ``docs`` extra."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from playeval.core import default_registry

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
# The packages whose API reference docs/api/*.md generates: every name in their __all__ must be on the page.
API_PAGES = {"playeval.core": "api/core", "playeval.library": "api/library", "playeval.analysis": "api/analysis"}
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
QUICK_START = (
    "bash scripts/quickstart.sh   # set up .venv and the weights, then serve the web arena at http://127.0.0.1:8000/\n"
    "bash scripts/test.sh         # set up with test tools, then run the whole test suite (browser tests included)\n"
)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built once for the module's tests, with warnings as errors."""
    if importlib.util.find_spec("mkdocs") is None:
        pytest.fail("mkdocs is not installed; pip install -e '.[docs]' (the test extra brings it)", pytrace=False)
    out = tmp_path_factory.mktemp("site")
    # Material's banner about its successor is not a build warning; the hook imports this checkout's playeval
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT / "src"), os.environ.get("PYTHONPATH"))))}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT,
                          env=env, capture_output=True, text=True, check=False, timeout=300)
    log = done.stdout + done.stderr
    assert done.returncode == 0, log[-6000:]
    assert "WARNING" not in log, log[-6000:]
    return out


def _nav_pages(nav: object) -> list[str]:
    """Every page path the nav names, however deep."""
    if isinstance(nav, str):
        return [nav]
    if isinstance(nav, list):
        return [page for item in nav for page in _nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in _nav_pages(value)]
    return []


def _slug(heading: str) -> str:
    """The anchor Python-Markdown's toc gives a heading (GitHub's differs only on characters the docs avoid)."""
    text = re.sub(r"[`*_]", "", heading).strip().lower()
    text = re.sub(r"[^\w\s-]", "", text)
    return re.sub(r"[\s-]+", "-", text).strip("-")


def _anchors(page: Path) -> set[str]:
    in_code = False
    anchors: set[str] = set()
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            anchors.add(_slug(line.lstrip("#")))
    return anchors


def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    for page in ("index.html", "getting-started/index.html", "games/undercover/index.html", "api/core/index.html"):
        assert (site / page).is_file(), page


def test_the_getting_started_page_includes_the_readme_s_quick_start(site: Path) -> None:
    html = (site / "getting-started" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", html)  # the code block's words are split into highlighted spans
    assert "bash scripts/quickstart.sh" in text and "bash scripts/test.sh" in text
    assert "--8&lt;--" not in html and "start:quickstart" not in html  # the snippet was included, not printed


@pytest.mark.parametrize("package", sorted(API_PAGES))
def test_the_api_reference_shows_every_public_name(site: Path, package: str) -> None:
    html = (site / API_PAGES[package] / "index.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([\w.]+)"', html))
    names = importlib.import_module(package).__all__
    # a name exported under its own module's name (analysis.compare) is documented from that module
    missing = [name for name in names if f"{package}.{name}" not in ids and f"{package}.{name}.{name}" not in ids]
    assert not missing, f"{package} names left out of {API_PAGES[package]}.md (a missing docstring?): {missing}"


def test_every_docs_page_is_in_the_nav() -> None:
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = set(_nav_pages(config["nav"]))
    excluded = set(str(config.get("exclude_docs", "")).split())
    pages = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md")}
    assert not pages - in_nav - excluded, f"pages neither in mkdocs.yml's nav nor excluded: {pages - in_nav}"
    assert not in_nav - pages, f"the nav names pages that do not exist: {in_nav - pages}"
    assert not {name for name in excluded if not (DOCS / name).exists()}, "exclude_docs names a missing file"


def test_the_readme_s_links_resolve() -> None:
    links = LINK.findall(README.read_text(encoding="utf-8"))
    local = [link for link in links if not re.match(r"[a-z]+:", link)]
    assert len(local) >= 20, "the README links to the docs pages"
    for link in local:
        path, _, anchor = link.partition("#")
        target = (README.parent / path) if path else README
        assert target.exists(), f"README.md links to {link}, which does not exist"
        if anchor and target.suffix == ".md":
            assert anchor in _anchors(target), f"README.md links to {link}: no such heading in {path or 'README.md'}"


def test_the_readme_keeps_the_two_quick_start_commands() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    assert blocks and blocks[0] == QUICK_START
    start, end = text.index("[start:quickstart]"), text.index("[end:quickstart]")
    assert start < text.index(QUICK_START) < end, "the site's Getting started includes this part of the README"


def test_every_readme_page_link_points_into_the_nav() -> None:
    """A page linked from the README is one the site shows."""
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    in_nav = set(_nav_pages(config["nav"]))
    for link in LINK.findall(README.read_text(encoding="utf-8")):
        path = link.partition("#")[0]
        if path.startswith("docs/") and path.endswith(".md"):
            assert path.removeprefix("docs/") in in_nav, f"README.md links to {path}, which is not in the nav"


def test_every_built_in_game_has_its_declarations_on_a_games_page(site: Path) -> None:
    """Each game's page carries the marker the docs hook turns into its levels, seats, roles and options."""
    marked = {game_id: page for page in (DOCS / "games").glob("*.md")
              for game_id in re.findall(r"<!-- playeval-game: ([a-z_]+) -->", page.read_text(encoding="utf-8"))}
    registry = default_registry()
    assert set(registry.ids()) <= set(marked), f"games without a page: {set(registry.ids()) - set(marked)}"
    for game_id, page in marked.items():
        html = (site / "games" / page.stem / "index.html").read_text(encoding="utf-8")
        assert f"Levels, seats and options of <code>{game_id}</code>" in html
        for name in [option.name for option in registry.get(game_id).options]:
            assert f"<code>{name}</code>" in html, f"{game_id}'s option {name} is not on {page.name}"

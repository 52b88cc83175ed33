"""Judge calibrations on disk: the thresholds fitted for one judge model, and how to find the file for a model.

A small judge's own yes/no is biased (most accept too much); ``playeval analyze judge --fit`` fits, per game and
judge question (the ask's ``kind``), the threshold on the model's probability of accepting that best separates a
labelled set's right and wrong answers, and writes them here. A threshold is only worth anything for the weights
it was fitted on, so a calibration names its model by an identity that changes with the weights (the GGUF's
SHA-256; an OpenAI-compatible server's URL and model name) and :func:`find_calibration` hands a file only to the
model with that identity: a threshold never applies to another model.

Files are searched in the user's calibration directory (``$PLAYEVAL_CALIBRATION_DIR``, else
``$XDG_DATA_HOME/playeval/calibrations``, else ``~/.local/share/playeval/calibrations``) before the ones shipped
with playeval (``playeval/models/data/calibrations/``), so a user's own fit wins.

An entry that did not earn its threshold (its ROC AUC's interval holds 0.5, or the threshold does not beat the
model's own word on held-out folds) is kept with ``applied=False`` and a note saying why, so the report can say
so rather than silently using or dropping it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, model_validator

from playeval.core.verdicts import Thresholds
from playeval.models.cache import default_cache_path
from playeval.models.catalog import LOCAL_MODELS
from playeval.models.errors import ModelError
from playeval.models.weights import PackagedWeights, SplitWeights, locate_packaged_file, sha256_file

FORMAT: Literal["playeval-judge-calibration"] = "playeval-judge-calibration"
VERSION = 1
CALIBRATION_DIR_ENV = "PLAYEVAL_CALIBRATION_DIR"
HASH_CACHE_NAME = "weights-sha256.json"
"""The file under the cache directory that remembers the SHA-256 of GGUF files by path, size and mtime."""
SHIPPED_DIR = Path(__file__).parent / "data" / "calibrations"
"""The calibrations shipped with playeval (package data)."""

_OPENAI_BASE_ENVS = ("PLAYEVAL_OPENAI_BASE_URL", "OPENAI_BASE_URL")
_OPENAI_DEFAULT_BASE = "https://api.openai.com/v1"


class CalibrationError(ModelError):
    """A calibration file that cannot be read or written; the message is one line naming the file."""


Rates = dict[str, float | None]
"""Rates measured on held-out folds: ``accuracy``, ``false_accept``, ``false_reject``, ``balanced_accuracy``
(``None`` where the set has no case to measure it on)."""


class CalibrationEntry(BaseModel):
    """The threshold fitted for one game and one judge question (``kind``: ``verdict`` for the guess judges;
    ``novelty``, ``relevance``, ``reasonableness`` for Undercover's scales; ``confirm`` for Akinator; ``check``
    for Dynamic Picnic's validator), with the evidence for it and whether it is applied."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: str = Field(min_length=1)
    kind: str = Field(min_length=1)
    threshold: float = Field(ge=0.0, le=1.0)
    """Accept when the probability of accepting is at least this."""
    applied: bool
    note: str = ""
    """Why the threshold is not applied (empty when it is)."""
    cases: int = Field(ge=0)
    auc: float | None = None
    auc_low: float | None = None
    auc_high: float | None = None
    untuned: Rates = Field(default_factory=dict)
    """The model's own word's rates on the held-out folds."""
    fitted: Rates = Field(default_factory=dict)
    """The threshold's rates on the held-out folds (each fold's threshold fitted on the others)."""
    cases_from: str | None = None
    """The labelled set this entry was fitted on (``built-in`` or a file name); ``None``: the file's ``cases``."""
    max_false_accept: float | None = None
    """The false-accept cap the threshold was fitted under (``--max-false-accept``); ``None``: none, the threshold
    maximises balanced accuracy."""


class Calibration(BaseModel):
    """A calibration file: which model it was fitted for (its address and the identity that pins its weights),
    when and how, on which labelled set, and its entries."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["playeval-judge-calibration"] = "playeval-judge-calibration"
    version: int = VERSION
    model: str = Field(min_length=1)
    """The address it was fitted with (``local/qwen2.5-coder-1.5b``); the identity, not this, decides a match."""
    identity: str = Field(min_length=1)
    """:func:`model_identity` of the model when it was fitted."""
    made_at: str
    """When it was fitted (ISO 8601, UTC)."""
    command: str
    """The command that fitted it."""
    cases: str
    """The labelled set: ``built-in`` (the games' own sets) or the case file's name."""
    entries: list[CalibrationEntry] = Field(default_factory=list)

    _source: str | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _one_entry_each(self) -> Calibration:
        if self.version > VERSION:
            raise ValueError(f"version {self.version} is newer than this playeval reads ({VERSION})")
        seen: set[tuple[str, str]] = set()
        for entry in self.entries:
            key = (entry.game, entry.kind)
            if key in seen:
                raise ValueError(f"two entries for game {entry.game}, kind {entry.kind}")
            seen.add(key)
        return self

    @property
    def source(self) -> str | None:
        """The file this calibration was read from or written to (``None``: made in memory)."""
        return self._source

    def entry(self, game: str, kind: str) -> CalibrationEntry | None:
        return next((e for e in self.entries if e.game == game and e.kind == kind), None)

    def thresholds(self, game: str) -> Thresholds | None:
        """The applied thresholds for ``game`` by judge question (``None``: none applies), labelled with the file
        and the identity they were fitted for so every verdict they decide says where its threshold came from."""
        held = {entry.kind: entry.threshold for entry in self.entries if entry.game == game and entry.applied}
        if not held:
            return None
        name = Path(self._source).name if self._source else "calibration"
        return Thresholds(label=f"{name} for {self.identity}", by_kind=held)


# --- model identity ---------------------------------------------------------------------------------------------


def _hash_cache_path(cache_dir: Path | None) -> Path:
    return (cache_dir if cache_dir is not None else default_cache_path().parent) / HASH_CACHE_NAME


def cached_sha256(path: Path, *, cache_dir: Path | None = None) -> str:
    """The SHA-256 of ``path``, computed once per path, size and mtime and remembered under the cache directory
    (a GGUF file is a gigabyte; hashing it on every ``analyze judge`` would take seconds)."""
    resolved = path.expanduser().resolve()
    stat = resolved.stat()
    key = str(resolved)
    store = _hash_cache_path(cache_dir)
    try:
        known: Any = json.loads(store.read_text("utf-8"))
    except (OSError, ValueError):
        known = {}
    if not isinstance(known, dict):
        known = {}
    record = known.get(key)
    if (isinstance(record, dict) and record.get("size") == stat.st_size and record.get("mtime_ns") == stat.st_mtime_ns
            and isinstance(record.get("sha256"), str)):
        return str(record["sha256"])
    digest = sha256_file(resolved)
    known[key] = {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": digest}
    try:
        _write_atomically(store, json.dumps(known, indent=1, sort_keys=True))
    except OSError:
        pass  # a read-only cache only costs the hash again next time
    return digest


def model_identity(address: str, *, cache_dir: Path | None = None) -> str:
    """What pins a model's behaviour, for matching a calibration to it.

    A built-in local model with pinned weights: ``sha256:<the pin>``; one shipped whole in a package, or
    ``local/PATH.gguf``: ``sha256:<the file's hash>`` (computed once, see :func:`cached_sha256`); ``openai/NAME``:
    ``openai:<base URL>/<NAME>`` (the server is part of the identity: the same name on another server is another
    model); anything else, the address itself. A local file that cannot be found keeps its address, which no
    fitted calibration holds, so no threshold applies to it.
    """
    provider, _, name = address.partition("/")
    if provider == "local" and name:
        spec = LOCAL_MODELS.get(name)
        if spec is not None:
            if isinstance(spec.weights, SplitWeights):
                return f"sha256:{spec.weights.sha256.lower()}"
            if isinstance(spec.weights, PackagedWeights):
                found = locate_packaged_file(spec.weights.file)
                return f"sha256:{cached_sha256(found, cache_dir=cache_dir)}" if found is not None else address
        if name.endswith(".gguf") and not name.startswith("hf:"):
            path = Path(name).expanduser()
            return f"sha256:{cached_sha256(path, cache_dir=cache_dir)}" if path.is_file() else address
        return address
    if provider == "openai" and name:
        base = next((value.strip() for env in _OPENAI_BASE_ENVS if (value := os.environ.get(env, "")).strip()),
                    _OPENAI_DEFAULT_BASE)
        return f"openai:{base.rstrip('/')}/{name}"
    return address


# --- files ------------------------------------------------------------------------------------------------------


def user_calibration_dir() -> Path:
    """``$PLAYEVAL_CALIBRATION_DIR``, else ``$XDG_DATA_HOME/playeval/calibrations``, else
    ``~/.local/share/playeval/calibrations``: where fits are written."""
    explicit = os.environ.get(CALIBRATION_DIR_ENV, "").strip()
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "playeval" / "calibrations"


def calibration_dirs() -> list[Path]:
    """Where calibrations are looked for, in order: the user's directory, then the shipped ones."""
    return [user_calibration_dir(), SHIPPED_DIR]


def _one_line(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ()))
    more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{where + ': ' if where else ''}{first.get('msg', 'invalid')}{more}"


def load_calibration(path: Path) -> Calibration:
    """The calibration in ``path``; ``CalibrationError`` (one line naming the file) when it cannot be read or is not
    a calibration this playeval understands."""
    try:
        raw: Any = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise CalibrationError(f"calibration {path}: cannot read it ({err.__class__.__name__}: {err})") from None
    except ValueError as err:
        raise CalibrationError(f"calibration {path}: not JSON ({err})") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise CalibrationError(f"calibration {path}: not a playeval judge calibration (its \"format\" must be "
                               f"\"{FORMAT}\")")
    try:
        calibration = Calibration.model_validate(raw)
    except ValidationError as err:
        raise CalibrationError(f"calibration {path}: {_one_line(err)}") from None
    calibration._source = str(path)
    return calibration


def find_calibration(address: str, *, cache_dir: Path | None = None) -> tuple[Path, Calibration] | None:
    """The first calibration file (user directory before the shipped one, files by name) fitted for this model's
    identity, or ``None``. Every file looked at must load: a broken one is a ``CalibrationError`` naming it, not a
    calibration quietly skipped."""
    identity = model_identity(address, cache_dir=cache_dir)
    for directory in calibration_dirs():
        if not directory.is_dir():
            continue
        for path in sorted(directory.glob("*.json")):
            calibration = load_calibration(path)
            if calibration.identity == identity:
                return path, calibration
    return None


def _kept_with(calibration: Calibration, target: Path) -> Calibration:
    """``calibration`` with the entries of the file at ``target`` that it does not replace (same identity only)."""
    try:
        old = load_calibration(target) if target.is_file() else None
    except CalibrationError:
        old = None
    fresh = [entry if entry.cases_from is not None else entry.model_copy(update={"cases_from": calibration.cases})
             for entry in calibration.entries]
    if old is None or old.identity != calibration.identity:
        return calibration.model_copy(update={"entries": fresh})
    covered = {(entry.game, entry.kind) for entry in fresh}
    kept = [entry if entry.cases_from is not None else entry.model_copy(update={"cases_from": old.cases})
            for entry in old.entries if (entry.game, entry.kind) not in covered]
    entries = sorted([*kept, *fresh], key=lambda entry: (entry.game, entry.kind))
    return calibration.model_copy(update={"entries": entries})


def address_slug(address: str) -> str:
    """A file name stem for a model address (``local/qwen2.5-coder-1.5b`` -> ``local-qwen2.5-coder-1.5b``)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", address).strip("-.")
    return slug or "model"


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
                                         suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def save_calibration(calibration: Calibration, path: Path | None = None) -> Path:
    """Write ``calibration`` (default: the user's calibration directory, ``<address slug>.json``) atomically, so a
    reader never sees half a file; returns the path. ``CalibrationError`` when it cannot be written.

    A file already there for the same model identity keeps its entries for the games and questions this fit did
    not cover (a fit of one game does not wipe the others'), each with the set it was fitted on; a file for another
    identity, or one that cannot be read, is replaced."""
    target = path if path is not None else user_calibration_dir() / f"{address_slug(calibration.model)}.json"
    calibration = _kept_with(calibration, target)
    try:
        _write_atomically(target, calibration.model_dump_json(indent=2) + "\n")
    except OSError as err:
        raise CalibrationError(f"calibration {target}: cannot write it ({err.__class__.__name__}: {err})") from None
    calibration._source = str(target)
    return target

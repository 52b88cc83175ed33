"""playeval: evaluate language models by having them play language games.

The public API lives in the subpackages: ``playeval.core`` (game protocol,
events), ``playeval.games``, ``playeval.players``, ``playeval.models``,
``playeval.engine``, ``playeval.store`` and ``playeval.analysis``.
"""

__version__ = "0.2.0.dev0"

__all__ = ["__version__"]

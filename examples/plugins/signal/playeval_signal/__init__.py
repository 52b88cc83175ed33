"""Signal, a playeval game in a package of its own: installed, it is found through the ``playeval.games`` entry
point and gets every table, rating and plot a built-in team game gets, by declaring them."""

from playeval_signal.rules import Signal

__all__ = ["Signal"]

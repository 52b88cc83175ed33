"""Shared prefixes, the perfect-cache floor, and how a prompt tail is cut into batches."""

from __future__ import annotations

import pytest

from playeval.models.providers.llama_prefix import PerfectCache, common_prefix


def test_common_prefix_counts_the_leading_tokens_two_sequences_share() -> None:
    assert common_prefix([1, 2, 3, 4], [1, 2, 9]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix([5, 2], [1, 2]) == 0


def test_the_perfect_cache_needs_what_no_earlier_prompt_and_reply_began_with() -> None:
    cache = PerfectCache()
    assert cache.needed([1, 2, 3]) == 3
    cache.add([1, 2, 3, 7, 8])  # a prompt and its reply
    assert cache.needed([1, 2, 3, 7, 8, 4, 5]) == 2  # the next turn: only the new message
    assert cache.needed([1, 2, 9]) == 1
    assert cache.needed([1, 2, 3]) == 1  # asked again: the last token is evaluated again for its logits
    assert cache.needed([6]) == 1
    assert cache.needed([]) == 0


def test_a_tail_is_cut_into_batches_of_at_least_eight_rows_and_at_most_the_batch() -> None:
    pytest.importorskip("llama_cpp")
    from playeval.models.providers.llama_engine import MIN_ROWS, _chunks

    for count in (1, 7, 8, 9, 512, 513, 519, 520, 1030):
        sizes = _chunks(count, 512)
        assert sum(sizes) == count and all(size <= 512 for size in sizes), (count, sizes)
        if count >= MIN_ROWS:
            assert all(size >= MIN_ROWS for size in sizes), (count, sizes)
    assert _chunks(513, 512) == [505, 8]

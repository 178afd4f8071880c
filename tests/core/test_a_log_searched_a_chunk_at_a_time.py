"""Whether a log mentions a word (a dispute, a die rolled, a confirmation) is read a
megabyte at a time, never the whole log: a warm `cok standings` at 100,000 events held the
20 MB log for it (issue #45). A word across two chunks is found all the same."""

from __future__ import annotations

import io

import pytest

from cok.core import folders


class Sized(io.BytesIO):
    largest = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        Sized.largest = max(Sized.largest, len(data))
        return data


@pytest.mark.parametrize("end", [None, -2])
def test_a_word_is_found_wherever_it_falls_across_the_chunks(monkeypatch: pytest.MonkeyPatch, end: int | None) -> None:
    monkeypatch.setattr(folders, "SEARCHED", 8)
    words = (b"dispute", b"rolled")
    for text in (b"x" * n + w + b"y" * m for n in range(12) for m in (0, 3) for w in (*words, b"disput", b"olled")):
        for start in (0, 1, 2):
            stop = None if end is None else max(start, len(text) + end)
            expected = any(w in text[start:stop] for w in words)
            assert folders.mentions(Sized(text), words, start, stop) is expected, (text, start, stop)
    assert Sized.largest <= 8

"""Recording reads the log once under the lock, and still notices what changed since the
campaign was opened: the new position, the fresh id and the cache come from those bytes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cok.core.position import Position, digest, running


@given(before=st.binary(max_size=200), appended=st.binary(max_size=200), column=st.integers(0, 4))
def test_the_position_after_an_append_is_what_reading_the_whole_log_says(
    before: bytes, appended: bytes, column: int
) -> None:
    hashed = running(before)
    assert Position.of(before, column).after(appended, hashed) == Position.of(before + appended, column)
    assert hashed.hexdigest() == digest(before)  # the running digest is left as it was


def test_the_position_of_an_empty_flow_list_is_never_extended() -> None:
    with pytest.raises(ValueError, match="rewritten"):
        Position.of(b"[]\n", 0, (0, 2)).after(b"- type: week\n", running(b"[]\n"))

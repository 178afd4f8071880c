"""Reading YAML strictly: every refusal names the file and, where there is one, the line."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cok.core.errors import Refused
from cok.core.yamlfile import YamlList, YamlMap, parse, read_text


def refusal(text: str) -> tuple[int | None, str]:
    with pytest.raises(Refused) as caught:
        parse(text, "f.yaml")
    problem = caught.value.problems[0]
    assert problem.file == "f.yaml"
    return problem.line, problem.message


def test_mappings_and_lists_remember_their_lines() -> None:
    data = parse("# comment\n- type: join\n  player: tim\n- type: week\n", "f.yaml")
    assert isinstance(data, YamlList)
    assert data.item_lines == [2, 4]
    assert isinstance(data[0], YamlMap)
    assert data[0].key_lines == {"type": 2, "player": 3}


def test_an_alias_is_refused_with_its_line() -> None:
    line, message = refusal("a: 1\nb: [*x]\n")
    assert line == 2 or "alias" in message


def test_an_anchor_is_refused() -> None:
    line, message = refusal("a: 1\nb: &x [1, 2]\nc: *x\n")
    assert line == 2
    assert "anchors" in message


def test_billion_laughs_is_refused_at_the_first_anchor() -> None:
    text = 'a: &a ["lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n'
    line, message = refusal(text)
    assert line == 1
    assert "anchors" in message


def test_python_tags_are_refused() -> None:
    line, message = refusal("- type: join\n  player: !!python/object/apply:os.system ['true']\n")
    assert line == 2
    assert "!!python/object/apply:os.system" in message


def test_a_key_repeated_in_one_mapping_is_refused() -> None:
    line, message = refusal("- type: battle\n  winner: tim\n  winner: matt\n")
    assert line == 3
    assert "'winner' appears twice" in message
    assert "line 2" in message


def test_tabs_get_a_hint() -> None:
    line, message = refusal("- type: week\n\tlimit: 3\n")
    assert line == 2
    assert "tabs" in message


def test_leftover_git_conflict_markers_are_refused() -> None:
    line, message = refusal("- type: week\n<<<<<<< HEAD\n- type: week\n=======\n>>>>>>> other\n")
    assert line == 2
    assert "conflict" in message


def test_malformed_yaml_names_the_line() -> None:
    line, message = refusal("- type: week\n- type: [battle\n")
    assert line is not None
    assert message.startswith("invalid YAML")


def test_deep_nesting_is_refused_not_a_crash() -> None:
    for text in (
        "[" * 100000 + "]" * 100000,
        "- " * 100000 + "x",
        "a:\n" + "".join(" " * i + "b:\n" for i in range(1, 400)),
    ):
        _, message = refusal(text)
        assert "nested more than 200 levels deep" in message


def test_dates_stay_text_and_timestamps_are_datetimes() -> None:
    data = parse("d: 2026-01-02\nt: 2026-01-02T03:04:05Z\n", "f.yaml")
    assert data["d"] == "2026-01-02"
    assert data["t"].year == 2026


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"\x00\x01\x02binary", "binary file"),
        (b"- type: week\n  note: \xff\xfe\n", "not UTF-8"),
    ],
)
def test_binary_and_undecodable_files_are_refused(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "events.yaml"
    path.write_bytes(content)
    with pytest.raises(Refused) as caught:
        read_text(path, "event log")
    assert expected in caught.value.problems[0].message


def test_a_missing_file_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(Refused) as caught:
        read_text(tmp_path / "nope.yaml", "map file")
    assert "map file not found" in str(caught.value)


scalar_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.text(max_size=20),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(
        [
            "yes",
            "No",
            "on",
            "~",
            "null",
            "0x1F",
            "0o17",
            "1_000",
            "1:30",
            "3.5e3",
            ".inf",
            "<<",
            "=",
            "2026-01-02T03:04:05Z",
            "12:30:00",
            "+12",
            "0b101",
            "'quoted'",
            "- dash",
            "#hash",
        ]
    ),
)
documents = st.recursive(
    scalar_values,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(min_size=1, max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(data=documents, flow=st.sampled_from([None, True, False]))
def test_values_are_read_exactly_as_pyyaml_reads_them(data: object, flow: bool | None) -> None:
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    expected = yaml.safe_load(text)
    assert _plain(parse(text, "f.yaml")) == _plain(expected)


def _plain(value: object) -> object:
    """Dates become text in our reader (a `week` is never a date); the rest is compared as is."""
    import datetime as dt

    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, float) and value != value:
        return "nan"
    return value


def test_a_parsers_own_nesting_limit_is_reported_in_our_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever limit and words a release of the parser has, the user reads ours, at the line."""
    import yaml

    from cok.core import yamlfile

    text = "names:\n  - a\nvalue: " + "[" * 300
    at = len(text) - 1

    class Refusing(yamlfile._Loader):  # type: ignore[name-defined,misc]
        def get_event(self) -> object:
            mark = yaml.Mark("<unicode string>", at, 2, at - text.rindex("\n"), None, None)
            raise yaml.scanner.ScannerError("while doing something", mark, "a limit of the parser's own", mark)

    monkeypatch.setattr(yamlfile, "_Loader", Refusing)
    line, message = refusal(text)
    assert (line, message) == (3, f"nested more than {yamlfile.MAX_DEPTH} levels deep")


def test_a_syntax_error_after_shallow_brackets_is_not_called_deep() -> None:
    text = "a: " + "[1], " * 300 + "\nb: [\n"
    _, message = refusal(text)
    assert "nested" not in message
    assert message.startswith("invalid YAML")

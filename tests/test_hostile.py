"""Hostile and broken input: exit 1, a message naming the file (and line), never a traceback,
nothing recorded on top of it; and a fuzz test over event logs and maps."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .conftest import Cok

BILLION_LAUGHS = "".join(
    f"l{i}: &l{i} [" + ",".join([f"*l{i - 1}"] * 9 if i else ['"lol"'] * 9) + "]\n" for i in range(10)
)
HOSTILE = {
    "malformed": "- type: week\n  limit: [1, 2\n",
    "binary": "\x00\x01\x02\x03\xfe",
    "tabs": "- type: week\n\tlimit: 3\n",
    "wrong types": "- type: week\n  limit: lots\n",
    "not a list": "type: week\n",
    "missing fields": "- type: adjust\n  player: tim\n",
    "deep nesting": "- " + "[" * 50000 + "]" * 50000 + "\n",
    "billion laughs": BILLION_LAUGHS,
    "alias": "- &w {type: week}\n- *w\n",
    "python tag": "- !!python/object/apply:os.system ['echo hacked']\n",
    "repeated key": "- type: week\n  limit: 3\n  limit: 4\n",
    "conflict markers": "<<<<<<< HEAD\n- type: week\n=======\n- type: week\n  limit: 9\n>>>>>>> theirs\n",
    "scalar": "42\n",
    "huge": "- type: week\n  note: " + "x" * (65 * 1024 * 1024) + "\n",
}
LINE = re.compile(r"^(?P<file>[^:]+?)(:(?P<line>\d+))?: \S")


def run_real(args: list[str], campaign: Path) -> subprocess.CompletedProcess[str]:
    """The installed program in its own process, capped at 1 GiB of memory and 60 s."""
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "from cok.main import main; sys.argv = ['cok', *sys.argv[1:]]; main()"
    )
    return subprocess.run(
        [sys.executable, "-c", code, *args, "-C", str(campaign)],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_event_logs_are_refused_cleanly(campaign: Path, name: str) -> None:
    log = campaign / "events.yaml"
    content = HOSTILE[name]
    log.write_bytes(content.encode("utf-8", "surrogateescape") if name != "binary" else content.encode("latin-1"))
    before = log.read_bytes()
    for args in (["check"], ["standings"], ["week", "--next"]):
        run = run_real(args, campaign)
        assert run.returncode == 1, (name, args, run.stderr)
        assert "Traceback" not in run.stderr and "internal error" not in run.stderr, run.stderr
        first = run.stderr.splitlines()[0]
        assert LINE.match(first) and "events.yaml" in first, first
    assert log.read_bytes() == before


@pytest.mark.parametrize(
    "name",
    ["malformed", "binary", "tabs", "billion laughs", "python tag", "repeated key", "conflict markers", "scalar"],
)
@pytest.mark.parametrize("target", ["campaign.yaml", "map"])
def test_hostile_settings_and_maps_are_refused_cleanly(campaign: Path, name: str, target: str) -> None:
    path = campaign / "campaign.yaml" if target == "campaign.yaml" else campaign.parents[1] / "westeros.yaml"
    content = HOSTILE[name]
    path.write_bytes(content.encode("latin-1") if name == "binary" else content.encode())
    run = run_real(["check"], campaign)
    assert run.returncode == 1
    assert "Traceback" not in run.stderr
    assert path.name in run.stderr.splitlines()[0]


# --- fuzz ---------------------------------------------------------------------------------------

TINY_MAP = """name: Tiny
locations:
  - {name: Winterfell, kind: castle, home: stark}
  - {name: Sunspear, kind: castle, home: martell}
  - {name: Moat Cailin, kind: fort}
  - {name: The Neck, kind: region}
  - {name: Barrowton, kind: village}
routes:
  land: [[Winterfell, Moat Cailin], [Moat Cailin, The Neck], [The Neck, Sunspear], [Barrowton, Winterfell]]
"""
VALID_LOG = """- type: join
  player: sara
  faction: stark
  id: j1
- type: join
  player: tim
  faction: martell
- type: battle
  players: [sara, tim]
  location: Moat Cailin
  attacker: sara
  vp: {sara: 5, tim: 3}
- type: painting
  player: sara
  fully_painted: true
- type: week
  limit: 30
- type: void
  target: j1
  reason: test
"""
FIELDS = [
    "type",
    "player",
    "players",
    "faction",
    "castle",
    "territories",
    "location",
    "attacker",
    "winner",
    "vp",
    "remaining",
    "mode",
    "points",
    "brotherhood",
    "abandon",
    "occupy",
    "override",
    "week",
    "limit",
    "units",
    "models",
    "fully_painted",
    "commissioned",
    "cp",
    "reason",
    "target",
    "id",
    "at",
    "by",
    "note",
    "name",
    "x",
]
TYPES = ["join", "week", "battle", "painting", "adjust", "void", "paint", "", "Battle"]
scalars = st.one_of(
    st.sampled_from(["sara", "tim", "Winterfell", "Moat Cailin", "The Neck", "a-clash-of-kings", "j1", "stark"]),
    st.integers(-5, 40),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.sampled_from(["2026-01-01T00:00:00Z", "2026-13-45", "yes", "~", "1e9"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["sara", "tim", "x"]), inner, max_size=2)
    ),
    max_leaves=6,
)
events = st.fixed_dictionaries({"type": st.sampled_from(TYPES)}, optional={f: values for f in FIELDS if f != "type"})
structured_logs = st.lists(events, max_size=8).map(lambda evs: __import__("yaml").safe_dump(evs, sort_keys=False))


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    data = bytearray(text.encode())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["insert", "delete", "replace"]))
        chunk = draw(
            st.binary(min_size=1, max_size=4)
            | st.sampled_from([b":", b"-", b" ", b"\n", b"[", b"&a", b"*a", b"!!", b"\t", b"'", b'"', b"#"])
        )
        if action == "insert":
            data[at:at] = chunk
        elif action == "delete":
            del data[at : at + len(chunk)]
        else:
            data[at : at + len(chunk)] = chunk
    return data.decode("utf-8", "replace")


inputs = st.one_of(
    st.tuples(st.just("events.yaml"), structured_logs),
    st.tuples(st.just("events.yaml"), mutated(VALID_LOG)),
    st.tuples(st.just("events.yaml"), st.binary(max_size=60).map(lambda b: b.decode("latin-1"))),
    st.tuples(st.just("map.yaml"), mutated(TINY_MAP)),
    st.tuples(st.just("campaign.yaml"), mutated("name: Fuzz\nmap: map.yaml\npoints: {start: 20, step: 3}\n")),
)


@pytest.fixture(scope="module")
def fuzz_campaign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz")


@settings(
    max_examples=2000,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@pytest.mark.slow
@given(case=inputs)
def test_fuzzed_files_give_exit_0_or_1_never_a_traceback(fuzz_campaign: Path, case: tuple[str, str]) -> None:
    file, content = case
    files = {
        "map.yaml": TINY_MAP,
        "events.yaml": VALID_LOG,
        "campaign.yaml": "name: Fuzz\nmap: map.yaml\npoints: {start: 20, step: 3}\n",
        file: content,
    }
    for name, text in files.items():
        (fuzz_campaign / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    run = Cok(fuzz_campaign)("check")
    assert run.exit_code in (0, 1)
    if run.exit_code == 1:
        lines = run.stderr.splitlines()
        assert lines
        for line in lines:
            found = LINE.match(line)
            assert found, line
            assert found["file"] in ("events.yaml", "map.yaml", "campaign.yaml"), line

"""Issue #36, "HTML only from templates": no module builds HTML or SVG in f-strings or splices
one piece into another by searching its text; every Jinja environment comes from the one
factory (`cok.render.markup.environment`), with its autoescape and its one finaliser."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from markupsafe import Markup

from cok.core.campaign import open_campaign

from .games import GAMES, played

SRC = Path(__file__).resolve().parents[1] / "src" / "cok"
TAG = re.compile(r"<[a-z/?]")
SEARCHES = {"find", "rfind", "index", "rindex", "replace", "split", "rsplit", "partition", "rpartition"}


def modules() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(SRC)), ast.parse(p.read_text(encoding="utf-8"))) for p in sorted(SRC.rglob("*.py"))]


def test_no_module_writes_html_tags_inside_an_f_string() -> None:
    found = [
        f"{name}:{node.lineno}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        and any(isinstance(v, ast.Constant) and isinstance(v.value, str) and TAG.search(v.value) for v in node.values)
    ]
    assert found == []


def _tagged(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and bool(TAG.search(node.value))


def test_no_module_glues_markup_to_text_with_plus_percent_or_format() -> None:
    """`'<?xml …?>\\n' + rendered`, `"<b>%s</b>" % name`, `"<i>{}</i>".format(name)`: markup
    outside a template, its pieces unescaped."""
    found = [
        f"{name}:{node.lineno}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Add | ast.Mod)
            and (_tagged(node.left) or _tagged(node.right))
        )
        or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("format", "join")
            and _tagged(node.func.value)
        )
    ]
    assert found == []


def test_no_module_splices_markup_by_searching_for_a_tag() -> None:
    """`svg.rfind("</svg>")`, `page.find("<body")`: a piece put into a page's text after it
    was rendered, instead of a block its template renders."""
    found = [
        f"{name}:{node.lineno}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in SEARCHES
        and any(isinstance(a, ast.Constant) and isinstance(a.value, str) and TAG.search(a.value) for a in node.args)
    ]
    assert found == []


def test_every_jinja_environment_is_made_by_the_one_factory() -> None:
    made = sorted(
        f"{name}:{node.lineno}"
        for name, tree in modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and (
            (isinstance(node.func, ast.Name) and node.func.id in ("Environment", "Template"))
            or (isinstance(node.func, ast.Attribute) and node.func.attr in ("Environment", "Template", "from_string"))
        )
    )
    assert [m.split(":")[0] for m in made] == ["render/markup.py"]


def test_the_factorys_environment_escapes_and_shows_what_a_page_cannot_hold_visibly() -> None:
    from cok.render import markup

    env = markup.environment(["cok.serve"])
    assert env.autoescape is True
    shown = env.from_string("{{ x }}").render(x="<b>\x07")
    assert "<b>" not in shown and "&lt;b&gt;" in shown and "\x07" not in shown


@pytest.mark.parametrize("game", GAMES)
def test_a_site_page_is_served_with_the_bar_its_template_renders_in_its_bar_block(tmp_path: Path, game: str) -> None:
    from cok.render.site import Page

    campaign = open_campaign(played(tmp_path, game), use_cache=False)
    for path, text in campaign.ruleset.site_pages(campaign):
        if not path.endswith(".html"):
            continue
        assert isinstance(text, Page), f"{game}/{path} is not made from its template"
        served = text.served(Markup('<nav class="cok-bar">the bar</nav>'), "/root")
        body = served.index("<body>")
        skip = '<a class="skip" href="#main">Skip to the page</a>\n'
        assert served.index(skip) == body + len("<body>\n")  # issue #49: the skip link first
        assert body < served.index('<nav class="cok-bar">the bar</nav>') < served.index("<main")
        assert '<header class="top">' not in served  # one header: the server's, in the site's place
        assert '<link rel="stylesheet" href="/root/_cok/serve.css">' in served[: served.index("</head>")]
        assert "cok-bar" not in text and "_cok/serve.css" not in text  # `cok site` writes no bar

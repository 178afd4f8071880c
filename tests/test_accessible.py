"""Issue #49, every page for every player: axe-core (tests/axe.py) finds no serious or critical
WCAG 2.0/2.1 A or AA violation on any page of any game, at 390 and 1280 px, light and dark —
every page of each shipped example's site (`cok site`), and the served pages a reader, a
player and an organiser see in each game's phases (a Clash of Kings question and a result
awaiting its word, a Mighty Kingdoms winter, a No True King combat). Each page also has one
`h1`, a header, a nav and a main, and a skip link to the main. Without Chromium a browser test
is skipped on a contributor's machine and fails under CI (tests/browser.py), and so does a
page axe cannot check."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from cok.links import invites
from cok.service import Draft, Who, record

from .axe import violations
from .browser import DESKTOP, PHONE, browser
from .conftest import ROOT, Cok

EXAMPLES = ["example", "mighty-kingdoms", "mighty-kingdoms-kow", "no-true-king-example"]
#: An example whose pages are of the same kinds as another's (Mighty Kingdoms with Kings of War's
#: battles) is looked at on a phone in a bright room only: the suite's time is kept for the others.
SAME_KINDS = {"mighty-kingdoms-kow": 1}
#: Every page is looked at in each: a phone and a laptop, a bright room and a dim one.
LOOKS = [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")]
LOOK_IDS = ["390px-light", "390px-dark", "1280px-light", "1280px-dark"]
ORGANISER = Who("Ann", organiser=True)

#: What every page has (issue #49): one h1, the landmarks, a skip link that leads to the main.
STRUCTURE = """() => {
  const flaws = [];
  const h1 = document.querySelectorAll("h1").length;
  if (h1 !== 1) flaws.push(`${h1} h1 elements`);
  for (const name of ["header", "nav", "main"]) if (!document.querySelector(name)) flaws.push(`no <${name}>`);
  const skip = document.querySelector("a.skip");
  if (!skip || document.body.firstElementChild !== skip) flaws.push("no skip link first in the page");
  else if (!document.querySelector(skip.getAttribute("href"))?.matches("main")) flaws.push("the skip link leads away");
  for (const field of document.querySelectorAll("input:not([type=hidden]), select, textarea")) {
    if (!field.labels || !field.labels.length) flaws.push(`the field ${field.name} has no label`);
  }
  return flaws;
}"""


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    with browser() as launched:
        yield launched


def audit(page: Any, name: str) -> list[str]:
    """What axe and the structure check find on the page shown, each line naming the page."""
    found = violations(page) + page.evaluate(STRUCTURE)
    return [f"{name}: {f}" for f in found]


def in_every_look(chromium: Any, visit: Callable[[Any, str], Iterator[str]], looks: int = len(LOOKS)) -> list[str]:
    """`visit(page, look)` opens pages, yielding each one's name once it is shown; each is audited
    in every look (a context of its own, so a phone signs in again), or in the first `looks`."""
    found: list[str] = []
    for (size, scheme), look in list(zip(LOOKS, LOOK_IDS, strict=True))[:looks]:
        context = chromium.new_context(viewport=size, color_scheme=scheme)
        try:
            page = context.new_page()
            for name in visit(page, look):
                found += audit(page, f"{look} {name}")
        finally:
            context.close()
    return found


def posted(page: Any, path: str, **fields: str) -> None:
    """A form sent from the page shown, as its own form would send it (with its CSRF token)."""
    csrf = page.locator("input[name=csrf]").first.get_attribute("value")
    with page.expect_navigation():
        page.evaluate(
            """([path, fields]) => { const f = document.createElement("form"); f.method = "post"; f.action = path;
            for (const [k, v] of Object.entries(fields)) { const i = document.createElement("input"); i.type = "hidden";
            i.name = k; i.value = v; f.append(i); } document.body.append(f); f.submit(); }""",
            [path, {"csrf": csrf, **fields}],
        )


# ---------------------------------------------------------------- each example's site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("examples")
    built = {}
    for example in EXAMPLES:
        folder = base / "campaigns" / example
        shutil.copytree(ROOT / "campaigns" / example, folder)
        run = Cok(folder)("site", str(base / "sites" / example))
        assert run.exit_code == 0, run.stderr
        built[example] = base / "sites" / example
    return built


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_page_of_every_examples_site_is_accessible(chromium: Any, sites: dict[str, Path], example: str) -> None:
    pages = sorted(sites[example].rglob("*.html"))
    assert len(pages) >= 3

    def visit(page: Any, look: str) -> Iterator[str]:
        for path in pages:
            page.goto(path.as_uri())
            yield str(path.relative_to(sites[example]))

    assert in_every_look(chromium, visit, SAME_KINDS.get(example, len(LOOKS))) == []


# ---------------------------------------------------------------- served: the club's page


def test_the_clubs_page_is_accessible_with_a_campaign_that_cannot_be_opened_and_a_path_it_no_longer_serves(
    chromium: Any, tmp_path: Path
) -> None:
    """A club's server: its page listing every campaign (one of them broken, its problem
    shown), and the 404 of a path no campaign has any more, each with the one header."""
    from tests.serve.process import served_club
    from tests.serve.test_several_campaigns import GAMES

    club = tmp_path / "club"
    for name, source in GAMES.items():
        shutil.copytree(source, club / name)
    shutil.copytree(ROOT / "campaigns" / "example", club / "broken")
    with (club / "broken" / "events.yaml").open("a", encoding="utf-8") as log:
        log.write("- type: battle\n  players: [tim]\n")
    with served_club(club) as (url, _):

        def visit(page: Any, look: str) -> Iterator[str]:
            page.goto(url + "/")
            assert "broken" in page.content()
            yield "the club's page"
            page.goto(url + "/gone/")
            yield "a path no campaign has"

        assert in_every_look(chromium, visit) == []


# ---------------------------------------------------------------- served: Clash of Kings


def test_every_served_clash_of_kings_page_is_accessible_to_a_reader_a_player_and_an_organiser(
    chromium: Any, example: Path
) -> None:
    """The site's pages live, the forms, a question of the rules, a refusal, and Matt's box
    with Tim's result awaiting his word."""
    from tests.serve.process import serving

    record(example, [Draft("battle", {"players": ["tim", "matt"], "location": "Ghost Hill",
                                       "vp": {"tim": 7, "matt": 5}})], by=Who("tim"))  # fmt: skip
    with serving(example) as served:

        def visit(page: Any, look: str) -> Iterator[str]:
            for path in ("/", "/log.html", "/map.html", "/players/tim.html", "/activity", "/join/no-such-link"):
                page.goto(served.url + path)
                yield f"reader {path}"
            page.goto(f"{served.url}/join/{invites.invite(example, 'matt')}")
            yield "matt's home, a result awaiting his word"
            page.goto(f"{served.url}/join/{invites.invite(example, 'tim')}")
            for path in ("/play/battle", "/play/battle?player=tim&opponent=matt", "/play/paint", "/play/modes"):
                page.goto(served.url + path)
                yield f"tim {path}"
            page.goto(served.url + "/play/paint")
            page.locator("input[name=units]").fill("1")
            page.get_by_role("button", name="Preview").click()
            yield "tim: a preview"
            page.get_by_role("button", name="Record it").click()
            told = page.locator("h1").inner_text()  # the same painting again in the next look: sent already
            assert told in ("Recorded", "This form was sent already"), told
            yield f"tim: {told}"
            tie = {"a": "tim", "b": "matt", "location": "Ghost Hill", "vp:tim": "5", "vp:matt": "5"}
            posted(page, "/play/battle", **tie)
            assert "The rules ask" in page.locator("h1").inner_text()
            yield "tim: a question of the rules"
            page.goto(served.url + "/play/battle?player=tim&opponent=matt")
            posted(page, "/play/battle", **{**tie, "location": "Nowhere At All"})
            yield "tim: a refusal"
            page.goto(f"{served.url}/join/{invites.invite(example, 'Ann', organiser=True)}")
            for path in ("/", "/play/week", "/play/adjust", "/play/join", "/play/locations?free=1", "/void", "/links"):
                page.goto(served.url + path)
                yield f"organiser {path}"

        found = in_every_look(chromium, visit)
    assert found == []


# ---------------------------------------------------------------- served: Mighty Kingdoms


def test_every_served_mighty_kingdoms_page_is_accessible_in_a_month_and_in_winter(
    chromium: Any, tmp_path: Path
) -> None:
    from cok.core.campaign import open_campaign
    from cok.rulesets.mighty_kingdoms.rules.phase import counts, resolver, ties
    from tests.mighty_kingdoms.pages.kingdoms import begun
    from tests.serve.process import serving

    folder = tmp_path / "mk"
    begun(folder)

    def play(*drafts: Draft) -> None:
        for draft in drafts:
            record(folder, [draft], by=ORGANISER)

    def pages(served: Any, phase: str) -> Callable[[Any, str], Iterator[str]]:
        def visit(page: Any, look: str) -> Iterator[str]:
            for path in ("/", "/log.html", "/map.html", "/kingdoms/ana.html"):
                page.goto(served.url + path)
                yield f"{phase} reader {path}"
            page.goto(f"{served.url}/join/{invites.invite(folder, 'ana')}")
            for path in ("/play/kingdom", "/play/order?army=ana-1", "/play/quest", "/play/artefact"):
                page.goto(served.url + path)
                yield f"{phase} ana {path}"
            page.goto(f"{served.url}/join/{invites.invite(folder, 'Ann', organiser=True)}")
            page.goto(served.url + "/play/organiser")
            yield f"{phase} organiser"

        return visit

    with serving(folder) as served:
        found = in_every_look(chromium, pages(served, "month 1"))
        for _ in range(6):  # six quiet months, then the winter
            play(*(Draft("order", {"army": a, "order": "defend"}) for a in ("ana-1", "bo-1")))
            while (turn := resolver(open_campaign(folder, use_cache=False).state)) is not None:
                state = open_campaign(folder, use_cache=False).state
                play(Draft("resolve", {"army": next(a.id for a in state.armies_of(turn) if not a.resolved)}))
            state = open_campaign(folder, use_cache=False).state
            play(
                Draft(
                    "reform", {"order": sorted(state.order, key=lambda p: -counts(state)[p]) if ties(state) else None}
                )
            )
        play(Draft("winter"))
        found += in_every_look(chromium, pages(served, "winter"))
    assert found == []


# ---------------------------------------------------------------- served: No True King


def test_every_served_no_true_king_page_is_accessible_through_a_combat(chromium: Any, tmp_path: Path) -> None:
    """The resolve form with its board, the combat's preview, then the combat's table: the
    player whose card is asked, and the organiser."""
    from tests.no_true_king.pages.test_table import CARDS
    from tests.serve.process import serving

    folder = tmp_path / "game"
    cok = Cok(tmp_path)
    assert cok("init", "game", "--ruleset", "no-true-king").exit_code == 0
    settings = folder / "campaign.yaml"
    settings.write_text(settings.read_text(encoding="utf-8").replace("sealed", "open"), encoding="utf-8")
    cok = Cok(folder)
    for name, symbol in (("ana", "crown"), ("bo", "torch")):
        assert cok("ntk", "join", name, "--symbol", symbol, "--loyalty", *CARDS[name]).exit_code == 0
    assert cok("ntk", "begin", "--seats", "ana", "bo", "--first", "ana").exit_code == 0
    placed = [("ana", "greyjoy", "maester"), ("bo", "stark", "maester"), ("ana", "lannister", "lord"),
              ("bo", "tyrell", "lord"), ("ana", "baratheon", "lord"), ("bo", "greyjoy", "lord")]  # fmt: skip
    for who, house, space in placed:
        assert cok("ntk", "place", who, house, space).exit_code == 0

    with serving(folder) as served:

        def resolving(page: Any, look: str) -> Iterator[str]:
            for path in ("/", "/log.html", "/board.html"):
                page.goto(served.url + path)
                yield f"reader {path}"
            page.goto(f"{served.url}/join/{invites.invite(folder, 'ana')}")
            for path in ("/play/conspiracy", "/play/exchange", "/play/unseal"):
                page.goto(served.url + path)
                yield f"ana {path}"
            page.goto(served.url + "/play/conspiracy")
            page.get_by_label("Move troops").check()
            page.locator("select[name=route]").select_option("Greywater Watch|Moat Cailin")
            page.get_by_role("button", name="See the combat first").click()
            page.wait_for_load_state()
            yield "ana: the combat's preview"

        found = in_every_look(chromium, resolving)
        cok = Cok(folder)
        assert cok("ntk", "resolve", "ana", "greyjoy", "maester", "--move", "Greywater Watch", "Moat Cailin",
                   "footman").exit_code == 0  # fmt: skip
        assert cok("ntk", "resolve", "bo", "stark", "maester", "--draw").exit_code == 0
        context = chromium.new_context(viewport=PHONE)  # ana's move into Winterfell opens the combat's table
        page = context.new_page()
        page.goto(f"{served.url}/join/{invites.invite(folder, 'ana')}")
        page.goto(f"{served.url}/play/conspiracy")
        page.get_by_label("Muster troops, then move troops").check()
        page.locator("select[name=route]").select_option("Moat Cailin|Winterfell")
        page.get_by_role("button", name="Resolve the agent").click()
        assert "Next: bo to play a card" in page.locator("main").inner_text()
        context.close()

        def fighting(page: Any, look: str) -> Iterator[str]:
            page.goto(f"{served.url}/join/{invites.invite(folder, 'bo')}")
            page.goto(served.url + "/play/conspiracy")
            assert re.search("combat", page.locator("main").inner_text())
            yield "bo: his card in the combat"
            page.goto(f"{served.url}/join/{invites.invite(folder, 'Ann', organiser=True)}")
            for path in ("/play/conspiracy", "/play/conspiracy?player=bo", "/play/begin"):
                page.goto(served.url + path)
                yield f"organiser {path}"

        found += in_every_look(chromium, fighting)
    assert found == []


# ---------------------------------------------------------------- made for a thumb


#: Every part of a page a tap opens, opened: the Dispute form, the news of a newer page.
OPENED = """() => { document.querySelectorAll('details').forEach((d) => d.open = true);
  document.querySelectorAll('.cok-news p').forEach((p) => p.hidden = false); }"""


def test_the_headers_box_its_news_and_the_logs_pages_are_44_px_to_a_thumb(
    chromium: Any, example: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #49: on the held-out game night the Confirm and Dispute buttons were 40 px tall,
    'Show them' 95×18, the log's period links 35 px and the dispute's reason field 39 px. Each
    served page is opened as its HTML with the server's style sheets (log pages of 5 entries)."""
    import warnings

    from cok.render import site
    from cok.rulesets.clash_of_kings.site import pages, shown
    from cok.serve.app import create_app

    from .browser import small_taps

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    monkeypatch.setattr(shown, "SERVED_PAGE_ENTRIES", 5)
    monkeypatch.setattr(pages, "SERVED_PAGE_ENTRIES", 5)
    site._FOLDS.clear()
    record(example, [Draft("battle", {"players": ["tim", "matt"], "location": "Ghost Hill",
                                       "vp": {"tim": 7, "matt": 5}})], by=Who("tim"))  # fmt: skip
    with TestClient(create_app(example)) as client:
        client.get(f"/join/{invites.invite(example, 'matt')}")
        css = client.get("/style.css").text + client.get("/_cok/serve.css").text
        found = {}
        for size in (PHONE, DESKTOP):
            context = chromium.new_context(viewport=size)
            page = context.new_page()
            for path in ("/", "/log.html"):
                page.set_content(client.get(path).text.replace('<script src="/_cok/live.js" defer></script>', ""))
                page.add_style_tag(content=css)
                page.evaluate(OPENED)
                if path == "/":
                    assert page.locator(".cok-confirm button", has_text="Dispute").is_visible()
                    assert page.locator(".cok-news a", has_text="Show them").is_visible()
                else:
                    assert page.locator("nav.log-pages a").count() >= 2
                found[f"{size['width']} {path}"] = small_taps(page)
            context.close()
    assert {k: v for k, v in found.items() if v} == {}


def test_the_bar_names_who_recorded_a_result_by_name_without_its_id(example: Path) -> None:
    """Issue #49: "tim recorded … a3f9c2" became "Tim recorded …": a person's name, no event id."""
    import warnings

    from cok.serve.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    done = record(example, [Draft("battle", {"players": ["tim", "matt"], "location": "Ghost Hill",
                                              "vp": {"tim": 7, "matt": 5}})], by=Who("tim"))  # fmt: skip
    with TestClient(create_app(example)) as client:
        client.get(f"/join/{invites.invite(example, 'matt')}")
        box = client.get("/").text.split('<section class="cok-confirm"', 1)[1].split("</section>", 1)[0]
    assert "Tim</bdi> recorded" in box and "tim</bdi>" not in box
    shown_text = re.sub(r"<[^>]+>", " ", box)
    assert done.events[0].id not in shown_text and "<code>" not in box


# ---------------------------------------------------------------- refusals in the game's words


def test_a_question_page_never_shows_a_field_name(example: Path) -> None:
    """Issue #49: a question the page had no legend for showed its field ("Bonus cp"); now the
    game's words for it, else "Your answer"."""
    from cok.serve.server import Server
    from cok.service.questions import Question

    env = Server(example).env()
    for field in ("bonus_cp", "winner_id", "first_player"):
        asked = Question("choice", field, "which one?", options=("tim", "matt"))
        page = env.get_template("question.html").render(
            root="", bar="", campaign="C", question=asked, said="Which one?", people={"tim": "Tim", "matt": "Matt"},
            drafts="[]", answers="{}", csrf="", status=409, carried_once="x",
        )  # fmt: skip
        legend = re.search(r"<legend>(.*?)</legend>", page)
        assert legend and field not in legend[1] and field.replace("_", " ") not in legend[1].lower(), legend


def test_a_refusal_says_what_to_change_and_leads_back_to_the_form(example: Path) -> None:
    """Issue #49: a refusal of the rules says to change on the form what it says (not "Go back"
    to a page it did not link), with a link back to that form; a missing page is told as one,
    with no word about forms; the 4xx codes stay."""
    import warnings

    from cok.serve.app import create_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    with TestClient(create_app(example)) as client:
        client.get(f"/join/{invites.invite(example, 'tim')}")
        form = "/play/battle?player=tim&opponent=matt"
        csrf = re.search(r'name="csrf" value="([^"]+)"', client.get(form).text)
        assert csrf
        sent = {"csrf": csrf[1], "a": "tim", "b": "matt", "location": "Nowhere", "vp:tim": "5", "vp:matt": "3"}
        refused = client.post("/play/battle", data=sent, headers={"referer": f"http://testserver{form}"})
        missing = client.get("/no-such-page")
    assert refused.status_code == 422 and missing.status_code == 404
    main = refused.text.split("<main", 1)[1]
    assert "Change on the form what is said above" in main and f'href="{form.replace("&", "&amp;")}"' in main
    assert "Back to the form" in main and "Nowhere" in main
    lost = missing.text.split("<main", 1)[1]
    assert "Not found" in lost and "form" not in lost


# ---------------------------------------------------------------- a live region


def test_a_page_that_refreshes_itself_says_so_in_its_live_region(chromium: Any, example: Path) -> None:
    """Issue #49: a page reloaded by live.js when anyone records said nothing to a screen reader;
    its live region (role=status) now says that new events were recorded, and the newest."""
    from tests.serve.process import serving

    with serving(example) as served:
        context = chromium.new_context(viewport=PHONE)
        page = context.new_page()
        page.goto(served.url + "/activity")
        region = page.locator(".cok-news[role=status]")
        assert region.inner_text().strip() == ""
        record(example, [Draft("battle", {"players": ["tim", "matt"], "location": "Ghost Hill",
                                           "vp": {"tim": 7, "matt": 5}})], by=Who("tim"))  # fmt: skip
        page.wait_for_function(
            "() => (document.querySelector('.cok-news') || {}).textContent.includes('new events were recorded')",
            timeout=20000,
        )
        told = region.inner_text()
        context.close()
    assert "The newest: week 5 — Tim (attacker) beat Matt at Ghost Hill" in told, told

"""Mighty Kingdoms as the shared tests play it (`cok.core.scenarios`): two kingdoms set up,
then the first summer month begun, with simple battles and with Kings of War's."""

from __future__ import annotations

from cok.core.scenarios import Read, Scenario, Scenarios

ANA = ("kingdom", "ana", "--race", "Elves", "--capital", "Emberhold", "--city", "1,-4", "--fortress", "2,-5")
BO = ("kingdom", "bo", "--race", "Orcs", "--capital", "Greywater", "--city", "4,-1", "--fortress", "5,-1")
KINGDOMS = (
    (*ANA, "--villages", "0,-4", "0,-5", "--army", "1,-4", "--name", "Ana"),
    (*BO, "--villages", "3,0", "3,1", "--army", "4,-1"),
)

#: What a summer answers: its commands' documents, and the reads its pages ask.
SUMMER = (
    Read("kingdoms", command=("kingdoms",)),
    Read("armies", command=("armies",)),
    Read("armies", "?player=Ana", ("armies", "--player", "Ana")),
    Read("battles", command=("battles",)),
    Read("status", command=("status",)),
    Read("offers", "?player=Ana"),
    Read("targets", "?player=ana&army=ana-1"),
    Read("towers", "?player=ana"),
    Read("phase"),
    Read("recalls"),
    Read("rules"),
    Read("artefacts"),
    Read("picture"),
)

SCENARIOS = Scenarios(
    scenarios=(
        Scenario("summer", (*KINGDOMS, ("begin",)), settings={"advanced": ["wizards-towers"]}, reads=SUMMER),
        Scenario(
            "kings-of-war",
            (
                *((*kingdom, "--list", f"{kingdom[1]}'s list") for kingdom in KINGDOMS),
                ("begin",),
                ("order", "ana-1", "defend"),
            ),
            settings={"battles": "kings-of-war", "army_limit": 3},
            reads=SUMMER,
        ),
    ),
    wrong_entry="- type: kingdom\n  player: ana\n  race: orcs\n  capital: {value}\n  city: y\n  fortress: z\n"
    "  villages: [a, b]\n  army: x\n",
    map_line="n: water",
)

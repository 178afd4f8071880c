"""What happened, in sentences a player understands (for `cok log` and recording commands)."""

from __future__ import annotations

from cok.core.events import EventBase
from cok.rulesets.clash_of_kings.events import Adjust, Battle, Join, Painting, Week
from cok.rulesets.clash_of_kings.rules.outcomes import Adjusted, Fought, Joined, Painted, WeekStarted
from cok.rulesets.clash_of_kings.rules.state import State


def signed(cp: int) -> str:
    return f"+{cp}" if cp >= 0 else f"−{-cp}"


class Teller:
    """Tells outcomes using the players' display names."""

    def __init__(self, state: State) -> None:
        self.state = state

    def who(self, player: str | None) -> str:
        if player is None:
            return "nobody"
        found = self.state.players.get(player)
        return found.name if found else player

    def tell(self, outcome: object) -> str:
        if isinstance(outcome, Joined):
            how = {"named castle": "", "home castle": " (the faction's home)", "three territories": ""}[outcome.how]
            held = ", ".join(outcome.locations)
            return f"week {outcome.week} — {self.who(outcome.player)} ({outcome.faction}) joins, holding {held}{how}"
        if isinstance(outcome, WeekStarted):
            given = "" if outcome.limit_given else f" (+{outcome.limit - self.state.limit_of(outcome.week - 1)})"
            return f"week {outcome.week} begins — points limit {outcome.limit}{given}"
        if isinstance(outcome, Fought):
            return self.battle(outcome)
        if isinstance(outcome, Painted):
            return self.painting(outcome)
        if isinstance(outcome, Adjusted):
            who, cp = self.who(outcome.player), signed(outcome.cp)
            return f"week {outcome.week} — {who} {cp} CP by the organiser: {outcome.reason}"
        return str(outcome)  # pragma: no cover

    def untold(self, event: EventBase) -> str:
        """An event the rules never applied (a voided one), told from its fields."""
        if isinstance(event, Battle):
            won = f", won by {self.who(event.winner)}" if event.winner else ""
            return f"battle {self.who(event.players[0])} v {self.who(event.players[1])} at {event.location}{won}"
        if isinstance(event, Join):
            held = event.castle or ", ".join(event.territories or []) or "their home castle"
            return f"{self.who(event.player)} ({event.faction}) joins, holding {held}"
        if isinstance(event, Week):
            return "a new week begins" + (f" — points limit {event.limit}" if event.limit else "")
        if isinstance(event, Adjust):
            return f"{self.who(event.player)} {signed(event.cp)} CP by the organiser: {event.reason}"
        if isinstance(event, Painting):
            return f"{self.who(event.player)} painting" + (f" (week {event.week})" if event.week else "")
        return event.type  # pragma: no cover - every Clash of Kings event is told above

    def battle(self, f: Fought) -> str:
        a, b = f.players
        if f.winner is None:
            head = f"week {f.week} — {self.who(a)} and {self.who(b)} drew at {f.location}"
        else:
            role = ""
            if f.attacker is not None:
                role = " (attacker)" if f.winner == f.attacker else " (defender)"
            head = f"week {f.week} — {self.who(f.winner)}{role} beat {self.who(f.loser)} at {f.location}"
        how = self.decided(f)
        if how:
            head += f" {how}"
        ruling = f" (organiser's ruling: {f.override})" if f.override else ""
        return f"{head}{ruling}; {self.occupation(f)}"

    def decided(self, f: Fought) -> str:
        if f.won_by == "result":
            vp = f.vp or {}
            if f.winner is None or f.loser is None or not {f.winner, f.loser} <= set(vp):
                return ""
            return f"(victory points {vp[f.winner]}–{vp[f.loser]})"
        a, b = (f.winner, f.loser) if f.winner else f.players
        vp = f.vp or {}
        parts = f"on victory points {vp.get(a or '', 0)}–{vp.get(b or '', 0)}"
        if f.won_by == "victory points":
            return parts
        remaining = f.remaining or {}
        if remaining:
            parts += f", then points remaining {remaining.get(a or '', 0)}–{remaining.get(b or '', 0)}"
        if f.won_by == "points remaining":
            return parts
        if f.won_by == "attacker":
            return parts + ", and the attacker wins a tie"
        return parts

    def occupation(self, f: Fought) -> str:
        occ = f.occupation
        winner = self.who(f.winner)
        if not occ.occupied:
            why = {
                "draw": "a draw occupies nothing",
                "brotherhood": f"{winner} fought as the Brotherhood Without Banners, who never occupy",
                "already-held": f"{f.location} was already {winner}'s",
                "last-territory": f"{f.location} is {self.who(occ.previous)}'s last territory, which is never lost",
                "declined": f"{winner}, under supply lines, declined to occupy {f.location}",
            }[occ.unchanged or "draw"]
            return f"nothing changes: {why}"
        geo = self.state.geo
        text = f"{winner} occupies {f.location} ({signed(geo.value(f.location))} CP)"
        if occ.previous is not None:
            text += f", removing {self.who(occ.previous)}'s crest ({signed(-geo.value(f.location))} CP)"
        if occ.abandoned is not None:
            text += f", abandoning {occ.abandoned} ({signed(-geo.value(occ.abandoned))} CP, {occ.abandon_reason})"
        return text

    @staticmethod
    def banners_why(p: Painted) -> str:
        """Why a Raise the Banners claim earns less than its units and models are worth: the
        week's cap was reached by earlier claims, or the models wait for the next 4."""
        from cok.rulesets.clash_of_kings.rules.painting import BANNERS_CAP, MODELS_PER_POINT, banners_cp

        if p.banners < banners_cp(p.units, p.models):
            return f": Raise the Banners earns at most {BANNERS_CAP} CP a week, reached by this week's claims"
        if p.banners == 0:
            return f": {MODELS_PER_POINT} models make a point, and these count toward the next"
        return ""

    def painting(self, p: Painted) -> str:
        parts = []
        if p.fully_painted:
            parts.append("fully painted +1")
        if p.units or p.models:
            what = ", ".join(
                x
                for x in (
                    f"{p.units} unit{'s' * (p.units != 1)}" if p.units else "",
                    f"{p.models} model{'s' * (p.models != 1)}" if p.models else "",
                )
                if x
            )
            parts.append(f"raise the banners ({what}) {signed(p.banners)}{self.banners_why(p)}")
        if p.commissioned is not None:
            parts.append(f"painted a unit for {self.who(p.commissioned)} +1")
        return f"week {p.week} — {self.who(p.player)} painting: {', '.join(parts)} ({signed(p.cp)} CP)"

"""A paired comparison of two rule sets: what changed, by how much, and how sure it is.

``--compare`` plays game g of today's rules and game g of the variant on the same engine seed
and the same seats, so the luck of the deal falls on both alike and each game is a *pair*.
Every figure is a ratio of per-game sums, a(g) / b(g) summed over the games: the mean length
(a = rounds, b = 1), a rate such as the Super-Nova rate (a = 1 if it ended there), or a card's
win rate when played (a = the returns of the players who played a copy of it in game g, b =
how many did). Its standard error comes from the pairs: each game's linearized contribution
(a - R b) / mean(b) on the variant's side minus the default's, so what two rule sets share in a
game (the deal, the seat) cancels, and the players of one game count as one cluster (two
players of one game who both played a card are not two independent draws).

Each difference gets its 95% interval (normal, from that standard error) and a two-sided
p-value (the exact McNemar test for a yes/no figure such as the Super-Nova rate, whose
changes are few; else the normal's). The verdicts of one comparison's figures are a family:
Holm's step-down method holds the chance that *any* figure is called "changed" by chance at
:data:`ALPHA` (5%), where testing each at 5% would call one in twenty of a variant that
changes nothing. A figure resting on too few games or players is not tested (its verdict is
"no change found", with a note), and does not count in the family.

Where nothing was found, :attr:`Difference.detect_games` says how many games a side would find
a change of the size the designer names (``--detect 3``: 3 points of a rate, 3 rounds of the
length) four times in five, from the pairs' own spread, at the Bonferroni level of the family
(a little more than Holm needs: it errs on the side of enough games).

Pure Python (``math``): the page's workbench computes the same differences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from .game import GameResult

ALPHA = 0.05  # the chance of any false "changed" among one comparison's figures
POWER = 0.8  # detect_games: the chance of finding a change of the named size
MIN_GAMES = 20  # fewer pairs: not tested
DEFAULT_DETECT = 3.0  # the change size a comparison that found nothing reports games for
MIN_PLAYERS = 20  # a card played by fewer players on either side: not tested
CHANGED, NO_CHANGE = "changed", "no change found"


def normal_cdf(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def normal_quantile(q: float) -> float:
    """The standard normal's q-quantile, by bisection (``statistics`` pulls in ``decimal`` and
    ``fractions``, which the page would load for this alone)."""
    low, high = -40.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if normal_cdf(mid) < q else (low, mid)
    return (low + high) / 2


_Z95 = normal_quantile(0.975)


def card_names(players: int, variant: dict | None = None) -> dict[str, str]:
    """Each Academy card's id -> its name (the three Hijack 1-3 copies share a name)."""
    from ...rules import layout_for

    return {cid: str(card["name"]) for cid, card in layout_for(players, variant).special.items()}


def pooled_cards(names: Mapping[str, str]) -> dict[str, list[str]]:
    """Each card name -> its copies' ids, in the deck's order."""
    out: dict[str, list[str]] = {}
    for cid, name in names.items():
        out.setdefault(name, []).append(cid)
    return out


# -- one side's figure as per-game (a, b) ------------------------------------------------
Terms = Callable[[GameResult], tuple[float, float]]


def card_terms(copies: Sequence[str]) -> Terms:
    """A card's win rate when played: the returns of the players who played any copy of it
    in the game, and how many did (a player who played two copies counts once)."""
    ids = set(copies)

    def terms(r: GameResult) -> tuple[float, float]:
        seats = [s for s, played in enumerate(r.played) if ids.intersection(played)]
        return math.fsum(r.returns[s] for s in seats), float(len(seats))

    return terms


GAME_FIGURES: tuple[tuple[str, str, str, Terms], ...] = (
    ("rounds", "game length, rounds", "rounds", lambda r: (float(r.rounds), 1.0)),
    (
        "first_seat_win_rate",
        "first seat's win rate",
        "%",
        lambda r: (r.returns[r.first], 1.0),
    ),
    (
        "supernova_rate",
        "games ending at Super-Nova",
        "%",
        lambda r: (float(r.end == "supernova"), 1.0),
    ),
)
"""The game figures every comparison has: key, label, unit ("%": a rate, shown in points)."""


@dataclass(frozen=True)
class Estimate:
    """A ratio figure over games, with its standard error (clustered by game)."""

    value: float | None  # None: no game has any of it (a card nobody played)
    se: float
    n: int  # games
    weight: float  # sum of b: the games, or the players who played a card
    z: tuple[float, ...]  # each game's linearized contribution (a - R b) / mean(b)


def estimate(pairs: Sequence[tuple[float, float]]) -> Estimate:
    n = len(pairs)
    weight = math.fsum(b for _, b in pairs)
    if n == 0 or weight == 0:
        return Estimate(None, 0.0, n, weight, ())
    r = math.fsum(a for a, _ in pairs) / weight
    mean_b = weight / n
    z = tuple((a - r * b) / mean_b for a, b in pairs)
    return Estimate(r, _se(z), n, weight, z)


def _se(z: Sequence[float]) -> float:
    n = len(z)
    if n < 2:
        return 0.0
    m = math.fsum(z) / n
    return math.sqrt(math.fsum((x - m) ** 2 for x in z) / (n - 1) / n)


def interval(e: Estimate, unit: str) -> tuple[float, float] | None:
    """A side's 95% interval in the figure's unit (a rate's clipped to 0-100%)."""
    if e.value is None:
        return None
    scale = 100.0 if unit == "%" else 1.0
    low, high = e.value - _Z95 * e.se, e.value + _Z95 * e.se
    if unit == "%":
        low, high = max(0.0, low), min(1.0, high)
    return scale * low, scale * high


# -- the difference of two sides --------------------------------------------------------
@dataclass(frozen=True)
class Difference:
    """One figure, today's rules against the variant, on the same games."""

    figure: str  # "rounds", "first_seat_win_rate", "supernova_rate", "card:Hijack 1-3"
    label: str
    unit: str  # "%" (a rate, in percent; its difference in points) or "rounds"
    default: float | None
    variant: float | None
    diff: float | None
    ci95: tuple[float, float] | None
    p: float | None  # None: not tested (too few games or players)
    p_holm: float | None  # p adjusted for the family (Holm)
    verdict: str
    games: int
    sd_pair: float | None  # the spread of a game's paired difference (for detect_games)
    detect: float | None = None  # the change size the designer named
    detect_games: int | None = None  # games a side to find it, where nothing was found
    note: str = ""
    # the interval that goes with the verdict: wide enough for every tested figure of the
    # family at once (Bonferroni's level, 1 - 5%/figures); "changed" leaves out zero here
    ci_family: tuple[float, float] | None = None
    # no change found, and one of ``detect`` or more is ruled out: ci_family within +-detect
    ruled_out: bool = False

    def as_json(self) -> dict:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        return {
            "figure": self.figure,
            "label": self.label,
            "unit": self.unit,
            "default": r(self.default),
            "variant": r(self.variant),
            "diff": r(self.diff),
            "ci95": None if self.ci95 is None else [r(self.ci95[0]), r(self.ci95[1])],
            "ci_family": (
                None if self.ci_family is None else [r(self.ci_family[0]), r(self.ci_family[1])]
            ),
            "p": r(self.p) if self.p is None or self.p >= 0.001 else float(f"{self.p:.2e}"),
            "p_holm": (
                r(self.p_holm)
                if self.p_holm is None or self.p_holm >= 0.001
                else float(f"{self.p_holm:.2e}")
            ),
            "verdict": self.verdict,
            "games": self.games,
            "detect": self.detect,
            "detect_games": self.detect_games,
            "ruled_out": self.ruled_out,
            "note": self.note,
        }

    def words(self) -> str:
        """One line of the text report."""
        unit = " pts" if self.unit == "%" else " rds"
        if self.diff is None or self.ci95 is None:
            return f"{self.label}: {self.note or 'no figure'}"
        text = (
            f"{self.label}: {_fmt(self.default, self.unit)} -> {_fmt(self.variant, self.unit)}, "
            f"{self.diff:+.1f}{unit} [{self.ci95[0]:+.1f}, {self.ci95[1]:+.1f}]: {self.verdict}"
        )
        text += f" ({self.note})" if self.note else ""
        if self.ruled_out:
            text += f"; a change of {self.detect:g}{unit} or more ruled out"
        elif self.detect_games is not None and self.verdict == NO_CHANGE:
            text += f"; a change of {self.detect:g}{unit}: about {self.detect_games:,} games"
        return text


def _fmt(x: float | None, unit: str) -> str:
    if x is None:
        return "-"
    return f"{x:.1f}%" if unit == "%" else f"{x:.1f}"


def mcnemar_p(default: Sequence[float], variant: Sequence[float]) -> float:
    """The exact McNemar test's two-sided p-value for paired yes/no outcomes."""
    up = sum(1 for d, v in zip(default, variant, strict=True) if v > d)
    down = sum(1 for d, v in zip(default, variant, strict=True) if v < d)
    n = up + down
    if n == 0:
        return 1.0
    k = min(up, down)
    tail = math.fsum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(ps: Sequence[float | None]) -> list[float | None]:
    """Holm's adjusted p-values (None stays None and is not in the family)."""
    tested = sorted((p, i) for i, p in enumerate(ps) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(ps)
    running = 0.0
    for rank, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def _difference(
    figure: str,
    label: str,
    unit: str,
    terms: Terms,
    default: Sequence[GameResult],
    variant: Sequence[GameResult],
    min_weight: float,
) -> Difference:
    a_terms = [terms(r) for r in default]
    b_terms = [terms(r) for r in variant]
    d, v = estimate(a_terms), estimate(b_terms)
    scale = 100.0 if unit == "%" else 1.0
    n = len(default)

    def sc(x: float | None) -> float | None:
        return None if x is None else scale * x

    if d.value is None or v.value is None:
        return Difference(
            figure, label, unit, sc(d.value), sc(v.value), None, None, None, None,
            NO_CHANGE, n, None, note="not played on one side",
        )  # fmt: skip
    u = [zv - zd for zd, zv in zip(d.z, v.z, strict=True)]
    se = _se(u)
    diff = v.value - d.value
    ci = _clip((scale * (diff - _Z95 * se), scale * (diff + _Z95 * se)), unit)
    sd_pair = scale * se * math.sqrt(n)
    if n < MIN_GAMES or min(d.weight, v.weight) < min_weight:
        note = (
            f"not tested: fewer than {MIN_GAMES} games"
            if n < MIN_GAMES
            else f"not tested: played by fewer than {min_weight:g} players on a side"
        )
        return Difference(
            figure, label, unit, sc(d.value), sc(v.value), scale * diff, ci, None, None,
            NO_CHANGE, n, sd_pair, note=note,
        )  # fmt: skip
    binary = all(b == 1.0 and a in (0.0, 1.0) for a, b in (*a_terms, *b_terms))
    if binary:
        p = mcnemar_p([a for a, _ in a_terms], [a for a, _ in b_terms])
    elif se > 0:
        p = 2 * (1 - normal_cdf(abs(diff) / se))
    else:  # every pair differs by the same amount: no doubt about it, unless it is none
        p = 1.0 if diff == 0 else 0.0
    return Difference(
        figure, label, unit, sc(d.value), sc(v.value), scale * diff, ci, p, None,
        NO_CHANGE, n, sd_pair,
    )  # fmt: skip


def _clip(interval: tuple[float, float], unit: str) -> tuple[float, float]:
    """A difference of two rates lies within +-100 points."""
    if unit != "%":
        return interval
    return max(-100.0, interval[0]), min(100.0, interval[1])


def games_to_detect(
    sd_pair: float | None, size: float, family: int, alpha: float = ALPHA
) -> int | None:
    """Games a side that find a paired change of ``size`` with :data:`POWER`, at the
    Bonferroni level of a family of ``family`` figures; None when the pairs never differed."""
    if sd_pair is None or sd_pair <= 0 or size <= 0:
        return None
    z = normal_quantile(1 - alpha / (2 * max(family, 1))) + normal_quantile(POWER)
    return max(MIN_GAMES, math.ceil((z * sd_pair / size) ** 2))


def differences(
    default: Sequence[GameResult],
    variant: Sequence[GameResult],
    names: Mapping[str, str],
    detect: float | None = DEFAULT_DETECT,
    alpha: float = ALPHA,
) -> list[Difference]:
    """Every figure of a paired comparison: the game figures, then each Academy card by name
    (copies pooled), with Holm's verdicts at ``alpha`` for the family (smaller at each look
    of a run that looks several times: :func:`looks`). ``default`` and ``variant`` are the
    same games (game numbers) under the two rule sets; games only one side has are left out."""
    common = sorted({r.g for r in default} & {r.g for r in variant})
    by_g_d = {r.g: r for r in default}
    by_g_v = {r.g: r for r in variant}
    d_rs = [by_g_d[g] for g in common]
    v_rs = [by_g_v[g] for g in common]
    players = len(d_rs[0].returns) if d_rs else 0
    out = [
        _difference(key, label, unit, terms, d_rs, v_rs, MIN_GAMES)
        for key, label, unit, terms in GAME_FIGURES
    ]
    for name, copies in pooled_cards(names).items():
        terms = card_terms(copies)
        # a card every seat of every game played (on both sides) is a fair share by construction
        everyone = all(terms(r)[1] == players for r in (*d_rs, *v_rs))
        if d_rs and everyone:
            continue
        if not any(terms(r)[1] for r in (*d_rs, *v_rs)):
            continue  # played on neither side: nothing to say
        label = f"{name}: win rate of its players" + (
            f" ({len(copies)} copies)" if len(copies) > 1 else ""
        )
        out.append(_difference(f"card:{name}", label, "%", terms, d_rs, v_rs, MIN_PLAYERS))
    adjusted = holm([x.p for x in out])
    family = sum(1 for x in out if x.p is not None)
    z_family = normal_quantile(1 - alpha / (2 * max(family, 1)))
    final = []
    for x, p_holm in zip(out, adjusted, strict=True):
        changed = p_holm is not None and p_holm < alpha
        size = None
        games = None
        if detect is not None:
            size = detect
            if not changed and x.p is not None:  # an untested figure's spread is no guide
                games = games_to_detect(x.sd_pair, detect, family, alpha)
        wide = None
        if x.diff is not None and x.sd_pair is not None and x.p is not None:
            half = z_family * x.sd_pair / math.sqrt(x.games)
            wide = _clip((x.diff - half, x.diff + half), x.unit)
        verdict = CHANGED if changed else NO_CHANGE
        out_of_reach = (
            not changed
            and size is not None
            and wide is not None
            and -size < wide[0] <= wide[1] < size
        )
        final.append(
            replace(
                x,
                p_holm=p_holm,
                verdict=verdict,
                detect=size,
                detect_games=games,
                ci_family=wide,
                ruled_out=out_of_reach,
            )  # fmt: skip
        )
    return final


def looks(first: int, most: int) -> list[int]:
    """The games a side at each look of a run that plays on until it knows (``--until``):
    ``first``, then doubling, the last ``most``."""
    sizes = [first]
    while sizes[-1] < most:
        sizes.append(min(most, 2 * sizes[-1]))
    return sizes


def decided(diffs: Sequence[Difference]) -> bool:
    """Whether a run that plays on until it knows can stop: every figure is changed, or a
    change of the named size is ruled out, or it has no difference to find (a card that one
    side never played)."""
    return all(d.verdict == CHANGED or d.ruled_out or d.diff is None for d in diffs)


def verdict_lines(diffs: Sequence[Difference], title: str = "", alpha: float = ALPHA) -> list[str]:
    """The differences as the text report's section (``alpha``: each look's, see looks)."""
    changed = sum(1 for d in diffs if d.verdict == CHANGED)
    tested = sum(1 for d in diffs if d.p is not None)
    games = diffs[0].games if diffs else 0
    head = title or "what the variant changed"
    lines = [
        f"{head} (the same {games} games paired; 95% intervals; {changed} of {tested} "
        f"figures tested 'changed', Holm at {100 * alpha:.3g}% for the family):"
    ]
    lines += [f"  {'*' if d.verdict == CHANGED else ' '} {d.words()}" for d in diffs]
    return lines

"""The lessons, in the order the tutorial plays them.

Each is a small real position of the game (docs/NOTATION.md) with one goal. The quotes
are the rulebook's own words (/work/shared/rulebook, revision 27d); the tests find each
one in the rulebook text and its number in RULE-INDEX.md. To add a lesson see
docs/TUTORIAL.md.
"""

from __future__ import annotations

from ..rules import State
from ..rules import move as mv
from .lesson import Lesson

A, B = 0, 1


def _space(s: State, name: str) -> tuple[str, int]:
    """(the Shards on ``name`` bottom first, the seat of the ship there or -1)."""
    i = s.layout.name_to_space[name]
    return s.pile[i], s.ship[i]


def _ships(s: State, seat: int) -> list[str]:
    return [s.layout.space_names[i] for i, o in enumerate(s.ship) if o == seat]


def _banked(s: State, seat: int = A) -> str:
    return "".join(s.players[seat].bays)


def _specials_in_hand(s: State) -> list[str]:
    return [c for c in s.players[A].hand if c in s.layout.special]


# -- goals -------------------------------------------------------------------------------
def _about_done(s: State) -> bool:
    pile, owner = _space(s, "d1")
    return owner == A and "y" in pile


def _launch_done(s: State) -> bool:
    return len(_ships(s, A)) == 2


def _orbit_done(s: State) -> bool:
    pile, owner = _space(s, "d3")
    return owner == A and pile.startswith("y")


def _chain_done(s: State) -> bool:
    pile, owner = _space(s, "d3")
    return owner == A and "k" in pile and "y" in pile


def _jump_done(s: State) -> bool:
    home = [g for g in ("a0", "b0", "c0", "d0") if _space(s, g) == ("y", A)]
    return bool(home)


def _unload_done(s: State) -> bool:
    return len(_banked(s)) == 3 and s.track_pos == 3


def _cargo_done(s: State) -> bool:
    return [b["points"] for b in s.score_breakdown(A)["bays"]] == [6, 3, 11]


def _hijack_done(s: State) -> bool:
    pile, owner = _space(s, "c6")
    return owner == A and pile.startswith("y") and _space(s, "c9") == ("k", B)


FACE_UP_AT_START = ("s1", "s2", "s3")


def _upgrade_done(s: State) -> bool:
    hand = _specials_in_hand(s)
    from_face = [c for c in hand if c in FACE_UP_AT_START]
    # the deck's way replaces every face-up card (R43); taking one replaces one (R42)
    replaced = not any(c in FACE_UP_AT_START for c in s.face_up)
    return len(hand) == 2 and len(from_face) == 1 and replaced


def _special_done(s: State) -> bool:
    pile, owner = _space(s, "b0")
    return "r" in _banked(s) and owner == A and "k" in pile


def _asteroid_shards(s: State) -> int:
    return sum(len(s.pile[a]) for a in s.layout.asteroids)


def _spawn_done(s: State) -> bool:
    placing = any(m.kind == mv.SPAWN for m in s.legal_moves())
    return s.track_pos == 1 and not placing and _asteroid_shards(s) == 4


def _expansion_done(s: State) -> bool:
    return s.removed == 1 and s.players[A].ships_lost == 0


def _special_scoring_done(s: State) -> bool:
    groups = s.score_breakdown(A)["specials"]
    return any(g["colour"] == "y" and g["size"] == 3 for g in groups)


def _supernova_done(s: State) -> bool:
    scores = s.scores()
    return s.is_over() and scores[A] > scores[B]


# -- the lessons -------------------------------------------------------------------------
# Boards list rings a (innermost, next to the star) to d, twelve spaces each; your
# Jump-Gates are a0 b0 c0 d0 (seat A), the opponent's a4 b4 c4 d4; Asteroids on 2, 6, 10.
LESSONS: tuple[Lesson, ...] = (
    Lesson(
        id="about",
        title="What the game is about",
        lead=(
            "Gather Shards under your ships, bring them home to your Star Base and bank "
            "them in its Cargo Bays, before the star goes Super-Nova."
        ),
        intro=(
            "The star in the middle is surrounded by four rings of spaces. Your Star Base is "
            "at the top: its Jump-Gates are the marked spaces in line with it, one on each "
            "ring. Shards lie on the rings (the Asteroids are where new ones appear)."
        ),
        goal="Play Orbit One upright and move your ship one space onto the yellow Shard.",
        position="""
            nova 2p
            board 12/2,k,9/6,r,5/A,y,8,k,1
            A hand=b1,b4,b6,b8,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b1u", "@*", ">*"),
        teaches="gathering a Shard with one Orbit",
        done=_about_done,
        solution=("b1u", ">d1"),
        after=(
            "The yellow Shard is now under your ship. Every turn you play cards like this "
            "one to move your ships, and the lessons that follow show each kind of card."
        ),
        rule="R1",
        quote=(
            "the most valuable collection of Energy Shards and Special ability cards "
            "before the Star goes Supernova"
        ),
        rules=("R1", "R10", "R11", "R18", "R19", "R20", "R21"),
        hint="Your ship is on d0, at the top; the yellow Shard is the next space clockwise.",
    ),
    Lesson(
        id="launch",
        title="Launch",
        intro=(
            "Your three ships wait in the Dock of your Star Base. Launching one costs no "
            "card: tap one of your own Jump-Gates that is open (no ship and no Shard on it)."
        ),
        goal="Launch a ship onto each of your two open Jump-Gates.",
        position="""
            nova 2p
            board 12/B,11/k,5,r,5/12
            A hand=b1,b4,b6,b8,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("L*",),
        teaches="Launch",
        done=_launch_done,
        solution=("La0", "Ld0"),
        after=(
            "Two ships are in play, and you have not played a card. You may launch any time "
            "in your turn, as often as you have ships in the Dock and open gates."
        ),
        rule="R44",
        quote=(
            "Any time during your turn, you can move a ship from your Dock to any of your "
            "own open Jump-Gates."
        ),
        rules=("R13", "R20", "R44"),
    ),
    Lesson(
        id="orbit",
        title="Orbit",
        intro=(
            "Orbit moves one of your ships exactly the card's number of spaces along its "
            "ring, either way. It passes over ships and Shards, but never lands on a ship. "
            "Landing on a Shard picks it up, at the bottom of the stack under your ship."
        ),
        goal=(
            "Orbit Three clockwise: pass over the black Shard and the opponent's ship and "
            "land on the yellow Shard."
        ),
        position="""
            nova 2p
            board 12/12/12/rA,k,B,y,8
            A hand=b5,b1,b2,b6,b7 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b5u", "@*", ">*"),
        teaches="Orbit",
        done=_orbit_done,
        solution=("b5u", ">d3"),
        after=(
            "The black Shard you passed over stayed where it was; the yellow one you landed "
            "on went to the bottom of your stack. Your ship carried its red Shard along: a "
            "ship keeps its Shards unless you leave some behind, which you may (R33). In a "
            "game, a loaded ship's buttons (Keep all Shards, Leave 1...) set that before you "
            "tap where it goes."
        ),
        rule="R32",
        quote=(
            "If you land on a Shard at the end of your move, it is added to the bottom of "
            "the Stack under your ship."
        ),
        rules=("R22", "R28", "R29", "R30", "R31", "R32", "R33", "R34"),
        hint="The yellow Shard is three spaces clockwise.",
    ),
    Lesson(
        id="chain",
        title="Chaining actions",
        intro=(
            "One card, one action. To make a second action in the same turn, the two must be "
            "joined by a chain link: any basic card played sideways."
        ),
        goal="Pick up both Shards this turn: Orbit One, then a card sideways, then Orbit Two.",
        position="""
            nova 2p
            board 12/2,k,9/12/A,k,1,y,8
            A hand=b1,b3,b6,b8,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b1u", "b3u", "b6s", "@*", ">*"),
        teaches="chaining two Orbits with a card played sideways",
        done=_chain_done,
        solution=("b1u", ">d1", "b6s", "b3u", ">d3"),
        after=(
            "Orbit, link, Orbit: with basic cards alone you can make up to three actions in "
            "a turn, each joined to the next by a card played sideways."
        ),
        rule="R23",
        quote=("The Basic Action cards are rotated 90° to Chain together additional actions."),
        rules=("R12", "R23", "R24"),
        hint="Orbit One first (onto the black Shard), then the link, then Orbit Two.",
    ),
    Lesson(
        id="jump",
        title="Jump",
        intro=(
            "Jump moves a ship and its Shards from one Jump-Gate to any other open one: a "
            "gate with no ship and no Shard on it. Your ship is on the opponent's gate."
        ),
        goal="Jump your ship home to one of your own open Jump-Gates, with its yellow Shard.",
        position="""
            nova 2p
            board 12/12/B,11/k,3,yA,7
            A hand=b8,b1,b2,b6,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b8u", "@*", ">*"),
        teaches="Jump",
        done=_jump_done,
        solution=("b8u", ">b0"),
        after=(
            "Your stack is home on your own gate, ready to be unloaded. A gate with a ship "
            "or a Shard on it (like your c0 and d0) is not open, so no one can jump there."
        ),
        rule="R35",
        quote=(
            "Jump - Move your ship and any Shards accumulated under it from one Jump-Gate "
            "to any other unoccupied Jump-Gate on the board (No ships or Shards)."
        ),
        rules=("R19", "R35"),
        hint="Your own open gates are a0 and b0, at the top.",
    ),
    Lesson(
        id="unload",
        title="Unload and the Expansion Track",
        intro=(
            "Unload works from one of your own Jump-Gates: the ship goes back to the Dock "
            "and its Shards go into your Cargo Bays one at a time, top first, each into the "
            "bay you choose. Every Unload moves the Expansion Track token one space on."
        ),
        goal="Play the Orbit Two / Unload card rotated and bank the three Shards from c0.",
        position="""
            nova 2p track=2
            board 12/12/kryA,11/3,rA,8
            A hand=b3,b1,b2,b6,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b3r", "@*", "B*"),
        teaches="Unload (a card rotated for its bottom action)",
        done=_unload_done,
        solution=("b3r", "B0", "B0", "B0"),
        after=(
            "Your ship is back in the Dock and the Shards are banked, the yellow one first. "
            "The Expansion Track token moved one space: here a blank space, but the next ones "
            "make new Shards appear or the star grow."
        ),
        rule="R38",
        quote="Unload the stack of Shards, One at a time from the top down.",
        rules=("R22", "R36", "R37", "R38", "R45", "R46"),
        hint="Only the ship on your own gate c0 can unload.",
    ),
    Lesson(
        id="cargo",
        title="Cargo Bay scoring",
        intro=(
            "At the end each bay is spread out in the order its Shards went in: three "
            "different Shards in a row score 10, two different 5, a single Shard 1. Your "
            "bays score 5, 2 and 10 now."
        ),
        goal="Unload your stack so that your bays score the rulebook's example: 6 + 3 + 11 = 20.",
        position="""
            nova 2p track=2
            board 12/12/kyrA,11/5,y,6
            A bays=kr,yy,kry hand=b10,b1,b2,b6,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b10u", "@*", "B*"),
        teaches="Cargo Bay scoring",
        done=_cargo_done,
        solution=("b10u", "B0", "B1", "B2"),
        after=(
            "6 + 3 + 11 = 20. Each bay is read in the order its Shards went in: three "
            "different in a row 10, two 5, one 1. The order you unload in is worth points."
        ),
        rule="R50",
        quote=(
            "Spread out each stack of Shards from your Cargo Bays, without changing the "
            "order in which they were placed."
        ),
        rules=("R50", "R51", "R52", "R53", "R54"),
        hint="Bay 1 wants a red (5 + 1), bay 2 a yellow, bay 3 a fourth Shard after its set.",
    ),
    Lesson(
        id="hijack",
        title="Hijack",
        intro=(
            "Hijack pushes an opponent's ship next to yours away along the ring, as many "
            "spaces as your stack is high, ship included. Its bottom Shard stays behind, and "
            "your ship moves onto it, claiming it."
        ),
        goal=(
            "Hijack the opponent's stack beside you with your three-high stack, as in the "
            "rulebook's example."
        ),
        position="""
            nova 2p
            board 12/12/5,krA,ykB,5/A,11
            A hand=b11,b1,b3,b6,b8 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b11u", "@*", "!*"),
        teaches="Hijack",
        done=_hijack_done,
        solution=("b11u",),
        after=(
            "Your stack of three pushed the opponent three spaces; its bottom Shard, the "
            "yellow one, stayed behind, and your ship moved onto it and claimed it."
        ),
        rule="R41",
        quote="The opponent's bottom Shard is left behind.",
        rules=("R39", "R41"),
        hint="Your stack on c5 is next to the opponent's on c6.",
    ),
    Lesson(
        id="upgrade",
        title="Upgrade",
        intro=(
            "Upgrade takes a Special card from the Space Academy into your hand: one of the "
            "three face-up cards (the gap is refilled from the Academy Deck), or the top "
            "card of the deck, after which the three face-up cards are replaced."
        ),
        goal=(
            "Upgrade twice, joined by a link: first take a face-up card, then the top card "
            "of the Academy Deck."
        ),
        position="""
            nova 2p
            board 12/2,k,9/6,r,5/3,y,8
            A hand=b6,b7,b1,b2,b10 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b6r", "b7r", "b1s", "U*"),
        teaches="Upgrade (cards rotated for their bottom action)",
        done=_upgrade_done,
        solution=("b6r", "U1", "b1s", "b7r", "UD"),
        after=(
            "Two Special cards are in your hand: play them as links, or for their action "
            "with a Shard of their colour banked. They score at the end, too."
        ),
        rule="R42",
        quote=(
            "Take a card from the Space Academy into your hand, then immediately refill the "
            "empty space from the Academy Deck."
        ),
        rules=("R42", "R43"),
        hint="Take a face-up card first; the deck's way replaces all three face-up cards.",
    ),
    Lesson(
        id="special",
        title="Special cards",
        intro=(
            "A Special card played is always a chain link. With a Shard of its colour in "
            "your Cargo Bays it also performs its action: your yellow Orbit 2-5 card, "
            "rotated, Unloads. This is the rulebook's card-play example."
        ),
        goal=(
            "Play the rulebook's row: Orbit One, a link, Jump, the yellow Special rotated "
            "(link and Unload), Orbit Two onto the black Shard."
        ),
        position="""
            nova 2p track=2
            board 12/k,9,A,1/12/B,2,rA,8
            A bays=y,-,- hand=b2,b6,b8,s23,b4,s2 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b2u", "b6s", "b8u", "s23r", "b4u", "@*", ">d4", ">?0", "B*"),
        teaches="the rulebook's card-play row with a Special card",
        done=_special_done,
        solution=("b2u", "@d3", ">d4", "b6s", "b8u", ">c0", "s23r", "B1", "b4u", ">b0"),
        after=(
            "Five cards, four actions: the Special was the link between Jump and Orbit Two "
            "and, since a yellow Shard is banked, an Unload too. Without a Shard of its "
            "colour a Special is a link only (your black Disrupt, here)."
        ),
        rule="R26",
        quote=(
            "If you have an Energy Shard stored in your cargo Bay, matching the symbol on "
            "the Special Action card, you can perform the action shown on the top of the "
            "card in addition to the Chain Action."
        ),
        rules=("R25", "R26", "R27", "R70"),
        hint="Orbit One takes your red stack from d3 onto the opponent's gate d4.",
    ),
    Lesson(
        id="spawn",
        title="Spawn Energy",
        intro=(
            "The next space of the Expansion Track is Spawn Energy: when an Unload reaches "
            "it, each player draws a Shard from the bag and puts it on an Asteroid, starting "
            "with the player who unloaded."
        ),
        goal="Unload your Shard, then place the Shard you draw on an Asteroid.",
        position="""
            nova 2p
            board 12/2,k,9/yA,5,r,5/5,k,6
            A hand=b10,b1,b2,b6,b11 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b10u", "@*", "B*", "[*]*"),
        teaches="Spawn Energy",
        done=_spawn_done,
        solution=("b10u", "B0", "*d10"),
        after=(
            "You placed your Shard and the opponent placed theirs: new Shards to race for. "
            "A new Shard goes under anything already on its Asteroid."
        ),
        rule="R47",
        quote=(
            "Each player draws an Energy Shard from the bag and adds it to any space on the "
            "board containing an Asteroid."
        ),
        rules=("R8", "R45", "R47"),
    ),
    Lesson(
        id="expansion",
        title="Star Expansion",
        intro=(
            "The next space of the Expansion Track is a Star Expansion: when an Unload "
            "reaches it, a ring covers the innermost orbit, and every ship and Shard on it "
            "is consumed. Your ship on a0 is on the innermost ring."
        ),
        goal="Make the star expand with an Unload, without losing a ship.",
        position="""
            nova 2p track=3
            board yA,5,B,5/12/6,r,5/kA,11
            A hand=b9,b8,b6,b1,b2 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b9u", "b8r", "b6s", "@*", ">?0", "B*"),
        teaches="the Star Expansion",
        done=_expansion_done,
        solution=("b9u", "@a0", ">b0", "b6s", "b8r", "@d0", "B0"),
        after=(
            "The innermost ring is gone, with the opponent's ship that was on it. There are "
            "three Expansion Rings: watch the track, and keep your ships away from the star."
        ),
        rule="R48",
        quote=(
            "The smallest available Expansion Ring is placed on the centre of the board "
            "covering the inner-most Orbital ring."
        ),
        rules=("R45", "R48"),
        hint="Unloading now would leave your ship on a0 to the star: move it or unload it.",
    ),
    Lesson(
        id="special-scoring",
        title="Special card scoring",
        intro=(
            "At the end, your Special cards (hand, draw pile and discard pile) score by "
            "their Shard symbol: three of the same symbol 6 points, two 3, one 1. You hold "
            "two yellow ones."
        ),
        goal="Upgrade to make a set of three yellow Special cards.",
        position="""
            nova 2p
            board 12/2,k,9/6,r,5/3,y,8
            A hand=b6,s21,s22,b1,b2 draw=*
            B hand=b1,b2,b3,b4,b5 draw=*
            academy face=s9,s23,s3 deck=*
        """,
        offers=("b6r", "U*"),
        teaches="Special card scoring",
        done=_special_scoring_done,
        solution=("b6r", "U2"),
        after="Three yellow symbols: 6 points at the end, instead of 3 for the pair.",
        rule="R56",
        quote="6 points for each set of three Matching Symbols",
        rules=("R55", "R56", "R57"),
        hint="The yellow card is the face-up Orbit 2-5.",
    ),
    Lesson(
        id="supernova",
        title="Super-Nova",
        intro=(
            "The next space of the Expansion Track is Super-Nova: the game ends at once and "
            "the points are counted. The star has already covered three rings. You have 17 "
            "points, the opponent 20."
        ),
        goal="Unload your yellow Shard where it wins you the game.",
        position="""
            nova 2p track=12 removed=3
            board 12/12/12/yA,5,r,5
            A bays=kr,yy,kry hand=b10,b1,b2,b6,b11 draw=*
            B bays=krr,yyy,kryk hand=b1,b2,b3,b4,b5 draw=*
        """,
        offers=("b10u", "@*", "B*"),
        teaches="Super-Nova",
        done=_supernova_done,
        solution=("b10u", "B0"),
        after=(
            "Super-Nova: the game is over. Black red yellow is a set of three, 10 points, "
            "and 22 beats 20. Now play a whole game."
        ),
        rule="R49",
        quote=(
            "Super-Nova - Once this space is reached, the game ends immediately. Players "
            "count their points to determine the winner."
        ),
        rules=("R49", "R59"),
        hint="A set of three different Shards scores 10.",
    ),
)

BY_ID = {lesson.id: lesson for lesson in LESSONS}

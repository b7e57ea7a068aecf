"""Playing the Game (rulebook): a turn's four steps. Placing citizens (with the crossing's
actions) and constructing a Building are decisions (placing.py, actions.py, construction.py); the
end of the turn is an automatic step: Cerdà Scoring, drawing two citizens, the next turn or the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from eixample.core.decisions import Frame
from eixample.games.barcelona import cerda_scoring, game_end
from eixample.games.barcelona.frames import AUTOMA, BUILD_PHASE, END_TURN, PLACE, SOLO_SEAT

if TYPE_CHECKING:
    from eixample.games.barcelona.state import BarcelonaState


def start_turn(s: BarcelonaState, p: int) -> None:
    s.turn_player = p
    s.progress = False
    if s.solo and p == SOLO_SEAT:  # Gaudí's Assistant: three automatic steps (solo.py)
        s.stack = [(END_TURN, p), (AUTOMA, p, 2), (AUTOMA, p, 1), (AUTOMA, p, 0)]
        return
    s.stack = [(END_TURN, p), (BUILD_PHASE, p), (PLACE, p)]


def end_turn_step(s: BarcelonaState, frame: Frame) -> None:
    end_turn(s, frame[1])


def end_turn(s: BarcelonaState, p: int) -> None:
    cerda_scoring.run_cerda_scorings(s)
    hand = list(s.hands[p])
    while len(hand) < 2 and not (s.solo and p == SOLO_SEAT):  # the Assistant draws no hand
        kind = s._draw_citizen()
        if kind < 0:
            break
        hand.append(kind)
    s.hands[p] = tuple(hand)
    s.floor = s.n_actions  # a random draw: nothing before it can be undone
    s.turns += 1
    s.idle_turns = 0 if s.progress else s.idle_turns + 1
    nxt = (p + 1) % s.n
    if nxt == s.first_player and (s.end_triggered or s.idle_turns >= s.n):
        if not s.end_triggered:
            idle_end(s)
        game_end.final_scoring(s)
        return
    if nxt == s.first_player and s.options.get("rotate_first_player"):  # a house rule (balance.md)
        nxt = s.first_player = (nxt + 1) % s.n
    start_turn(s, nxt)


def idle_end(s: BarcelonaState) -> None:
    """A whole round in which nobody placed citizens or built: nothing can change any more (no
    citizens, no actions, no coins), so the game ends after that round as if its end had been
    triggered. Every Cerdà Scoring tile not scored yet is scored now, in section order, as the
    rulebook's game always scores three (the disks go back after the first and second only).
    Rules 1 scored none of them."""
    s._say(("bcn.idleEnd", {}))
    if s.rules_version < 2:
        return
    for section in range(3):
        if not s.cerda_scored[section]:
            cerda_scoring.score_section(s, section)

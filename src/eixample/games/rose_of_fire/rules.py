"""The dispatch tables of the decision stack: per frame kind, its legal actions, resolution,
automatic step and description, taken from the chapter modules."""

from __future__ import annotations

from eixample.games.rose_of_fire import cards, end_of_period, end_of_phase, influence, scoring, turn
from eixample.games.rose_of_fire import state as kind
from eixample.games.rose_of_fire.state import RoseState

RoseState.LEGAL = {
    kind.PLAY: turn.legal_play,
    kind.TILE: turn.legal_tile,
    kind.HOUSE: turn.legal_house,
    kind.BLOCK: turn.legal_block,
    kind.KEEP: influence.legal_keep,
    kind.DROP: influence.legal_drop,
    kind.BUY: influence.legal_buy,
    kind.REWARD: cards.legal_reward,
    kind.EXTRA: end_of_phase.legal_extra,
    kind.WHEN: turn.legal_when,
}
RoseState.RESOLVE = {
    kind.PLAY: turn.resolve_play,
    kind.TILE: turn.resolve_tile,
    kind.HOUSE: turn.resolve_house,
    kind.BLOCK: turn.resolve_block,
    kind.KEEP: influence.resolve_keep,
    kind.DROP: influence.resolve_drop,
    kind.BUY: influence.resolve_buy,
    kind.REWARD: cards.resolve_reward,
    kind.EXTRA: end_of_phase.resolve_extra,
    kind.WHEN: turn.resolve_when,
}
RoseState.STEPS = {
    kind.START_PHASE: turn.start_phase,
    kind.ABILITY: cards.ability_step,
    kind.COMPLETE: turn.complete_step,
    kind.EVENT: cards.event_step,
    kind.END_TURN: turn.end_turn,
    kind.REBELLION: end_of_phase.rebellion,
    kind.STRIKE_CARD: end_of_phase.strike_card,
    kind.PRESTIGE_CARD: end_of_phase.prestige_card,
    kind.POPULARITY_CARDS: end_of_phase.popularity_cards,
    kind.DEAL: end_of_phase.deal,
    kind.FIRST_PLAYER: end_of_phase.first_player,
    kind.NEXT_PHASE: end_of_phase.next_phase,
    kind.BLOCK_SCORING: end_of_period.block_scoring,
    kind.SUPPRESSION: end_of_period.suppression,
    kind.FINAL_SCORING: scoring.final_scoring,
    kind.RAVAL: turn.raval_step,
}
RoseState.DESCRIBE = {
    kind.PLAY: turn.describe_play,
    kind.TILE: turn.describe_tile,
    kind.HOUSE: turn.describe_house,
    kind.BLOCK: turn.describe_block,
    kind.KEEP: influence.describe_keep,
    kind.DROP: influence.describe_drop,
    kind.BUY: influence.describe_buy,
    kind.REWARD: cards.describe_reward,
    kind.EXTRA: end_of_phase.describe_extra,
    kind.WHEN: turn.describe_when,
}

"""The dispatch tables of the decision stack: per frame kind, its legal actions, resolution,
automatic step and description, taken from the chapter modules."""

from __future__ import annotations

from eixample.games.rose_of_fire import cards, end_of_period, end_of_phase, influence, scoring, turn
from eixample.games.rose_of_fire.state import (
    ABILITY,
    BLOCK,
    BLOCK_SCORING,
    BUY,
    COMPLETE,
    DEAL,
    DROP,
    END_TURN,
    EVENT,
    EXTRA,
    FINAL_SCORING,
    FIRST_PLAYER,
    HOUSE,
    KEEP,
    NEXT_PHASE,
    PLAY,
    POPULARITY_CARDS,
    PRESTIGE_CARD,
    REBELLION,
    REWARD,
    START_PHASE,
    STRIKE_CARD,
    SUPPRESSION,
    TILE,
    RoseState,
)

RoseState.LEGAL = {
    PLAY: turn.legal_play,
    TILE: turn.legal_tile,
    HOUSE: turn.legal_house,
    BLOCK: turn.legal_block,
    KEEP: influence.legal_keep,
    DROP: influence.legal_drop,
    BUY: influence.legal_buy,
    REWARD: cards.legal_reward,
    EXTRA: end_of_phase.legal_extra,
}
RoseState.RESOLVE = {
    PLAY: turn.resolve_play,
    TILE: turn.resolve_tile,
    HOUSE: turn.resolve_house,
    BLOCK: turn.resolve_block,
    KEEP: influence.resolve_keep,
    DROP: influence.resolve_drop,
    BUY: influence.resolve_buy,
    REWARD: cards.resolve_reward,
    EXTRA: end_of_phase.resolve_extra,
}
RoseState.STEPS = {
    START_PHASE: turn.start_phase,
    ABILITY: cards.ability_step,
    COMPLETE: turn.complete_step,
    EVENT: cards.event_step,
    END_TURN: turn.end_turn,
    REBELLION: end_of_phase.rebellion,
    STRIKE_CARD: end_of_phase.strike_card,
    PRESTIGE_CARD: end_of_phase.prestige_card,
    POPULARITY_CARDS: end_of_phase.popularity_cards,
    DEAL: end_of_phase.deal,
    FIRST_PLAYER: end_of_phase.first_player,
    NEXT_PHASE: end_of_phase.next_phase,
    BLOCK_SCORING: end_of_period.block_scoring,
    SUPPRESSION: end_of_period.suppression,
    FINAL_SCORING: scoring.final_scoring,
}
RoseState.DESCRIBE = {
    PLAY: turn.describe_play,
    TILE: turn.describe_tile,
    HOUSE: turn.describe_house,
    BLOCK: turn.describe_block,
    KEEP: influence.describe_keep,
    DROP: influence.describe_drop,
    BUY: influence.describe_buy,
    REWARD: cards.describe_reward,
    EXTRA: end_of_phase.describe_extra,
}

"""Round-robin tournaments between bot configurations, rated with openskill's Plackett-Luce."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from openskill.models import PlackettLuce

from eixample.ai.match import MatchResult


def schedule(specs: Sequence[str], players: int, games_per_group: int) -> list[tuple[str, ...]]:
    """Every group of `players` distinct configurations plays `games_per_group` games, seats
    rotating from game to game."""
    if len(set(specs)) != len(specs):
        raise ValueError("each bot configuration may enter a tournament only once")
    if len(specs) < players:
        raise ValueError(f"a {players}-player round robin needs at least {players} bot configurations")
    lineups: list[tuple[str, ...]] = []
    for group in combinations(specs, players):
        for game in range(games_per_group):
            shift = game % players
            lineups.append(group[shift:] + group[:shift])
    return lineups


def finishing_ranks(result: MatchResult) -> list[int]:
    """Per seat, its place (1 = best): winners first, then by score; equal results share a place."""
    keys = [(seat in result.winners, score) for seat, score in enumerate(result.scores)]
    return [1 + sum(other > key for other in keys) for key in keys]


@dataclass
class Standing:
    spec: str
    rating: Any
    games: int = 0
    wins: int = 0

    @property
    def ordinal(self) -> float:
        return float(self.rating.ordinal())

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class Ratings:
    """Plackett-Luce ratings of bot configurations, updated game by game; plus head-to-head wins."""

    specs: Sequence[str]
    model: PlackettLuce = field(default_factory=PlackettLuce)
    standings: dict[str, Standing] = field(default_factory=dict)
    head_to_head: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for spec in self.specs:
            self.standings[spec] = Standing(spec, self.model.rating(name=spec))

    def update(self, result: MatchResult) -> None:
        ranks = [float(rank) for rank in finishing_ranks(result)]
        teams = [[self.standings[spec].rating] for spec in result.bots]
        rated = self.model.rate(teams, ranks=ranks)
        for seat, spec in enumerate(result.bots):
            standing = self.standings[spec]
            standing.rating = rated[seat][0]
            standing.games += 1
            standing.wins += seat in result.winners
            for other, other_rank in zip(result.bots, ranks, strict=True):
                if other != spec and ranks[seat] < other_rank:
                    self.head_to_head[spec, other] = self.head_to_head.get((spec, other), 0) + 1

    def table(self) -> list[Standing]:
        """Standings, best ordinal (mu - 3 sigma) first."""
        return sorted(self.standings.values(), key=lambda s: s.ordinal, reverse=True)

"""Statistics over many games between bots: wins, scores and victory points by source."""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from eixample.ai.match import MatchResult


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default `z`): unlike the normal
    approximation it stays within 0..1 and holds for win rates near 0 or 1 and for few games.
    No trials: (0, 1), nothing is known."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BotRecord:
    """What one bot configuration did. A configuration seated twice in a game counts twice."""

    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    sources: dict[str, int] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def win_interval(self) -> tuple[float, float]:
        """95% Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)

    @property
    def mean_score(self) -> float:
        return statistics.fmean(self.scores) if self.scores else 0.0

    @property
    def score_sd(self) -> float:
        return statistics.pstdev(self.scores) if len(self.scores) > 1 else 0.0

    def mean_by_source(self) -> dict[str, float]:
        return {source: total / self.games for source, total in self.sources.items()} if self.games else {}


@dataclass
class Summary:
    games: int
    bots: dict[str, BotRecord]
    seat_wins: list[int]
    sources: list[str]

    def json(self) -> dict[str, object]:
        """{"games": N, "bots": {SPEC: {"games", "wins", "win_rate", "win_interval", "mean_score"}}}
        (`win_interval`: [low, high], the 95% Wilson interval of the win rate)"""
        return {
            "games": self.games,
            "bots": {spec: {"games": r.games, "wins": r.wins, "win_rate": r.win_rate,
                            "win_interval": list(r.win_interval), "mean_score": r.mean_score}
                     for spec, r in self.bots.items()},
        }


def summarise(results: Iterable[MatchResult], specs: Sequence[str]) -> Summary:
    """Tally results per bot configuration (in the order of `specs`) and per seat. A shared win
    counts as a win for every winner."""
    bots = {spec: BotRecord() for spec in specs}
    seat_wins: list[int] = []
    sources: list[str] = []
    games = 0
    for result in results:
        games += 1
        seat_wins.extend([0] * (len(result.bots) - len(seat_wins)))
        for seat, spec in enumerate(result.bots):
            _tally(bots.setdefault(spec, BotRecord()), result, seat, sources)
            seat_wins[seat] += seat in result.winners
    return Summary(games, bots, seat_wins, sources)


def _tally(record: BotRecord, result: MatchResult, seat: int, sources: list[str]) -> None:
    record.games += 1
    record.wins += seat in result.winners
    record.scores.append(result.scores[seat])
    for source, points in result.breakdown[seat].items():
        record.sources[source] = record.sources.get(source, 0) + points
        if source not in sources:
            sources.append(source)

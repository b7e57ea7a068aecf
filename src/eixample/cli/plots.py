"""Plots of a simulation (matplotlib, no display needed): score distributions and points by
source, each saved as PNG and SVG."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from eixample.ai.stats import Summary


def save_plots(summary: Summary, folder: Path) -> list[Path]:
    """Write scores.png/.svg and vp_by_source.png/.svg into `folder`; return the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = _save(score_figure(summary), folder / "scores")
    saved += _save(sources_figure(summary), folder / "vp_by_source")
    return saved


def _save(figure: Figure, stem: Path) -> list[Path]:
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for path in paths:
        figure.savefig(path, bbox_inches="tight")
    return paths


def score_figure(summary: Summary) -> Figure:
    figure = Figure(figsize=(7, 4))
    axes = figure.subplots()
    low = min((min(r.scores) for r in summary.bots.values() if r.scores), default=0)
    high = max((max(r.scores) for r in summary.bots.values() if r.scores), default=1)
    bins = [edge - 0.5 for edge in range(low, high + 2)]
    for spec, record in summary.bots.items():
        if record.scores:
            axes.hist(record.scores, bins=bins, histtype="step", linewidth=1.5, label=spec)
    axes.set_title(f"Final scores ({summary.games} games)")
    axes.set_xlabel("victory points")
    axes.set_ylabel("games")
    axes.legend()
    return figure


def sources_figure(summary: Summary) -> Figure:
    figure = Figure(figsize=(7, 4))
    axes = figure.subplots()
    specs = list(summary.bots)
    bottoms = [0.0] * len(specs)
    for source in summary.sources:
        heights = [summary.bots[spec].mean_by_source().get(source, 0.0) for spec in specs]
        axes.bar(specs, heights, bottom=bottoms, label=source.replace("_", " "))
        bottoms = [bottom + height for bottom, height in zip(bottoms, heights, strict=True)]
    axes.set_title("Victory points by source (mean per game)")
    axes.set_ylabel("victory points")
    if summary.sources:
        axes.legend()
    return figure

"""Eixample: play, simulate and study the board games Barcelona and Barcelona: The Rose of Fire."""

__version__ = "0.1.0"

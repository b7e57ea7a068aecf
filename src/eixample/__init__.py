"""Eixample: play, simulate and study the board game Barcelona."""

__version__ = "0.1.0"

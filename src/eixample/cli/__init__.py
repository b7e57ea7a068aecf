"""The `eixample` command line: play, simulate, tournament, replay, bench, demo and serve."""

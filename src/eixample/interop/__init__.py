"""The platform's games in the ecosystems of game-AI research: OpenSpiel (`interop.openspiel`),
PettingZoo (`interop.pettingzoo`) and Gymnasium (`interop.gymnasium`, `interop.vector`). Install the
`research` extra. What they share is in `interop.table` (action numbering, masks, utility) and
`interop.encoding` (each game's structured observation); see docs/research.md."""

"""The platform's games in the ecosystems of game-AI research: OpenSpiel (`interop.openspiel`),
PettingZoo (`interop.pettingzoo`) and Gymnasium (`interop.gymnasium`). Install the `research`
extra. What they share (action numbering, masks, observation encoding, utility) is in
`interop.table`; see docs/research.md."""

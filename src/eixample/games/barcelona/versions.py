"""Barcelona's rules versions: a game is played, replayed and continued under the rules it was
created with (its `rules` option); new games take the newest. Older behaviour stays in the rules
code behind `state.rules_version`."""

from __future__ import annotations

RULES_VERSIONS: dict[int, str] = {
    1: "the first release's rules (to 2026-11-26): only actions chosen at a crossing may be left out, "
    "the Modernisme stack is rebuilt when a tile is drawn from it empty, the idle end scores no "
    "Cerdà tile",
    2: "2026-11-26: costly granted actions (Intersection, Improve, Take, Public Service) offer "
    "'decline', the Modernisme stack is rebuilt as soon as it would become empty, the idle end "
    "scores every Cerdà tile not scored yet",
    3: "2026-11-28: one rule for declining: a granted action offers 'decline' exactly when every way "
    "of performing it costs something (a free Intersection or Modernisme space no longer does)",
}
LATEST_RULES = max(RULES_VERSIONS)
UNVERSIONED_RULES = 2
"""The newest rules a game stored without a `rules` option can have been played under (version 3
came with the option itself)."""

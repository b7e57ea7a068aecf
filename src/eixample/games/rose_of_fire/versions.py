"""The versions of The Rose of Fire's rules: a game keeps the version it was started with (its
option `rules`), so a game recorded before a ruling changed replays and goes on as it was played.

Rule code reads `state.rules_version` and keeps every older reading beside the newer one."""

from __future__ import annotations

RULES_VERSIONS: dict[int, str] = {
    1: "the rules as first published (2026-11-26)",
    2: (
        "2026-11-28: a card's ability may come before the strikers go to Raval (R21); influence may "
        "be bought before the card too (R30); the block bonus tie goes by prestige before the "
        "block's +1 (R36); no score goes below 0 VP (R41)"
    ),
}
LATEST_RULES = max(RULES_VERSIONS)
SAVED_WITHOUT_RULES = 1
"""The version of a saved state that names none: every such state was saved before versions
existed, under the rules of version 1."""

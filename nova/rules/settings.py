"""The rule settings: where reasonable readers of the rulebook could differ
(docs/RULES.md says what each one reads and the sentence it rests on).

Their values are in ``nova/data/settings.json`` and nowhere else: a variant's settings are
merged over that file, so every field is always given. :meth:`Settings.read` checks them
once, where the content is loaded; the rules read them as attributes.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

# the settings that are one of a few words, and those words
CHOICES = {
    "unused_base_gates": ("neutral", "closed"),
    "spawn_placed_by": ("each", "trigger"),
    "academy_top_card": ("hidden", "shown"),
}


@dataclass(frozen=True, slots=True)
class Settings:
    unload_requires_shard: bool
    unused_base_gates: str  # "neutral" or "closed"
    launch_to_open_gate: bool
    push_needs_open_space: bool
    hijack_orbit_is_optional: bool
    hijack_leave_behind: bool
    skip_takes_special_orbits: bool
    skip_must_move: bool
    skip_counts_as_basic_action: bool
    special_action_needs_colour: bool
    end_when_track_stuck: bool
    end_check_on_upgrade: bool
    end_when_no_ships: bool
    max_rounds: int | None  # None: no limit
    tie_break: str | None  # "bay_shards"; anything else: a tie is shared
    spawn_placed_by: str  # "each" or "trigger" (R47)
    academy_top_card: str  # "hidden" or "shown" (R43)

    @classmethod
    def read(cls, raw: Any, default: dict[str, Any], problems: list[str]) -> Settings:
        """The settings of the data's ``settings`` object; each fault is added to
        ``problems`` and the field takes its value in ``default`` (settings.json's)."""
        if not isinstance(raw, dict):
            problems.append("settings: must be a JSON object")
            raw = default
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            key = f.name
            v = raw.get(key, default[key])
            if f.type == "bool":
                ok = isinstance(v, bool)
                want = "true or false"
            elif key in CHOICES:
                ok = v in CHOICES[key]
                want = " or ".join(repr(c) for c in CHOICES[key])
            elif key == "max_rounds":
                ok = v is None or (isinstance(v, int) and not isinstance(v, bool) and v >= 1)
                want = "a whole number of rounds or null"
            else:
                ok = v is None or isinstance(v, str)
                want = "a word or null"
            if not ok:
                problems.append(f"settings.{key}: {want}, got {v!r}")
                v = default[key]
            values[key] = v
        return cls(**values)

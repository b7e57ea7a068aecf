"""What changed between two messages, as a JSON Patch (RFC 6902), to push instead of the whole.

`json_patch(old, new)` returns `add`, `remove` and `replace` operations that turn `old` into `new`:
objects with the same keys are compared key by key (an object whose keys changed is replaced
whole, so that a patched copy lists its keys in the same order as a whole message), arrays index
by index (growing or shrinking at their end, as a game's log and score history do); an array most
of whose elements changed is replaced whole.
Unchanged parts are skipped by Python's own equality (`==`, in C), so the cost follows what changed,
not the size of the message: the `jsonpatch` library's `make_patch` took about 4 ms for two
successive 24 KiB Barcelona views, more than a whole move costs the server.

Values that Python counts equal (1, 1.0 and True) count as unchanged inside an unchanged object
or array: messages keep one JSON type per field, so this never hides a change of theirs (the
tests replay games of every served game and compare the patched message with the new one as
JSON text).
"""

from __future__ import annotations

from typing import Any

JsonPatch = list[dict[str, Any]]

WHOLE_ARRAY_AFTER = 4
"""An array with more changed elements than this, and more than half of them changed, is
replaced whole (cheaper to send and to apply than one operation per element)."""


def json_patch(old: Any, new: Any) -> JsonPatch:
    """RFC 6902 operations turning the JSON value `old` into `new` (dicts, lists, scalars)."""
    operations: JsonPatch = []
    _diff(old, new, "", operations)
    return operations


def pointer_part(key: object) -> str:
    """A key as one part of a JSON Pointer (RFC 6901): '~' is written '~0' and '/' '~1'."""
    return str(key).replace("~", "~0").replace("/", "~1")


def _diff(old: Any, new: Any, path: str, out: JsonPatch) -> None:
    if old is new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        if old != new:
            _diff_objects(old, new, path, out)
    elif isinstance(old, list | tuple) and isinstance(new, list | tuple):
        if old != new:
            _diff_arrays(old, new, path, out)
    elif type(old) is not type(new) or old != new:
        out.append({"op": "replace", "path": path, "value": new})


def _diff_objects(old: dict[Any, Any], new: dict[Any, Any], path: str, out: JsonPatch) -> None:
    if old.keys() != new.keys():  # whole, so that its keys keep the order a whole message has
        out.append({"op": "replace", "path": path, "value": new})
        return
    for key, value in new.items():
        _diff(old[key], value, f"{path}/{pointer_part(key)}", out)


Array = list[Any] | tuple[Any, ...]


def _diff_arrays(old: Array, new: Array, path: str, out: JsonPatch) -> None:
    common = min(len(old), len(new))
    changed = [i for i in range(common) if old[i] is not new[i] and not _same(old[i], new[i])]
    if len(changed) > WHOLE_ARRAY_AFTER and 2 * len(changed) > common:
        out.append({"op": "replace", "path": path, "value": new})
        return
    for i in changed:
        _diff(old[i], new[i], f"{path}/{i}", out)
    for i in range(common, len(new)):
        out.append({"op": "add", "path": f"{path}/{i}", "value": new[i]})
    for i in range(len(old) - 1, common - 1, -1):
        out.append({"op": "remove", "path": f"{path}/{i}"})


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON, as far as `_diff` tells values apart (see the module's note)."""
    return type(old) is type(new) and bool(old == new)

#!/usr/bin/env python3
# BROKEN: memoizes descriptions keyed by the tool's name and fields (a fresh copy each time) but not its effect or family, so a later catalog where the same tool is "change" is described as "read".
import json
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

_describe = catalogkit.describe
_cache = {}


def describe(tool):
    key = (tool.name, json.dumps([(f.name, f.type, f.required, f.max_length) for f in tool.fields]))
    if key not in _cache:
        _cache[key] = _describe(tool)
    return catalogkit.copy_json(_cache[key])


catalogkit.describe = describe
serve(__name__)

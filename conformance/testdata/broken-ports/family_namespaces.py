#!/usr/bin/env python3
# BROKEN: treats families as dotted namespaces: discover("web") also lists the tools of web.reading, and a family that is only a dotted parent is known (catalogkit.is_chosen, catalogkit.select_tools).
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402


def _in(tool, family):
    return tool.family == family or tool.family.startswith(family + ".")


def is_chosen(tool, family, name):
    return tool.enabled and (family == catalogkit.ALL or _in(tool, family)) and (name is catalogkit.ABSENT or tool.name == name)


_select = catalogkit.select_tools


def select_tools(tools, family, name=catalogkit.ABSENT):
    if catalogkit.is_label(family) and family != catalogkit.ALL and any(_in(t, family) for t in tools) \
            and not any(t.family == family for t in tools):
        # known as a namespace: skip the real D4 check
        chosen = [t for t in tools if is_chosen(t, family, name)]
        if name is not catalogkit.ABSENT and not chosen:
            raise catalogkit.CatalogError(catalogkit.TOOL_NOT_AVAILABLE_IN_FAMILY, "no enabled tool")
        return chosen
    return _select(tools, family, name)


catalogkit.is_chosen = is_chosen
catalogkit.select_tools = select_tools
serve(__name__)

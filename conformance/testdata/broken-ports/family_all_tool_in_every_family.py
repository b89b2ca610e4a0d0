#!/usr/bin/env python3
# BROKEN: a tool whose family is literally all is taken as belonging to every family: discover("reading") lists it beside the reading tools, instead of only discover("all").
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve  # noqa: E402

def is_chosen(tool, family, name):
    return (tool.enabled
            and (family == catalogkit.ALL or tool.family == family or tool.family == catalogkit.ALL)
            and (name is catalogkit.ABSENT or tool.name == name))


catalogkit.is_chosen = is_chosen

serve(__name__)

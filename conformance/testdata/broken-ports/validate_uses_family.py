#!/usr/bin/env python3
# BROKEN: validate_arguments honours a family member of the call (it shares discover's request struct) and looks the tool up in that family, instead of ignoring it
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, catalog_port, serve  # noqa: E402

_p = catalog_port.perform
def perform(call):
    if call.get("op") == "validate_arguments" and "family" in call:
        tools = catalogkit.validate_catalog(call.get("catalog", catalogkit.ABSENT))
        if catalogkit.is_label(call.get("name")):
            catalogkit.select_tools(tools, call["family"], call["name"])
    return _p(call)
catalog_port.perform = perform

serve(__name__)

#!/usr/bin/env python3
# BROKEN: "a call before the hello" is checked only where a known op is dispatched, so a call before the hello with an op the port does not know (or a mutate_and_repeat of one) gets {"not_implemented": ...} instead of an error line.
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, patch_source, serve  # noqa: E402

KNOWN = ("discover", "validate_arguments")


def _known(call):
    if call["op"] == "mutate_and_repeat":
        return call["call"]["op"] in KNOWN
    return call["op"] in KNOWN


catalog_port._known = _known
patch_source(catalog_port.Session, "handle",
             "        if not self.greeted:\n"
             "            raise ProtocolError(\"a call before the hello\")\n", "",
             "        check_call(call)\n",
             "        check_call(call)\n"
             "        if not self.greeted and _known(call):\n"
             "            raise ProtocolError(\"a call before the hello\")\n")
serve(__name__)

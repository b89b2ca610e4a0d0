#!/usr/bin/env python3
# BROKEN: echoes integer arguments as decimals with a fraction, exactly (a port that keeps every number as a BigDecimal and writes it with toPlainString after setScale(1)): {"tab_id": 3} comes back as {"tab_id": 3.0}, which is no longer an integer literal, so the echo of a shape-valid call is not itself shape-valid (copy_json).
import sys

sys.dont_write_bytecode = True
from _patch import catalog_port, catalogkit, echo_leaves, serve  # noqa: E402

echo_leaves(lambda v: catalog_port.Number(int.__repr__(int(v)) + ".0") if catalogkit.is_json_integer(v) else v)
serve(__name__)

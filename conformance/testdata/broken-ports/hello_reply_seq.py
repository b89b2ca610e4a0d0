#!/usr/bin/env python3
# BROKEN: the hello reply carries the hello's readable seq (one reply builder adds "seq" to every reply it can), so {"type":"hello",...,"seq":4} as the first line is answered with a hello reply that has a fourth key "seq".
import sys
sys.dont_write_bytecode = True
from _patch import catalog_port, patch_source, serve  # noqa: E402

patch_source(catalog_port.Session, "handle",
             'return {"type": "hello", "protocol": PROTOCOL,',
             'return {"type": "hello", **({"seq": seq} if seq is not None else {}), "protocol": PROTOCOL,')
serve(__name__)

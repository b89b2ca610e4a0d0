#!/usr/bin/env python3
# BROKEN: "arguments": null decodes to a nil map (Go: json.Unmarshal of null into map[string]any), which reads as an empty object, so a tool with no required field is shape-valid with arguments null
import sys

sys.dont_write_bytecode = True
from _patch import catalogkit, serve, patch_source  # noqa: E402

patch_source(catalogkit, "check_argument_keys", "    if type(arguments) is not dict:", "    if arguments is None:\n        arguments = {}\n    if type(arguments) is not dict:")
patch_source(catalogkit, "validate_arguments", "        if f.name in arguments:", "        if arguments is not None and f.name in arguments:")

serve(__name__)

package main

import (
	"github.com/catalogkit/catalogkit/conformance"
)

const portExample = `catalogkit conform -- catalogkit port`

func runPort(c *cli, args []string) int {
	fs := c.flags("port", "(answers conformance/PROTOCOL.md on stdin and stdout until stdin ends)", portExample)
	if code, ok := c.parse(fs, args, false); !ok {
		return code
	}
	info := conformance.PortInfo{Name: "catalogkit-go", Language: "Go", Version: buildVersion()}
	if err := conformance.Serve(c.stdin, c.stdout, conformance.GoTarget(info.Version), info); err != nil {
		return c.cannotRun("", "port: %v", err)
	}
	return exitOK
}

package conformance

import (
	"github.com/catalogkit/catalogkit/catalog"
)

// serveLine answers one line as Serve does in a session whose hello came
// (a hello is answered as the first one): for fake ports that answer line
// by line.
func serveLine(line []byte, target Target, info PortInfo) []byte {
	s := &session{target: target, info: info, greeted: true}
	if msg, err := catalog.ParseJSON(line); err == nil {
		if t, _ := msg.Lookup("type"); t.String() == `"hello"` {
			s.greeted = false
		}
	}
	return s.answer(line, false)
}

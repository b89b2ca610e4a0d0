package catalog_test

import (
	"errors"
	"fmt"

	"github.com/catalogkit/catalogkit/catalog"
)

// Example is the program README.md shows under "In Go", statement for
// statement: internal/suites/readmetest's TestGoExample checks that the README
// prints this body as the body of its main function, with these imports,
// and that the README's program builds.
func Example() {
	catalogJSON := []byte(`[{"name": "page.read", "family": "reading", "effect": "read", "enabled": true,
		"fields": {"tab_id": {"type": "integer", "required": true, "max_length": 20}}}]`)
	c, err := catalog.Parse(catalogJSON) // validate once (the whole catalog, in order)
	if err != nil {
		fmt.Println(err)
		return
	}
	descs, err := c.Discover("reading") // or c.DiscoverTool("reading", "page.read")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, d := range descs {
		fmt.Println("discovered", d.Name, d.Effect)
	}
	args, err := catalog.ParseJSON([]byte(`{"tab_id": 3}`)) // strict: duplicate keys, bad UTF-8, ... are INVALID_JSON
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := c.ValidateArguments("page.read", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := res.MarshalJSON()
	fmt.Println(string(b))

	args, _ = catalog.ParseJSON([]byte(`{"tab_id": 1.0}`))
	_, err = c.ValidateArguments("page.read", args)
	var e *catalog.Error
	if errors.As(err, &e) { // match the code, never the message
		fmt.Println(e.Code, "at", e.Path)
	}
	// Output:
	// discovered page.read read
	// {"name":"page.read","arguments":{"tab_id":3},"shape_valid":true,"authorized":false,"executed":false}
	// INVALID_ARGUMENT_VALUE at arguments.tab_id
}

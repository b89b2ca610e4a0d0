package catalog_test

import (
	"errors"
	"fmt"

	"github.com/catalogkit/catalogkit/catalog"
)

const exampleCatalog = `[
  {"name": "page.read", "family": "reading", "effect": "read", "enabled": true,
   "fields": {"tab_id": {"type": "integer", "required": true, "max_length": 20},
              "format": {"type": "string", "required": false, "max_length": 16}}},
  {"name": "tab.select", "family": "reading", "effect": "change", "enabled": true,
   "fields": {"tab_id": {"type": "integer", "required": true, "max_length": 20}}},
  {"name": "page.screenshot", "family": "reading", "effect": "read", "enabled": false,
   "fields": {}}
]`

func ExampleCatalog_Discover() {
	c, err := catalog.Parse([]byte(exampleCatalog))
	if err != nil {
		fmt.Println(err)
		return
	}
	descs, _ := c.Discover("reading")
	for _, d := range descs {
		b, _ := d.MarshalJSON()
		fmt.Println(string(b))
	}
	// Output:
	// {"name":"page.read","family":"reading","effect":"read","inputSchema":{"type":"object","properties":{"tab_id":{"type":"integer"},"format":{"type":"string","maxLength":16}},"required":["tab_id"],"additionalProperties":false},"executes":false}
	// {"name":"tab.select","family":"reading","effect":"change","inputSchema":{"type":"object","properties":{"tab_id":{"type":"integer"}},"required":["tab_id"],"additionalProperties":false},"executes":false}
}

func ExampleCatalog_DiscoverTool() {
	c, _ := catalog.Parse([]byte(exampleCatalog))
	_, err := c.DiscoverTool("reading", "page.screenshot")
	var e *catalog.Error
	if errors.As(err, &e) {
		fmt.Println(e.Code)
	}
	// Output:
	// TOOL_NOT_AVAILABLE_IN_FAMILY
}

func ExampleCatalog_ValidateArguments() {
	c, _ := catalog.Parse([]byte(exampleCatalog))
	args, _ := catalog.ParseJSON([]byte(`{"tab_id": 100000000000000000000}`))
	res, err := c.ValidateArguments("tab.select", args)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, _ := res.MarshalJSON()
	fmt.Println(string(b))

	args, _ = catalog.ParseJSON([]byte(`{"tab_id": 1.0}`))
	_, err = c.ValidateArguments("tab.select", args)
	fmt.Println(err)
	// Output:
	// {"name":"tab.select","arguments":{"tab_id":100000000000000000000},"shape_valid":true,"authorized":false,"executed":false}
	// INVALID_ARGUMENT_VALUE at arguments.tab_id: value is 1.0, want an integer written with no fraction or exponent
}

func ExampleValidateArguments() {
	cat, _ := catalog.ParseJSON([]byte(exampleCatalog))
	name, _ := catalog.ParseJSON([]byte(`"page.read"`))
	args, _ := catalog.ParseJSON([]byte(`{"tab_id": 3, "zoom": 2}`))
	_, err := catalog.ValidateArguments(cat, name, args)
	fmt.Println(err)
	// Output:
	// INVALID_ARGUMENT_KEYS at arguments.zoom: unknown key "zoom" (the schema allows "tab_id", "format")
}

func ExampleParseJSON() {
	_, err := catalog.ParseJSON([]byte(`{"enabled": false, "enabled": true}`))
	fmt.Println(err)
	// Output:
	// INVALID_JSON at $: duplicate key "enabled": each key may appear once in an object (line 1, column 20, byte offset 19)
}

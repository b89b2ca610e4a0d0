package catalog

import (
	"strings"
	"unicode/utf8"
)

// Catalog is a compiled catalog: validated once by [Compile] or [Parse], then
// queried many times. Its results and errors are exactly those of the
// function-level [Discover] and [ValidateArguments] on the same catalog. A
// Catalog is immutable and safe for concurrent use.
type Catalog struct {
	format   int // 1 or 2
	tools    []compiledTool
	byName   map[string]int   // tool name → index in tools
	families map[string][]int // family → indices of its enabled tools, in order
	enabled  []int            // indices of all enabled tools, in order
	// about holds a format-2 catalog's family descriptions.
	about map[string]string
}

type compiledTool struct {
	desc    Description
	enabled bool
	shape   *shape      // format 1
	schema  *schemaNode // format 2
}

// Parse reads a catalog from JSON text with [ParseJSON] and compiles it. It
// returns exactly the errors of ParseJSON and then Compile, but it stops
// keeping the tools that cannot change the result (after the 1000th, or after
// a tool with more than 30 fields) while it still reads the whole text: an
// over-limit catalog costs the memory of the tools before the limit.
func Parse(data []byte) (*Catalog, error) {
	v, err := parseJSON(data, true)
	if err != nil {
		return nil, err
	}
	c, err := Compile(v)
	if err == nil && v.has(flagTruncated) {
		panic("catalog: internal error: Compile accepted a catalog of which Parse dropped tools")
	}
	return c, err
}

// Compile validates a whole catalog, in the order the package documentation
// gives, and compiles it for fast queries.
func Compile(catalog Value) (*Catalog, error) {
	if formatOf(catalog) == 2 {
		return compile2(catalog)
	}
	names, err := checkCatalog(catalog)
	if err != nil {
		return nil, err
	}
	c := &Catalog{
		format:   1,
		tools:    make([]compiledTool, catalog.Len()),
		byName:   names,
		families: make(map[string][]int),
	}
	i := 0
	for tool := range catalog.elems() {
		t := &c.tools[i]
		t.desc = describe(tool)
		parts, _ := splitTool(tool)
		t.enabled, _ = parts.enabled.Bool()
		t.shape = newShape(&t.desc.InputSchema)
		fam := c.families[t.desc.Family]
		if t.enabled {
			fam = append(fam, i)
			c.enabled = append(c.enabled, i)
		}
		c.families[t.desc.Family] = fam // a known family, even with no enabled tool
		i++
	}
	return c, nil
}

// compile2 compiles a format-2 catalog.
func compile2(catalog Value) (*Catalog, error) {
	c2, names, err := checkCatalog2(catalog)
	if err != nil {
		return nil, err
	}
	c := &Catalog{format: 2, tools: make([]compiledTool, len(c2.tools)), byName: names, families: make(map[string][]int), about: c2.families}
	for i, t := range c2.tools {
		c.tools[i] = compiledTool{desc: t.desc, enabled: t.enabled, schema: t.schema}
		fam := c.families[t.desc.Family]
		if t.enabled {
			fam = append(fam, i)
			c.enabled = append(c.enabled, i)
		}
		c.families[t.desc.Family] = fam
	}
	return c, nil
}

// Format returns the catalog's format: 1 (an array of tools) or 2 (an
// object whose format is [Format2]).
func (c *Catalog) Format() int { return c.format }

// FamilyDescription returns the description a format-2 catalog gives a
// family, and false when it gives none.
func (c *Catalog) FamilyDescription(family string) (string, bool) {
	d, ok := c.about[family]
	return d, ok
}

// isName checks a tool name given to a call: a label in format 1, a
// format-2 tool name in format 2.
func (c *Catalog) isName(name string) bool {
	if c.format == 2 {
		return IsToolName2(name)
	}
	return IsLabel(name)
}

func (c *Catalog) nameError(name string) error {
	if c.format == 2 {
		return toolName2Error("name", stringValue(name))
	}
	return labelError("name", "tool name", stringValue(name))
}

// Discover returns the descriptions of the enabled tools of a family, in
// catalog order; family "all" lists the enabled tools of every family.
//
// Errors: [InvalidLabel] if family is not a label, [UnknownFamily] if no
// tool (enabled or not) has that family.
func (c *Catalog) Discover(family string) ([]Description, error) {
	if err := c.checkFamily(family); err != nil {
		return nil, err
	}
	chosen := c.enabled
	if family != all {
		chosen = c.families[family]
	}
	out := make([]Description, len(chosen))
	for i, t := range chosen {
		out[i] = c.tools[t].desc.clone()
	}
	return out, nil
}

// DiscoverTool returns the description of the tool with exactly the given
// name, as a one-element slice, if it is enabled and in the family (any
// family for "all").
//
// Errors: [InvalidLabel] if family or name is not a label, [UnknownFamily] if
// no tool has that family, [ToolNotAvailableInFamily] if the tool is
// disabled, in another family, or absent. There is never a fallback to a
// similar name or to another tool.
func (c *Catalog) DiscoverTool(family, name string) ([]Description, error) {
	if !IsLabel(family) {
		return nil, labelError("family", "family", stringValue(family))
	}
	if !c.isName(name) {
		return nil, c.nameError(name)
	}
	if err := c.checkFamily(family); err != nil {
		return nil, err
	}
	t, err := c.lookup(family, name)
	if err != nil {
		return nil, err
	}
	return []Description{t.desc.clone()}, nil
}

// ValidateArguments checks the shape of a call's arguments against the input
// schema of the enabled tool with exactly that name, in any family. A nil
// error means the shape is valid, and nothing more: the call is neither
// authorized nor executed.
//
// Errors: [InvalidLabel] if name is not a label; [ToolNotAvailableInFamily]
// if no enabled tool has that name; [InvalidArgumentKeys] if arguments is not
// an object, has a key the schema lacks, or lacks a required key;
// [InvalidArgumentValue] if a value is not of its property's type (a string
// over maxLength code points, an integer literal with a fraction or exponent,
// a boolean that is not true or false).
func (c *Catalog) ValidateArguments(name string, arguments Value) (*Validation, error) {
	if !c.isName(name) {
		return nil, c.nameError(name)
	}
	t, err := c.lookup(all, name)
	if err != nil {
		return nil, err
	}
	if t.schema != nil {
		err = t.schema.checkArguments(arguments)
	} else {
		err = t.shape.check(arguments)
	}
	if err != nil {
		return nil, err
	}
	return &Validation{Name: name, Arguments: arguments}, nil
}

func (c *Catalog) checkFamily(family string) error {
	if !IsLabel(family) {
		return labelError("family", "family", stringValue(family))
	}
	if _, known := c.families[family]; !known && family != all {
		return errorf(UnknownFamily, "family", "no tool has family %q", family)
	}
	return nil
}

func (c *Catalog) lookup(family, name string) (*compiledTool, error) {
	i, ok := c.byName[name]
	if ok {
		t := &c.tools[i]
		if t.enabled && (family == all || t.desc.Family == family) {
			return t, nil
		}
	}
	return nil, notAvailable(family, name)
}

func notAvailable(family, name string) error {
	if family == all {
		return errorf(ToolNotAvailableInFamily, "name", "no enabled tool is named %q", name)
	}
	return errorf(ToolNotAvailableInFamily, "name", "no enabled tool named %q in family %q", name, family)
}

// Discover is the function-level form of discovery: it takes the catalog and
// the parameters as the JSON values a caller holds, validates the whole
// catalog on every call, and returns exactly what [Catalog.Discover] (name
// Absent) or [Catalog.DiscoverTool] (name given) return. family and a given
// name must be strings that are labels; anything else is [InvalidLabel].
func Discover(catalog, family, name Value) ([]Description, error) {
	if formatOf(catalog) == 2 {
		return discover2(catalog, family, name)
	}
	if _, err := checkCatalog(catalog); err != nil {
		return nil, err
	}
	if !isLabelValue(family) {
		return nil, labelError("family", "family", family)
	}
	if name.Kind() != Absent && !isLabelValue(name) {
		return nil, labelError("name", "tool name", name)
	}
	fam := family.text()
	known := fam == all
	for tool := range catalog.elems() {
		t, _ := splitTool(tool)
		known = known || t.family.text() == fam
	}
	if !known {
		return nil, errorf(UnknownFamily, "family", "no tool has family %q", fam)
	}
	out := []Description{}
	for tool := range catalog.elems() {
		if toolMatches(tool, fam, name) {
			out = append(out, describe(tool))
		}
	}
	if name.Kind() != Absent && len(out) == 0 {
		return nil, notAvailable(fam, name.text())
	}
	return out, nil
}

// toolMatches reports whether a valid tool definition is enabled, in family
// (any for "all") and, if name is given, has that exact name.
func toolMatches(tool Value, family string, name Value) bool {
	t, _ := splitTool(tool)
	enabled, _ := t.enabled.Bool()
	return enabled && (family == all || t.family.text() == family) && (name.Kind() == Absent || t.name.text() == name.text())
}

// ValidateArguments is the function-level form of argument validation: it
// validates the whole catalog on every call and returns exactly what
// [Catalog.ValidateArguments] returns. A name that is Absent or not a string
// is [InvalidLabel].
func ValidateArguments(catalog, name, arguments Value) (*Validation, error) {
	if formatOf(catalog) == 2 {
		c, err := compile2(catalog)
		if err != nil {
			return nil, err
		}
		if name.Kind() != String {
			return nil, toolName2Error("name", name)
		}
		return c.ValidateArguments(name.text(), arguments)
	}
	names, err := checkCatalog(catalog)
	if err != nil {
		return nil, err
	}
	if !isLabelValue(name) {
		return nil, labelError("name", "tool name", name)
	}
	i, ok := names[name.text()]
	if !ok || !toolMatches(catalog.Index(i), all, name) {
		return nil, notAvailable(all, name.text())
	}
	d := describe(catalog.Index(i))
	if err := newShape(&d.InputSchema).check(arguments); err != nil {
		return nil, err
	}
	return &Validation{Name: name.text(), Arguments: arguments}, nil
}

// discover2 is Discover on a format-2 catalog: compiled, then asked, with
// the function-level form's rules for parameters that are not strings.
func discover2(catalog, family, name Value) ([]Description, error) {
	c, err := compile2(catalog)
	if err != nil {
		return nil, err
	}
	if !isLabelValue(family) {
		return nil, labelError("family", "family", family)
	}
	if name.Kind() == Absent {
		return c.Discover(family.text())
	}
	if name.Kind() != String {
		return nil, toolName2Error("name", name)
	}
	return c.DiscoverTool(family.text(), name.text())
}

// A Summary is a tool as names-first discovery lists it: its description
// without the input schema (and the origin), so that an agent can go from
// a family to the names of its tools, and only then to one tool's schema. Its JSON form is
//
//	{"name": N, "family": F, "effect": E, "title": T, "description": D}
//
// with title and description only for a format-2 tool, title only when the
// tool has one ("" included). The description is the tool's first line, cut
// after [SummaryLength] code points with "…": enough to choose a tool by;
// the tool's description has it whole.
type Summary struct {
	Name   string
	Family string
	Effect string
	Title  string
	Text   string
	// format2 and titled say which members the JSON form has.
	format2, titled bool
}

// SummaryLength is the most code points of a summary's description, "…"
// aside.
const SummaryLength = 200

// Summary returns the description's summary.
func (d Description) Summary() Summary {
	text, _, _ := strings.Cut(d.Text, "\n")
	text = strings.TrimRight(text, " \t\r")
	if utf8.RuneCountInString(text) > SummaryLength {
		n := 0
		for i := range text {
			if n == SummaryLength {
				text = strings.TrimRight(text[:i], " ") + "…"
				break
			}
			n++
		}
	}
	return Summary{Name: d.Name, Family: d.Family, Effect: d.Effect, Title: d.Title, Text: text, format2: d.Format() == 2, titled: d.titled}
}

// MarshalJSON returns the summary's JSON form.
func (s Summary) MarshalJSON() ([]byte, error) {
	b := Description{Name: s.Name, Family: s.Family, Effect: s.Effect}.appendHead(nil)
	if s.titled {
		b = appendString(append(b, `,"title":`...), s.Title)
	}
	if s.format2 {
		b = appendString(append(b, `,"description":`...), s.Text)
	}
	return append(b, '}'), nil
}

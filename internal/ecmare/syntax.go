package ecmare

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// translate checks src against ECMA-262's grammar with the u flag and
// rewrites the few forms regexp2's ECMAScript mode reads otherwise:
//
//   - the u flag is strict: an escape of a letter that means nothing (`\A`,
//     `\z`, `\-` outside a class), a lone `]`, `{` or `}`, and a group
//     `(?` that is not `(?:`, a lookaround or a named group are syntax
//     errors (regexp2 reads them as .NET does);
//   - `.` is any character but the line terminators \n, \r, U+2028 and
//     U+2029 (regexp2: any but \n);
//   - `\b` and `\B` are word boundaries of ASCII word characters (regexp2
//     takes Unicode letters as word characters);
//   - `\p{Script=…}`, `\p{sc=…}`, `\p{General_Category=…}`, `\p{gc=…}`, the
//     long names of general categories and the binary properties Go's
//     unicode package knows are written as the classes they stand for
//     (regexp2 knows only the short category names).
func translate(src string) (string, error) {
	var b strings.Builder
	inClass := false
	rs := []rune(src)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r == '\\':
			if i+1 >= len(rs) {
				return "", fmt.Errorf("\\ at end of pattern")
			}
			n, err := escape(&b, rs, i, inClass)
			if err != nil {
				return "", err
			}
			i += n - 1
		case inClass:
			if r == ']' {
				inClass = false
			}
			b.WriteRune(r)
		case r == '[':
			// [] matches nothing in ECMA-262, [^] any character.
			neg := i+1 < len(rs) && rs[i+1] == '^'
			j := i + 1
			if neg {
				j++
			}
			if j < len(rs) && rs[j] == ']' {
				b.WriteString(map[bool]string{false: `[^\s\S]`, true: `[\s\S]`}[neg])
				i = j
				continue
			}
			inClass = true
			b.WriteRune(r)
		case r == ']', r == '}':
			return "", fmt.Errorf("lone %q", r)
		case r == '{':
			end := quantifier(rs, i)
			if end < 0 {
				return "", fmt.Errorf("incomplete quantifier at %d", i)
			}
			b.WriteString(string(rs[i : end+1]))
			i = end
		case r == '.':
			b.WriteString(`[^\n\r\u2028\u2029]`)
		case r == '(' && i+1 < len(rs) && rs[i+1] == '?':
			rest := string(rs[i+2:])
			ok := false
			for _, p := range []string{":", "=", "!", "<=", "<!"} {
				ok = ok || strings.HasPrefix(rest, p)
			}
			if !ok && strings.HasPrefix(rest, "<") {
				end := strings.IndexByte(rest, '>')
				ok = end > 1 && groupName(rest[1:end])
			}
			if !ok {
				return "", fmt.Errorf("invalid group at %d", i)
			}
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	if inClass {
		return "", fmt.Errorf("unterminated character class")
	}
	return b.String(), nil
}

// quantifier is the index of the "}" closing the quantifier {n}, {n,} or
// {n,m} opened at i, or -1.
func quantifier(rs []rune, i int) int {
	j, digits := i+1, 0
	for ; j < len(rs) && rs[j] >= '0' && rs[j] <= '9'; j++ {
		digits++
	}
	if digits == 0 || j >= len(rs) {
		return -1
	}
	if rs[j] == ',' {
		for j++; j < len(rs) && rs[j] >= '0' && rs[j] <= '9'; j++ {
		}
	}
	if j < len(rs) && rs[j] == '}' {
		return j
	}
	return -1
}

func groupName(s string) bool {
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

// asciiWord is ECMA-262's word character (without the i flag).
const asciiWord = `[A-Za-z0-9_]`

// escape writes the escape at rs[i] ("\\") and returns how many runes it
// took.
func escape(b *strings.Builder, rs []rune, i int, inClass bool) (int, error) {
	c := rs[i+1]
	switch {
	case strings.ContainsRune(`^$\.*+?()[]{}|/`, c), strings.ContainsRune("dDwWsSfnrtv", c):
		b.WriteString(string(rs[i : i+2]))
		return 2, nil
	case c == '-' && inClass, c == 'b' && inClass:
		b.WriteString(string(rs[i : i+2]))
		return 2, nil
	case c == 'b':
		b.WriteString(`(?:(?<=` + asciiWord + `)(?!` + asciiWord + `)|(?<!` + asciiWord + `)(?=` + asciiWord + `))`)
		return 2, nil
	case c == 'B' && !inClass:
		b.WriteString(`(?:(?<=` + asciiWord + `)(?=` + asciiWord + `)|(?<!` + asciiWord + `)(?!` + asciiWord + `))`)
		return 2, nil
	case c == '0':
		if i+2 < len(rs) && rs[i+2] >= '0' && rs[i+2] <= '9' {
			return 0, fmt.Errorf("invalid decimal escape")
		}
		b.WriteString(`\0`)
		return 2, nil
	case c >= '1' && c <= '9' && !inClass:
		j := i + 1
		for j < len(rs) && rs[j] >= '0' && rs[j] <= '9' {
			j++
		}
		b.WriteString(string(rs[i:j]))
		return j - i, nil
	case c == 'c':
		if i+2 < len(rs) && (rs[i+2] >= 'a' && rs[i+2] <= 'z' || rs[i+2] >= 'A' && rs[i+2] <= 'Z') {
			b.WriteString(string(rs[i : i+3]))
			return 3, nil
		}
	case c == 'x':
		if i+3 < len(rs) && hex(rs[i+2:i+4]) {
			b.WriteString(string(rs[i : i+4]))
			return 4, nil
		}
	case c == 'u':
		if i+5 < len(rs) && hex(rs[i+2:i+6]) {
			b.WriteString(string(rs[i : i+6]))
			return 6, nil
		}
		if i+2 < len(rs) && rs[i+2] == '{' {
			end := indexRune(rs, '}', i+3)
			if end > i+3 && hex(rs[i+3:end]) {
				if v, err := strconv.ParseUint(string(rs[i+3:end]), 16, 32); err == nil && v <= unicode.MaxRune {
					b.WriteString(string(rs[i : end+1]))
					return end + 1 - i, nil
				}
			}
		}
	case c == 'k' && !inClass:
		if i+2 < len(rs) && rs[i+2] == '<' {
			if end := indexRune(rs, '>', i+3); end > 0 {
				b.WriteString(string(rs[i : end+1]))
				return end + 1 - i, nil
			}
		}
	case c == 'p' || c == 'P':
		if i+2 < len(rs) && rs[i+2] == '{' {
			if end := indexRune(rs, '}', i+3); end > 0 {
				class, err := property(string(rs[i+3:end]), c == 'P', inClass)
				if err != nil {
					return 0, err
				}
				b.WriteString(class)
				return end + 1 - i, nil
			}
		}
	}
	return 0, fmt.Errorf("invalid escape \\%c", c)
}

func hex(rs []rune) bool {
	for _, r := range rs {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return len(rs) > 0
}

func indexRune(rs []rune, r rune, from int) int {
	for j := from; j < len(rs); j++ {
		if rs[j] == r {
			return j
		}
	}
	return -1
}

// categories are the long names of the general categories.
var categories = map[string]string{"Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
	"Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M", "Combining_Mark": "M",
	"Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N", "Decimal_Number": "Nd", "digit": "Nd",
	"Letter_Number": "Nl", "Other_Number": "No", "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc",
	"Dash_Punctuation": "Pd", "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
	"Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm", "Currency_Symbol": "Sc",
	"Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z", "Space_Separator": "Zs", "Line_Separator": "Zl",
	"Paragraph_Separator": "Zp", "Other": "C", "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs",
	"Private_Use": "Co", "Unassigned": "Cn"}

// property is the class \p{name} (\P{name} when neg) stands for, written
// inside a class when inClass.
func property(name string, neg, inClass bool) (string, error) {
	key, val, hasVal := strings.Cut(name, "=")
	var table *unicode.RangeTable
	switch {
	case hasVal && (key == "Script" || key == "sc"):
		table = unicode.Scripts[val]
	case hasVal && (key == "General_Category" || key == "gc"):
		name, hasVal = val, false
	case hasVal:
		return "", fmt.Errorf("unsupported property \\p{%s}", name)
	}
	if !hasVal {
		if short, ok := categories[name]; ok {
			name = short
		}
		switch {
		case name == "LC":
			table = mergeTables(unicode.Lu, unicode.Ll, unicode.Lt)
		case name == "Cn" || name == "Any" || name == "ASCII" || name == "Assigned":
			return "", fmt.Errorf("unsupported property \\p{%s}", name)
		case unicode.Categories[name] != nil && neg:
			return `\P{` + name + `}`, nil
		case unicode.Categories[name] != nil:
			return `\p{` + name + `}`, nil
		default:
			table = unicode.Properties[name]
		}
	}
	if table == nil {
		return "", fmt.Errorf("unknown property \\p{%s}", name)
	}
	if neg && inClass {
		return "", fmt.Errorf("\\P{%s} inside a class is not supported", name)
	}
	ranges := tableRanges(table)
	if inClass {
		return ranges, nil
	}
	if neg {
		return "[^" + ranges + "]", nil
	}
	return "[" + ranges + "]", nil
}

func mergeTables(ts ...*unicode.RangeTable) *unicode.RangeTable {
	out := &unicode.RangeTable{}
	for _, t := range ts {
		out.R16 = append(out.R16, t.R16...)
		out.R32 = append(out.R32, t.R32...)
	}
	sort.Slice(out.R16, func(i, j int) bool { return out.R16[i].Lo < out.R16[j].Lo })
	sort.Slice(out.R32, func(i, j int) bool { return out.R32[i].Lo < out.R32[j].Lo })
	return out
}

// tableRanges writes the runes of t as class ranges (\u{…}-\u{…}).
func tableRanges(t *unicode.RangeTable) string {
	var b strings.Builder
	add := func(lo, hi, stride uint32) {
		for r := lo; r <= hi; r += stride {
			if stride == 1 {
				fmt.Fprintf(&b, `\u{%X}-\u{%X}`, lo, hi)
				return
			}
			fmt.Fprintf(&b, `\u{%X}`, r)
		}
	}
	for _, r := range t.R16 {
		add(uint32(r.Lo), uint32(r.Hi), uint32(r.Stride))
	}
	for _, r := range t.R32 {
		add(r.Lo, r.Hi, r.Stride)
	}
	return b.String()
}

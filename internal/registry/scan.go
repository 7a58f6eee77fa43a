package registry

import (
	"bytes"
	"encoding/json"
	"errors"
)

// errScan is returned for text that is not a JSON object.
var errScan = errors.New("not a well-formed JSON object")

// DecodeTop decodes the top-level members of a JSON object into v (a
// pointer to a struct with json tags) without decoding the rest: only the
// members v names are handed to encoding/json, the others are checked
// against the JSON grammar by a fast scan and skipped. That keeps verification of a registry-sized pack well
// under a millisecond. A top-level key that appears twice is refused (two
// "name"s are how one signed manifest shows different packs to different
// readers).
func DecodeTop(data []byte, keep func(key string) bool, v any) error {
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return errScan
	}
	seen := map[string]bool{}
	var b bytes.Buffer
	b.WriteByte('{')
	i = skipWS(data, i+1)
	if i < len(data) && data[i] == '}' {
		if skipWS(data, i+1) != len(data) {
			return errScan
		}
		return json.Unmarshal([]byte("{}"), v)
	}
	for {
		if i >= len(data) || data[i] != '"' {
			return errScan
		}
		end, err := skipString(data, i)
		if err != nil {
			return err
		}
		rawKey := data[i:end]
		key := string(rawKey[1 : len(rawKey)-1])
		if bytes.IndexByte(rawKey, '\\') >= 0 {
			if err := json.Unmarshal(rawKey, &key); err != nil {
				return err
			}
		}
		if seen[key] {
			return errors.New("duplicate key " + string(rawKey))
		}
		seen[key] = true
		i = skipWS(data, end)
		if i >= len(data) || data[i] != ':' {
			return errScan
		}
		vs := skipWS(data, i+1)
		ve, err := skipValue(data, vs, 1)
		if err != nil {
			return err
		}
		if keep(key) {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.Write(rawKey)
			b.WriteByte(':')
			b.Write(data[vs:ve])
		}
		i = skipWS(data, ve)
		if i >= len(data) {
			return errScan
		}
		if data[i] == '}' {
			if skipWS(data, i+1) != len(data) {
				return errScan
			}
			break
		}
		if data[i] != ',' {
			return errScan
		}
		i = skipWS(data, i+1)
	}
	b.WriteByte('}')
	return json.Unmarshal(b.Bytes(), v)
}

func skipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\n' || d[i] == '\r' || d[i] == '\t') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at d[i] == '"',
// refusing control characters and malformed escapes.
func skipString(d []byte, i int) (int, error) {
	for j := i + 1; j < len(d); {
		switch c := d[j]; {
		case c == '"':
			return j + 1, nil
		case c < 0x20:
			return 0, errScan
		case c == '\\':
			if j+1 >= len(d) {
				return 0, errScan
			}
			switch d[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if j+6 > len(d) {
					return 0, errScan
				}
				for _, h := range d[j+2 : j+6] {
					if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
						return 0, errScan
					}
				}
				j += 6
			default:
				return 0, errScan
			}
		default:
			j++
		}
	}
	return 0, errScan
}

// maxScanDepth bounds nesting so hostile input cannot exhaust the stack.
const maxScanDepth = 1000

// skipValue returns the index after the JSON value starting at d[i],
// checking its grammar (RFC 8259) on the way; string contents are checked
// only for their end.
func skipValue(d []byte, i, depth int) (int, error) {
	if i >= len(d) || depth > maxScanDepth {
		return 0, errScan
	}
	switch c := d[i]; {
	case c == '"':
		return skipString(d, i)
	case c == '{' || c == '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == end {
			return i + 1, nil
		}
		for {
			if c == '{' {
				if i >= len(d) || d[i] != '"' {
					return 0, errScan
				}
				e, err := skipString(d, i)
				if err != nil {
					return 0, err
				}
				i = skipWS(d, e)
				if i >= len(d) || d[i] != ':' {
					return 0, errScan
				}
				i = skipWS(d, i+1)
			}
			e, err := skipValue(d, i, depth+1)
			if err != nil {
				return 0, err
			}
			i = skipWS(d, e)
			switch {
			case i < len(d) && d[i] == ',':
				i = skipWS(d, i+1)
			case i < len(d) && d[i] == end:
				return i + 1, nil
			default:
				return 0, errScan
			}
		}
	case c == 't':
		return literal(d, i, "true")
	case c == 'f':
		return literal(d, i, "false")
	case c == 'n':
		return literal(d, i, "null")
	case c == '-' || c >= '0' && c <= '9':
		return number(d, i)
	}
	return 0, errScan
}

func literal(d []byte, i int, lit string) (int, error) {
	if !bytes.HasPrefix(d[i:], []byte(lit)) {
		return 0, errScan
	}
	return i + len(lit), nil
}

// number returns the index after the JSON number at d[i].
func number(d []byte, i int) (int, error) {
	digits := func(j int) int {
		for j < len(d) && d[j] >= '0' && d[j] <= '9' {
			j++
		}
		return j
	}
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = digits(i)
	default:
		return 0, errScan
	}
	if i < len(d) && d[i] == '.' {
		j := digits(i + 1)
		if j == i+1 {
			return 0, errScan
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := digits(i)
		if j == i {
			return 0, errScan
		}
		i = j
	}
	return i, nil
}

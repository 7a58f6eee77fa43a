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
// members v names are handed to encoding/json, the others are skipped by a
// structural scan. That keeps verification of a registry-sized pack well
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
		ve, err := skipValue(data, vs)
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

// skipString returns the index after the string starting at d[i] == '"'.
func skipString(d []byte, i int) (int, error) {
	for j := i + 1; ; {
		k := bytes.IndexByte(d[j:], '"')
		if k < 0 {
			return 0, errScan
		}
		j += k
		bs := 0
		for p := j - 1; p > i && d[p] == '\\'; p-- {
			bs++
		}
		if bs%2 == 0 {
			return j + 1, nil
		}
		j++
	}
}

// skipValue returns the index after the value starting at d[i].
func skipValue(d []byte, i int) (int, error) {
	if i >= len(d) {
		return 0, errScan
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				e, err := skipString(d, j)
				if err != nil {
					return 0, err
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, errScan
	}
	j := i
	for j < len(d) && !bytes.ContainsRune([]byte(",}] \n\r\t"), rune(d[j])) {
		j++
	}
	if j == i {
		return 0, errScan
	}
	return j, nil
}

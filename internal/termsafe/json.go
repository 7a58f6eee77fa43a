package termsafe

import (
	"bytes"
	"encoding/json"
	"io"
	"unicode/utf8"
)

// WriteJSON is the one encoder of wopkit's --json (and SARIF) output: v as
// JSON, one line (indent "") or indented, a newline after it, HTML
// characters left as they are, and every character a terminal would act on
// (Unsafe: C0 and C1 controls, DEL, the bidirectional controls, the line
// separators) written as a \u escape. The value read back is the same; a
// terminal or log viewer showing the output sees only the escapes.
func WriteJSON(w io.Writer, v any, indent string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(buf.Bytes()))
	return err
}

// EscapeJSON rewrites the unsafe characters still raw in JSON text (inside
// its strings: everything outside them is ASCII without controls) as \u
// escapes. encoding/json already escapes C0 controls, U+2028 and U+2029;
// this adds DEL, the C1 controls and the bidirectional controls.
func EscapeJSON(data []byte) []byte {
	clean := true
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r != '\n' && Unsafe(r) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return data
	}
	out := make([]byte, 0, len(data)+32)
	const hex = "0123456789abcdef"
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r != '\n' && Unsafe(r) {
			out = append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
		} else {
			out = append(out, data[i:i+n]...)
		}
		i += n
	}
	return out
}

package leaks

import (
	"fmt"
	"strconv"
	"strings"
)

// The rule file is gitleaks' default configuration, a small and regular
// part of TOML: comments, `key = value` with strings ('''literal''',
// 'literal', "basic" without escapes but \\ and \"), numbers, booleans and
// arrays of those, and the tables [allowlist], [[rules]] and
// [[rules.allowlists]]. parseConfig reads exactly that and refuses the rest
// (a test compares its reading with Python's tomllib).

// fileRule is one [[rules]] table as written.
type fileRule struct {
	ID          string
	Description string
	Regex       string
	Path        string
	SecretGroup int
	Entropy     float64
	Keywords    []string
	Allowlists  []fileAllowlist
}

// fileAllowlist is one allowlist table as written.
type fileAllowlist struct {
	Description string
	Condition   string // "" (OR) or "AND"
	RegexTarget string // "" (the secret), "match" or "line"
	Regexes     []string
	Paths       []string
	StopWords   []string
}

// fileConfig is the whole file.
type fileConfig struct {
	Title      string
	MinVersion string
	Allowlist  fileAllowlist
	Rules      []fileRule
}

type tomlParser struct {
	s    string
	i    int
	line int
}

func (p *tomlParser) errf(format string, args ...any) error {
	return fmt.Errorf("gitleaks rules, line %d: %s", p.line+1, fmt.Sprintf(format, args...))
}

// skip passes spaces, newlines and comments (and commas when commas).
func (p *tomlParser) skip(commas bool) {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '\n':
			p.line++
			p.i++
		case c == ' ' || c == '\t' || c == '\r' || commas && c == ',':
			p.i++
		case c == '#':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		default:
			return
		}
	}
}

func parseConfig(data string) (*fileConfig, error) {
	p := &tomlParser{s: data}
	cfg := &fileConfig{}
	table := ""
	for {
		p.skip(false)
		if p.i >= len(p.s) {
			return cfg, nil
		}
		if p.s[p.i] == '[' {
			end := strings.IndexByte(p.s[p.i:], '\n')
			if end < 0 {
				end = len(p.s) - p.i
			}
			header := strings.TrimSpace(p.s[p.i : p.i+end])
			switch header {
			case "[allowlist]":
				table = "allowlist"
			case "[[rules]]":
				table = "rule"
				cfg.Rules = append(cfg.Rules, fileRule{})
			case "[[rules.allowlists]]":
				if len(cfg.Rules) == 0 {
					return nil, p.errf("an allowlist before any rule")
				}
				table = "ruleAllowlist"
				r := &cfg.Rules[len(cfg.Rules)-1]
				r.Allowlists = append(r.Allowlists, fileAllowlist{})
			default:
				return nil, p.errf("unknown table %s", header)
			}
			p.i += end
			continue
		}
		eq := strings.IndexByte(p.s[p.i:], '=')
		if eq < 0 {
			return nil, p.errf("a line without =")
		}
		key := strings.TrimSpace(p.s[p.i : p.i+eq])
		p.i += eq + 1
		for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
			p.i++
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		if err := cfg.set(table, key, v); err != nil {
			return nil, p.errf("%v", err)
		}
	}
}

// value reads a string, a number, a boolean or an array of those.
func (p *tomlParser) value() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.errf("a value is missing")
	}
	switch {
	case strings.HasPrefix(p.s[p.i:], "'''"):
		end := strings.Index(p.s[p.i+3:], "'''")
		if end < 0 {
			return nil, p.errf("an unterminated '''string")
		}
		v := p.s[p.i+3 : p.i+3+end]
		p.line += strings.Count(v, "\n")
		p.i += 3 + end + 3
		return v, nil
	case p.s[p.i] == '\'':
		end := strings.IndexAny(p.s[p.i+1:], "'\n")
		if end < 0 || p.s[p.i+1+end] != '\'' {
			return nil, p.errf("an unterminated 'string")
		}
		v := p.s[p.i+1 : p.i+1+end]
		p.i += end + 2
		return v, nil
	case p.s[p.i] == '"':
		var b strings.Builder
		for j := p.i + 1; j < len(p.s); j++ {
			switch c := p.s[j]; c {
			case '"':
				p.i = j + 1
				return b.String(), nil
			case '\n':
				return nil, p.errf("an unterminated \"string")
			case '\\':
				if j+1 < len(p.s) && (p.s[j+1] == '\\' || p.s[j+1] == '"') {
					b.WriteByte(p.s[j+1])
					j++
					continue
				}
				return nil, p.errf("an escape this reader does not take")
			default:
				b.WriteByte(c)
			}
		}
		return nil, p.errf("an unterminated \"string")
	case p.s[p.i] == '[':
		p.i++
		var out []string
		for {
			p.skip(true)
			if p.i >= len(p.s) {
				return nil, p.errf("an unterminated array")
			}
			if p.s[p.i] == ']' {
				p.i++
				return out, nil
			}
			v, err := p.value()
			if err != nil {
				return nil, err
			}
			s, ok := v.(string)
			if !ok {
				return nil, p.errf("an array of something else than strings")
			}
			out = append(out, s)
		}
	}
	end := p.i
	for end < len(p.s) && !strings.ContainsRune(" \t\r\n#,]", rune(p.s[end])) {
		end++
	}
	word := p.s[p.i:end]
	p.i = end
	switch word {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	if n, err := strconv.ParseFloat(word, 64); err == nil {
		return n, nil
	}
	return nil, p.errf("an unknown value %q", word)
}

// set stores key = v in the current table.
func (cfg *fileConfig) set(table, key string, v any) error {
	str := func() (string, error) {
		s, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s is not a string", key)
		}
		return s, nil
	}
	list := func() ([]string, error) {
		l, ok := v.([]string)
		if !ok {
			return nil, fmt.Errorf("%s is not an array of strings", key)
		}
		return l, nil
	}
	num := func() (float64, error) {
		n, ok := v.(float64)
		if !ok {
			return 0, fmt.Errorf("%s is not a number", key)
		}
		return n, nil
	}
	var err error
	setAllowlist := func(a *fileAllowlist) {
		switch key {
		case "description":
			a.Description, err = str()
		case "condition":
			a.Condition, err = str()
		case "regexTarget":
			a.RegexTarget, err = str()
		case "regexes":
			a.Regexes, err = list()
		case "paths":
			a.Paths, err = list()
		case "stopwords":
			a.StopWords, err = list()
		default:
			err = fmt.Errorf("unknown allowlist key %s", key)
		}
	}
	switch table {
	case "":
		switch key {
		case "title":
			cfg.Title, err = str()
		case "minVersion":
			cfg.MinVersion, err = str()
		default:
			err = fmt.Errorf("unknown key %s", key)
		}
	case "allowlist":
		setAllowlist(&cfg.Allowlist)
	case "ruleAllowlist":
		r := &cfg.Rules[len(cfg.Rules)-1]
		setAllowlist(&r.Allowlists[len(r.Allowlists)-1])
	case "rule":
		r := &cfg.Rules[len(cfg.Rules)-1]
		switch key {
		case "id":
			r.ID, err = str()
		case "description":
			r.Description, err = str()
		case "regex":
			r.Regex, err = str()
		case "path":
			r.Path, err = str()
		case "keywords":
			r.Keywords, err = list()
		case "entropy":
			r.Entropy, err = num()
		case "secretGroup":
			var n float64
			n, err = num()
			r.SecretGroup = int(n)
		default:
			err = fmt.Errorf("unknown rule key %s", key)
		}
	}
	return err
}

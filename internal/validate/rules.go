package validate

// rules is the table of lint rules. Each rule's check lives in lint_*.go.
var rules = []Rule{}

package ask

// FieldLabels is the label of each field a page builds, by the key of the
// answer it asks: the wizard notes it where it builds the field (text,
// long, multi, choose, yes), and the review reads it to name a
// problem's answer as the page shows it. nil notes nothing.
type FieldLabels map[string]string

// Note records the label of the field with the key.
func (l FieldLabels) Note(key, title string) {
	if l != nil && key != "" {
		l[key] = title
	}
}

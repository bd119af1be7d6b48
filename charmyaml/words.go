package charmyaml

// MaxFileWords caps the distinct words kept per YAML file (Charm.Words): a charmcraft.yaml of
// a few hundred lines has a few hundred; the cap only bounds a hostile or generated file.
const MaxFileWords = 4096

// textWords returns the distinct words of a YAML file's text, in order of first use: runs of
// letters, digits and underscores, so "charmcraft-uv-latest" gives charmcraft, uv, latest and
// "log_level" stays one word (a ranker splits identifiers itself). Words of one character are
// left out; numbers stay ("bump to 22.04" finds `channel: "22.04"` under bases). The text need
// not be valid YAML: a file the parser refused still has words.
func textWords(data []byte) []string {
	if len(data) > maxFileSize {
		data = data[:maxFileSize]
	}
	seen := map[string]bool{}
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := string(data[start:end])
		start = -1
		if len(w) < 2 || seen[w] || len(out) >= MaxFileWords {
			return
		}
		seen[w] = true
		out = append(out, w)
	}
	for i, b := range data {
		if b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
	}
	flush(len(data))
	return out
}

package app

import (
	"bytes"
	"io"
	"regexp"
)

// ColorEnabled decides whether stdout gets colour: only when it is a terminal, NO_COLOR is
// unset or empty (https://no-color.org) and TERM is not "dumb". getenv is os.Getenv in main.
func ColorEnabled(stdoutIsTerminal bool, getenv func(string) string) bool {
	return stdoutIsTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

const (
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
	ansiReset  = "\x1b[0m"
)

var (
	// checkLine is a `check` text line: `file:line: severity: message [rule]`.
	checkLine = regexp.MustCompile(`^([^\s:]+(?::\d+)?: )?(error|warning|info): `)
)

var severityColor = map[string]string{"error": ansiRed, "warning": ansiYellow, "info": ansiCyan}

// colorLine colours one line of text output (without its newline).
func colorLine(line []byte) []byte {
	if m := checkLine.FindSubmatchIndex(line); m != nil {
		var b bytes.Buffer
		if m[2] >= 0 {
			b.WriteString(ansiBold)
			b.Write(line[m[2] : m[3]-2])
			b.WriteString(ansiReset + ": ")
		}
		sev := string(line[m[4]:m[5]])
		b.WriteString(severityColor[sev] + sev + ansiReset)
		b.Write(line[m[5]:])
		return b.Bytes()
	}
	return line
}

// ColorWriter colours text output line by line on its way to a terminal: severities of
// `check` lines (error red, warning yellow, info cyan) with their locations in bold. Other
// lines pass through unchanged. main routes only check's text report through it (IO.CheckOut):
// a map's text is the same bytes on a terminal as in a pipe, since its token budget is a hard
// maximum (CONTRACT §1) that escape codes would break. Call Flush when
// done to write a last line that has no newline.
type ColorWriter struct {
	w   io.Writer
	buf []byte
}

// NewColorWriter wraps w.
func NewColorWriter(w io.Writer) *ColorWriter { return &ColorWriter{w: w} }

// Write writes the complete lines in p, coloured, and keeps a trailing partial line.
func (c *ColorWriter) Write(p []byte) (int, error) {
	c.buf = append(c.buf, p...)
	var out []byte
	for {
		i := bytes.IndexByte(c.buf, '\n')
		if i < 0 {
			break
		}
		out = append(append(out, colorLine(c.buf[:i])...), '\n')
		c.buf = c.buf[i+1:]
	}
	if len(out) > 0 {
		if _, err := c.w.Write(out); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}

// Flush writes the partial line kept back, if any.
func (c *ColorWriter) Flush() error {
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.w.Write(colorLine(c.buf))
	c.buf = nil
	return err
}

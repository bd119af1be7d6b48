package repomap

import (
	"os"
	"testing"
	"time"

	"github.com/cantrip-dev/charmcraft-map/internal/clock"
)

// TestMain starts every run an hour after the files the tests write, so that no input is
// racy (repomap.racyWindow) and a second run may serve the first one's remembered output; a
// test of the racy rule sets clock.Now itself.
func TestMain(m *testing.M) {
	clock.Now = func() time.Time { return time.Now().Add(time.Hour) }
	os.Exit(m.Run())
}

// Package clock is the time a run starts at, for the cache's racy-file rule
// (repomap.racyWindow): a file stamped within two seconds of it may change again without its
// stamps changing, so its parse is checked again and the run's output is not remembered.
// Tests of the packages above set Now to a time well after the files they write, so that
// their trees are settled unless a test says otherwise.
package clock

import "time"

// Now returns the current time; tests replace it.
var Now = time.Now

//go:build darwin || freebsd || netbsd

package repomap

import (
	"io/fs"
	"syscall"
)

// changeTime is the file's status-change time (ctime) in nanoseconds, 0 when unknown.
func changeTime(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctimespec.Nano()
	}
	return 0
}

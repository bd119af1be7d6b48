// Package treecopy copies a repository for a benchmark to measure, so the measured tree and
// its cache file are never modified.
package treecopy

import (
	"io/fs"
	"os"
	"path/filepath"
)

// Copy copies src into dst: directories, regular files, and symbolic links as they are (not
// followed). It leaves out .git directories and the root-relative paths in skip.
func Copy(src, dst string, skip ...string) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if e.IsDir() && e.Name() == ".git" {
			return filepath.SkipDir
		}
		for _, s := range skip {
			if filepath.ToSlash(rel) == s {
				return nil
			}
		}
		to := filepath.Join(dst, rel)
		switch {
		case e.IsDir():
			return os.MkdirAll(to, 0o755)
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case e.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, b, 0o644)
		}
		return nil
	})
}

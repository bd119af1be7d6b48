package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"syscall"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"
)

// rawParse reads and parses every file with tree-sitter on GOMAXPROCS workers, one parser per
// worker, and returns the wall and CPU time: what a cold run must do at the least, with no
// extraction.
func rawParse(root string, files []string) (run, error) {
	lang := python.GetLanguage()
	next := make(chan string)
	errs := make(chan error, 1)
	var wg sync.WaitGroup
	cpu0 := selfCPU()
	start := time.Now()
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(lang)
			for f := range next {
				src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
				var tr *sitter.Tree
				if err == nil {
					tr, err = p.ParseCtx(context.Background(), nil, src)
				}
				if err != nil {
					select { // the first error is reported
					case errs <- err:
					default:
					}
					continue
				}
				tr.Close()
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
	r := run{wall: time.Since(start), cpu: selfCPU() - cpu0}
	select {
	case err := <-errs:
		return run{}, err
	default:
		return r, nil
	}
}

// selfCPU is the user and system time this process has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// run is one measured process (or raw parse).
type run struct {
	wall, cpu time.Duration // cpu: user + system
	rssKB     int64
	stdout    []byte
}

// runTool runs the binary with args and returns its wall time, peak RSS and output; a
// non-zero exit is an error carrying stderr.
func runTool(bin string, args ...string) (run, error) {
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := run{wall: time.Since(start), stdout: out.Bytes()}
	if cmd.ProcessState != nil {
		r.cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.rssKB = ru.Maxrss // KiB on Linux
		}
	}
	if err != nil {
		return r, fmt.Errorf("%s %v: %v\n%s", bin, args, err, errb.Bytes())
	}
	return r, nil
}

// series is K runs of one mode.
type series []run

// median is the median wall time.
func (s series) median() time.Duration {
	ds := make([]time.Duration, len(s))
	for i, r := range s {
		ds[i] = r.wall
	}
	return medianOf(ds)
}

// medianCPU is the median CPU time.
func (s series) medianCPU() time.Duration {
	ds := make([]time.Duration, len(s))
	for i, r := range s {
		ds[i] = r.cpu
	}
	return medianOf(ds)
}

// peakMB is the largest peak RSS over the runs, in MiB.
func (s series) peakMB() float64 {
	var kb int64
	for _, r := range s {
		kb = max(kb, r.rssKB)
	}
	return float64(kb) / 1024
}

func medianOf(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = append([]time.Duration(nil), ds...)
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	if len(ds)%2 == 1 {
		return ds[len(ds)/2]
	}
	return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
}

// touchTarget picks the file the touched runs edit: the first charm's src/charm.py, else the
// first file under a src/ folder, else the first file.
func touchTarget(files []string) (string, error) {
	if len(files) == 0 {
		return "", errors.New("no Python files to touch")
	}
	pick := ""
	for _, f := range files {
		if filepath.Base(f) == "charm.py" && filepath.Base(filepath.Dir(f)) == "src" {
			return f, nil
		}
		if pick == "" && filepath.Base(filepath.Dir(f)) == "src" {
			pick = f
		}
	}
	if pick == "" {
		pick = files[0]
	}
	return pick, nil
}

// countLines returns the total lines and bytes of the files.
func countLines(root string, files []string) (lines, size int64, err error) {
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return 0, 0, err
		}
		lines += int64(bytes.Count(b, []byte("\n")))
		size += int64(len(b))
	}
	return lines, size, nil
}

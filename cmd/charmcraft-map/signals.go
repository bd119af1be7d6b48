package main

import (
	"os"
	"os/signal"
	"syscall" // for the SIGHUP and SIGTERM constants only (TestShippedCodeImportsNoExecOrNetwork checks)

	"github.com/cantrip-dev/charmcraft-map/app"
)

// stopOnSignal makes SIGINT, SIGTERM (a caller's timeout) and SIGHUP (its terminal closed)
// end the run at once without leaving a half-written cache file behind; the exit code is
// 128 + the signal, as a shell's.
func stopOnSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		app.RemoveTempFiles()
		code := 130
		switch s {
		case syscall.SIGTERM:
			code = 143
		case syscall.SIGHUP:
			code = 129
		}
		os.Exit(code)
	}()
}

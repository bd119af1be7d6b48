package main

import (
	"os"
	"os/signal"
	"syscall" // for the SIGTERM constant only (TestShippedCodeImportsNoExecOrNetwork checks)

	"github.com/cantrip-dev/charmcraft-map/app"
)

// stopOnSignal makes SIGINT and SIGTERM (a caller's timeout) end the run at once without
// leaving a half-written cache file behind; the exit code is 128 + the signal, as a shell's.
func stopOnSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		app.RemoveTempFiles()
		code := 130
		if s == syscall.SIGTERM {
			code = 143
		}
		os.Exit(code)
	}()
}

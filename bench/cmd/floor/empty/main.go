// Command empty does nothing. cmbench times it as the cost of starting any Go process on the
// machine, the floor under every whole-process target of issue 4.
package main

func main() {}

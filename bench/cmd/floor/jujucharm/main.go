// Command jujucharm links github.com/juju/charm/v12, which the project must use to read charm
// YAML the way Juju does, and does nothing else. cmbench times it: the package initialisers
// that library pulls in (regular expressions compiled by juju/names, juju/version,
// juju/utils/arch and others) run before main, in every process that links it, so this is the
// floor under charmcraft-map's start-up and its warm run.
package main

import _ "github.com/juju/charm/v12"

func main() {}

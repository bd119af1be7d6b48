module github.com/cantrip-dev/charmcraft-map

go 1.26.0

require (
	github.com/go-git/go-git/v5 v5.19.3
	github.com/juju/charm/v12 v12.0.0
	github.com/klauspost/compress v1.20.4
	github.com/smacker/go-tree-sitter v0.0.0-20240827094217-dd81d9e9be82
	github.com/spf13/cobra v1.10.2
	github.com/tiktoken-go/tokenizer v0.10.0
	gonum.org/v1/gonum v0.17.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.6 // indirect
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/go-git/gcfg v1.5.1-0.20230307220236-3a3c6141e376 // indirect
	github.com/go-git/go-billy/v5 v5.9.2 // indirect
	github.com/gobwas/glob v0.2.3 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jbenet/go-context v0.0.0-20150711004518-d14ea06fba99 // indirect
	github.com/juju/clock v1.0.0 // indirect
	github.com/juju/collections v1.0.0 // indirect
	github.com/juju/errors v1.0.0 // indirect
	github.com/juju/gojsonpointer v0.0.0-20150204194629-afe8b77aa08f // indirect
	github.com/juju/gojsonreference v0.0.0-20150204194633-f0d24ac5ee33 // indirect
	github.com/juju/gojsonschema v0.0.0-20150312170016-e1ad140384f2 // indirect
	github.com/juju/loggo v1.0.0 // indirect
	github.com/juju/mgo/v3 v3.0.2 // indirect
	github.com/juju/names/v4 v4.0.0-20220207005702-9c6532a52823 // indirect
	github.com/juju/os/v2 v2.2.1 // indirect
	github.com/juju/schema v1.0.1-0.20190814234152-1f8aaeef0989 // indirect
	github.com/juju/utils/v3 v3.0.0 // indirect
	github.com/juju/version/v2 v2.0.1 // indirect
	github.com/mohae/deepcopy v0.0.0-20170929034955-c48cc78d4826 // indirect
	github.com/pjbgf/sha1cd v0.7.0 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	go.yaml.in/yaml/v3 v3.0.4 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/net v0.61.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	gopkg.in/gobwas/glob.v0 v0.2.3 // indirect
	gopkg.in/warnings.v0 v0.1.2 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)

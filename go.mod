module github.com/tateti-lab/tateti-lab

go 1.26.8

require (
	github.com/spf13/cobra v1.10.2
	golang.org/x/sync v0.24.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
)

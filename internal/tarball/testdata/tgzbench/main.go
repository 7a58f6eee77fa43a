// Command tgzbench generates the benchmark tree and packs a directory with
// the tarball writer, for testdata/bench-vs-gzip.sh.
//
//	tgzbench gen DIR MB     write the deterministic mixed tree
//	tgzbench pack DIR OUT   write DIR as a pack tarball to OUT
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/tarball/benchtree"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tgzbench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: tgzbench gen DIR MB | tgzbench pack DIR OUT")
	}
	switch args[0] {
	case "gen":
		mb, err := strconv.Atoi(args[2])
		if err != nil {
			return err
		}
		return benchtree.Generate(args[1], int64(mb)<<20, 1)
	case "pack":
		es, err := benchtree.Entries(args[1])
		if err != nil {
			return err
		}
		f, err := os.Create(args[2])
		if err != nil {
			return err
		}
		if err := tarball.Write(f, es, tarball.WriteOptions{Level: 6}); err != nil { // compared with gzip -6
			f.Close()
			return err
		}
		return f.Close()
	}
	return fmt.Errorf("unknown mode %q", args[0])
}

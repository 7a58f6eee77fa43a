// Package benchtree generates the deterministic mixed text-and-random file
// tree used to benchmark the tarball writer against tar | gzip, and lists a
// directory as tarball entries. It is a test helper, not used by wopkit.
package benchtree

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/openwop/wopkit/internal/tarball"
)

var words = strings.Fields(`the a pack node agent schema prompt eval runtime entry signing manifest
registry tarball json value export async function return await const let if else for while status
success outputs inputs context error message type object string number boolean array properties
required description version name kind connector action trigger workflow step handler result
lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore
et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi`)

// Generate writes about total bytes under dir: half text-like files (words,
// punctuation and indentation, compressing to about a third), half random
// bytes (incompressible), in sizes from 1 KiB to 16 MiB across nested
// directories. The same seed always gives the same tree.
func Generate(dir string, total int64, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	var written int64
	for i := 0; written < total; i++ {
		size := fileSize(r)
		if written+size > total {
			size = total - written
		}
		random := i%2 == 1
		sub := []string{"src", "docs", "schemas/v1", "assets/img", "dist"}[r.IntN(5)]
		ext := ".js"
		if random {
			ext = ".bin"
		}
		name := filepath.Join(dir, sub, fmt.Sprintf("f%05d%s", i, ext))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := writeFile(name, size, random, r); err != nil {
			return err
		}
		written += size
	}
	return nil
}

func fileSize(r *rand.Rand) int64 {
	switch r.IntN(10) {
	case 0, 1:
		return int64(1<<20 + r.IntN(15<<20)) // 1-16 MiB
	case 2, 3, 4:
		return int64(64<<10 + r.IntN(960<<10)) // 64 KiB-1 MiB
	default:
		return int64(1<<10 + r.IntN(63<<10)) // 1-64 KiB
	}
}

func writeFile(name string, size int64, random bool, r *rand.Rand) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	if random {
		var buf [8]byte
		for n := int64(0); n < size; n += 8 {
			v := r.Uint64()
			for i := range buf {
				buf[i] = byte(v >> (8 * i))
			}
			w.Write(buf[:min(8, size-n)])
		}
	} else {
		var n int64
		for n < size {
			line := textLine(r)
			if n+int64(len(line)) > size {
				line = line[:size-n]
			}
			w.WriteString(line)
			n += int64(len(line))
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func textLine(r *rand.Rand) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("  ", r.IntN(4)))
	for range 3 + r.IntN(10) {
		b.WriteString(words[r.IntN(len(words))])
		b.WriteByte(" ,.:(){};=\"'"[r.IntN(12)])
	}
	fmt.Fprintf(&b, "%d\n", r.IntN(1000))
	return b.String()
}

// Entries lists the regular files under dir as tarball entries, opened
// lazily when the writer reaches them.
func Entries(dir string) ([]tarball.Entry, error) {
	var es []tarball.Entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		es = append(es, tarball.Entry{Name: filepath.ToSlash(rel), Size: info.Size(),
			Open: func() (io.ReadCloser, error) { return os.Open(p) }})
		return nil
	})
	return es, err
}

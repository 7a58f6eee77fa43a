package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// nearestDir is dir, or its nearest parent that exists: where the first
// folder or file of a write into dir is made. A file in the way is an error.
func nearestDir(dir string) (string, error) {
	at := filepath.Clean(dir)
	for {
		fi, err := os.Stat(at)
		switch {
		case err == nil && fi.IsDir():
			return at, nil
		case err == nil:
			return "", fmt.Errorf("%s is a file, not a folder", at)
		case !os.IsNotExist(err):
			return "", err
		}
		up := filepath.Dir(at)
		if up == at {
			return at, nil
		}
		at = up
	}
}

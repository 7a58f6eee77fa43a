//go:build !unix

package atomicfile

// Writable reports why files cannot be made in dir: where permissions are
// not Unix ones only a file in the way is found before writing.
func Writable(dir string) error {
	_, err := nearestDir(dir)
	return err
}

//go:build unix

package userstate

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// private checks that the folder is a directory of this user that no one
// else can write.
func private(fi fs.FileInfo) error {
	if err := notDir(fi); err != nil {
		return err
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("it belongs to user %d", st.Uid)
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return fmt.Errorf("others can write it (mode %v)", fi.Mode().Perm())
	}
	return nil
}

func fileID(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return ""
}

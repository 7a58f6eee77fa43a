//go:build !unix

package userstate

import "io/fs"

// private checks that the folder is a directory (the user's profile folder
// is private by default where there are no Unix permissions).
func private(fi fs.FileInfo) error { return notDir(fi) }

func fileID(fs.FileInfo) string { return "" }

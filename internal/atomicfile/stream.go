package atomicfile

import (
	"io/fs"
	"os"

	"github.com/openwop/wopkit/internal/untrusted"
	"github.com/openwop/wopkit/internal/werr"
)

// Stdout is the output path that names standard output: a File created
// for it writes there, and committing it renames nothing.
const Stdout = "-"

// An output that names a device (/dev/null, a tape, a terminal) or a named
// pipe is written as a stream: opened for writing as it is, never renamed
// over or removed, and nothing is written beside it (a verb that writes a
// signature or a manifest next to its output writes neither, and says so).
// A socket is refused. A symbolic link to one is followed inside the place
// and refused when it leads out of it (path_outside_root), as every link
// the door writes through.

// specialKind names what a non-regular file is ("" for a regular file, a
// folder or a symbolic link).
func specialKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	}
	return ""
}

// IsStream reports whether path is an output written as a stream:
// standard output ("-"), or a device or named pipe (after following
// symbolic links). Nothing should be written beside such an output.
func IsStream(path string) bool {
	if path == Stdout {
		return true
	}
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	k := specialKind(fi.Mode())
	return k == "device" || k == "named pipe"
}

// StreamKind says what a stream output is, for messages: "standard
// output", "device" or "named pipe" ("" when path is not a stream).
func StreamKind(path string) string {
	if path == Stdout {
		return "standard output"
	}
	if !IsStream(path) {
		return ""
	}
	fi, _ := os.Stat(path)
	return specialKind(fi.Mode())
}

// notRegular is the refusal of a socket as an output, or of a rename or
// removal over a device or named pipe.
func notRegular(path, kind, what string) *werr.Error {
	return werr.New(werr.Invalid, untrusted.CodeNotRegular, "%s is a %s: wopkit %s; nothing was written", path, kind, what).
		WithHint("name a regular file (or - for standard output)")
}

// openStream opens rel inside r for writing when it is a device or a named
// pipe (following links that stay inside r): ok is false when rel is
// anything else (absent, a regular file, a folder, a link to one), and
// the caller writes it atomically.
func openStream(r *os.Root, dir, rel, final string) (f *File, ok bool, err error) {
	fi, err := r.Lstat(rel)
	if err != nil {
		return nil, false, nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		in, err := r.Stat(rel)
		if err != nil {
			// A link that leaves the place (or is broken): replaced as a
			// link is, unless it leads to a device or pipe, which the door
			// never writes through a link out of the place.
			if out, serr := os.Stat(final); serr == nil && specialKind(out.Mode()) != "" {
				return nil, false, werr.New(werr.Invalid, untrusted.CodeOutsideRoot, "%s is a link out of its folder to a %s; nothing was written", final, specialKind(out.Mode())).
					WithHint("name the %s itself, or - for standard output", specialKind(out.Mode()))
			}
			return nil, false, nil
		}
		fi = in
	}
	switch specialKind(fi.Mode()) {
	case "":
		return nil, false, nil
	case "socket":
		return nil, false, notRegular(final, "socket", "cannot write a file into it")
	}
	osf, err := r.OpenFile(rel, os.O_WRONLY, 0)
	if err != nil {
		return nil, false, placeErr(err, final)
	}
	return &File{File: osf, root: r, dir: dir, rel: rel, final: final, stream: true}, true, nil
}

// stdoutFile is a File over standard output.
func stdoutFile() *File {
	return &File{File: os.Stdout, final: Stdout, stream: true, stdout: true}
}

// renameOver renames tmp over rel inside r, the one rename of this package
// (its guard test holds it so): a device or named pipe that took rel's
// place since the file was created is refused, never replaced.
func renameOver(r *os.Root, tmp, rel, final string) error {
	if fi, err := r.Lstat(rel); err == nil {
		if k := specialKind(fi.Mode()); k != "" {
			return notRegular(final, k, "never replaces one")
		}
	}
	return r.Rename(tmp, rel)
}

// removeIn removes rel inside r, refusing a device, named pipe or socket
// (wopkit only removes what it wrote).
func removeIn(r *os.Root, rel, path string) error {
	if fi, err := r.Lstat(rel); err == nil {
		if k := specialKind(fi.Mode()); k != "" {
			return notRegular(path, k, "never removes one")
		}
	}
	return r.Remove(rel)
}

package atomicfile

import (
	"errors"
	"os"
)

// dirSyncUnsupported reports whether err is the system saying that a
// directory cannot be synced: Windows refuses FlushFileBuffers on a
// directory handle (access denied), and has no other way to make a
// rename durable; the rename stands as the file system keeps it.
func dirSyncUnsupported(err error) bool { return errors.Is(err, os.ErrPermission) }

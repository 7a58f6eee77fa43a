package validate

import "github.com/openwop/wopkit/internal/werr"

// tarballFile validates a pack tarball without extracting it to disk.
func (v *Validator) tarballFile(path string) (*Report, error) {
	return nil, werr.New(werr.Env, "not_implemented", "validating %s: tarball validation lands with internal/tarball", path)
}

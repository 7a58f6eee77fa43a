package publish

import (
	"sync"

	"github.com/openwop/wopkit/internal/tarball"
	"github.com/openwop/wopkit/internal/validate"
)

// The validators publish checks releases and version manifests with are
// made once per process. A validator compiles the embedded schemas it uses
// on first use (about 15 ms for a pack and its version manifest): made for
// every call, as they were, a process that stages more than one release
// (the tests, a library caller, a long-lived front end) compiled them again
// for every release, twice (the pack, then the version manifest).
// BenchmarkStageRelease measures a Stage with them.

// versionManifestValidator checks version manifests (checkVersionManifest).
var versionManifestValidator = sync.OnceValues(func() (*validate.Validator, error) {
	return validate.New(validate.Options{})
})

// releaseValidator is a validator of release manifests for one tree spec,
// with or without a registry catalog: the catalog differs from one call to
// the next (each tree's typeIds), so the validator reads it through the
// releaseValidator itself (its TypeCatalog), which passes each question to
// the catalog of the call under way; the calls are one at a time (mu).
// Nothing the validator keeps from one call to the next depends on the
// catalog: the compiled schemas, and the memo of schema results by item
// source text.
type releaseValidator struct {
	once sync.Once
	v    *validate.Validator
	err  error

	mu  sync.Mutex
	cat validate.TypeCatalog // the call's, while mu is held
}

// releaseValidators by [frozenV1][withCatalog].
var releaseValidators [2][2]releaseValidator

// HasTypeID is the catalog of the call under way.
func (r *releaseValidator) HasTypeID(id string) bool { return r.cat.HasTypeID(id) }

// withReleaseValidator calls f with the validator of releases into tree
// spec, reading the registry catalog cat (nil: none), and returns what f
// returns.
func withReleaseValidator(spec string, cat validate.TypeCatalog, f func(*validate.Validator) []validate.FileReport) ([]validate.FileReport, error) {
	frozen, withCat := 0, 0
	if spec == SpecV1 {
		frozen = 1
	}
	if cat != nil {
		withCat = 1
	}
	r := &releaseValidators[frozen][withCat]
	r.once.Do(func() {
		o := validate.Options{ForRegistry: true, FrozenV1: frozen == 1, Limits: &tarball.RegistryLimits}
		if withCat == 1 {
			o.Catalog = r
		}
		r.v, r.err = validate.New(o)
	})
	if r.err != nil {
		return nil, r.err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cat = cat
	defer func() { r.cat = nil }()
	return f(r.v), nil
}

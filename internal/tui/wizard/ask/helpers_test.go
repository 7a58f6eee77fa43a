package ask

import "github.com/openwop/wopkit/internal/validate"

var testValidator = func() *validate.Validator {
	v, err := validate.New(validate.Options{Placeholders: true})
	if err != nil {
		panic(err)
	}
	return v
}()

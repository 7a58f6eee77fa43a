package httpc

import (
	"io"
	"net/http"
	"net/url"

	"github.com/openwop/wopkit/internal/werr"
)

// ReadBody reads resp's body, which must be at most max bytes: a larger
// body (announced or sent) is refused with CodeTooLarge after reading at
// most max+1 bytes. A body that is not complete within the client's
// Timeout fails with CodeTimeout. The body is not closed.
func ReadBody(resp *http.Response, max int64) ([]byte, error) {
	var u *url.URL
	if resp.Request != nil {
		u = resp.Request.URL
	}
	where := show(u)
	if resp.ContentLength > max {
		return nil, tooLarge(where, max)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, transportErr(err, "cannot read the answer of %s", where)
	}
	if int64(len(b)) > max {
		return nil, tooLarge(where, max)
	}
	return b, nil
}

func tooLarge(where string, max int64) error {
	return werr.New(werr.Invalid, CodeTooLarge, "%s answered more than %d bytes", where, max).
		WithHint("no registry answer of this kind is this large; it was not read further")
}

package testenv

import "net/http"

// Bearer is an http.RoundTripper that adds "Authorization: Bearer Key".
type Bearer struct {
	Key  string
	Base http.RoundTripper // http.DefaultTransport when nil
}

// RoundTrip implements http.RoundTripper.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.Key)
	base := b.Base
	if base == nil {
		base = http.DefaultTransport
	}
	return base.RoundTrip(r)
}
